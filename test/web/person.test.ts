// The pages as a person meets them (issue 26), at a desktop's and a phone's size:
// the lobby (form first, options in words with visible help, winners, "Your games"
// kept across a reload with copy buttons), the play page (one turn indicator, a
// countdown for every deadline, the move list following the newest move unless
// scrolled back, a result banner), the replay (opens at the end, ?v= clamped without
// errors, the move list one tab stop) and the watch page; axe finds nothing on each,
// and every text drawn in a table stands out from what is under it (4.5:1).
import t from 'tap';
import type { Browser, Page } from 'playwright-core';
import { botGame, browser, gameTypes, serve, type Served } from './browser.ts';
import { axeViolations, lowContrast } from './checks.ts';

t.setTimeout(240_000);

const sizes = {
  desktop: { viewport: { width: 1440, height: 900 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
} as const;
const hostile = `<img src=x onerror=alert(1)>"'&`;
const shot = (page: Page, name: string) => page.screenshot({ path: `/tmp/shots/${name}.png`, fullPage: true });

async function open(chromium: Browser, size: keyof typeof sizes): Promise<{ page: Page; failed: string[] }> {
  const context = await chromium.newContext(sizes[size]);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  const failed: string[] = [];
  page.on('response', (r) => void (r.status() >= 400 && failed.push(`${r.status()} ${r.url()}`)));
  page.on('pageerror', (e) => failed.push(e.message));
  return { page, failed };
}

/** Random legal commands of a seat through the API until `until` holds or the game ends. */
async function move(served: Served, id: string, token: string, until: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const game = await served.api('GET', `/games/${id}`, undefined, token);
    if (game.status === 'finished' || (await until())) return;
    const legal: unknown[] = game.legalCommands;
    if (legal.length) await served.api('POST', `/games/${id}/commands`, { command: legal[i % legal.length], expectedVersion: game.version }, token).catch(() => {});
    else await new Promise((r) => setTimeout(r, 20));
  }
}

t.test('a person at a desktop and a phone', async (t) => {
  const served = await serve(t);
  const chromium = await browser(t);
  const finished = await Promise.all(gameTypes.map((type) => botGame(served, type, `person-${type}`)));

  for (const size of ['desktop', 'phone'] as const) {
    // The lobby: the form first, options in words with their help on the page, the winners.
    const { page, failed } = await open(chromium, size);
    await page.goto(`${served.url}/`);
    await page.waitForSelector('[data-testid=games]');
    const formTop = (await page.locator('form.create').boundingBox())!.y;
    t.ok(formTop < (await page.locator('[data-testid=games]').boundingBox())!.y, `${size}: the form comes before the list`);
    await page.selectOption('[data-testid=create-type]', 'pechvogel');
    t.match(await page.locator('label[for=option-reactionSeconds]').textContent(), /seconds/, `${size}: an option's label says its unit`);
    t.ok(await page.locator('#option-reactionSeconds-help').isVisible(), `${size}: its help is on the page, not in a tooltip`);
    t.match(await page.locator(`[data-game-id="${finished[0]}"] [data-testid=winners]`).textContent(), /won by \S/, `${size}: a finished game names its winner`);
    t.same(await axeViolations(page), [], `${size}: axe finds nothing in the lobby`);
    await shot(page, `lobby-${size}`);

    // Created with a bot and default names; the seat link survives a reload.
    await page.click('[data-testid=create]');
    const link = page.locator('[data-testid=created] a[data-seat="0"]');
    const id = new URL((await link.getAttribute('href'))!).pathname.split('/')[2]!;
    t.same((await served.api('GET', `/games/${id}`)).game.seats.map((s: { name: string }) => s.name), ['Player 1', 'Greedy bot 2'], `${size}: seats named by what plays them`);
    await page.reload();
    const mine = page.locator(`[data-testid=your-games] [data-game-id="${id}"]`);
    await mine.waitFor();
    await page.waitForFunction((id) => document.querySelector(`[data-testid=your-games] [data-game-id="${id}"] [data-testid=state]`)?.textContent !== '…', id);
    t.match(await mine.textContent(), /Pechvogel as Player 1/, `${size}: "Your games" keeps the seat after a reload`);
    await mine.locator('[data-testid=copy]').click();
    t.equal(await page.evaluate(() => navigator.clipboard.readText()), await mine.locator('a').getAttribute('href'), `${size}: the copy button copies the seat's link`);

    // Replays of finished games open at their end; ?v= is clamped, without any error.
    for (const [i, type] of gameTypes.entries()) {
      const last = (await served.api('GET', `/games/${finished[i]}`)).version;
      for (const [v, want] of i === 0 ? ([['9999', last], ['abc', last], ['-3', 0]] as const) : []) {
        await page.goto(`${served.url}/replay/${finished[i]}?v=${v}`);
        await page.waitForFunction((want) => document.querySelector('[data-testid=version]')?.textContent?.startsWith(`${want} /`), want);
      }
      await page.goto(`${served.url}/replay/${finished[i]}`);
      await page.waitForFunction((n) => document.querySelectorAll('.moves li').length === n, last);
      t.match(await page.locator('[data-testid=version]').textContent(), new RegExp(`^${last} /`), `${size}: ${type}'s replay opens at its end`);
      t.same(await lowContrast(page), [], `${size}: ${type}'s replay: every text in the table stands out`);
      if (i === 0) {
        t.same(await axeViolations(page), [], `${size}: axe finds nothing in a replay`);
        t.equal(await page.locator('.moves [tabindex="0"], .moves[tabindex="0"]').count(), 1, `${size}: the move list is one tab stop`);
        await page.locator('.moves [tabindex="0"]').focus();
        await page.keyboard.press('ArrowUp');
        await page.waitForFunction((want) => document.querySelector('[data-testid=version]')?.textContent?.startsWith(`${want} /`), last - 1);
        t.equal(await page.evaluate(() => document.activeElement?.closest('li')?.getAttribute('data-seq')), String(last - 1), `${size}: the arrow keys move inside it`);
        t.equal(await page.locator('.moves li button').first().evaluate((b) => getComputedStyle(b).display), 'block', `${size}: a wrapped move keeps its number on its first line`);
      }
      await shot(page, `replay-${type}-${size}`);
      await page.goto(`${served.url}/watch/${finished[i]}`);
      await page.waitForSelector('[data-testid=result]');
      t.same(await lowContrast(page), [], `${size}: ${type}'s watch page: every text in the table stands out`);
      if (i === 0) t.same(await axeViolations(page), [], `${size}: axe finds nothing on the watch page (its move list takes the keyboard)`);
      await shot(page, `watch-${type}-${size}`);
    }
    t.same(failed, [], `${size}: no request failed, no script error`);
    await page.context().close();
  }
});

t.test('playing: one turn indicator, countdowns, the newest move, the result', async (t) => {
  const served = await serve(t);
  const chromium = await browser(t);
  for (const size of ['desktop', 'phone'] as const) {
    // A turn clock: its countdown runs on the page.
    const clocked = await served.api('POST', '/games', { type: 'fackel-und-keule', options: { turnSeconds: 60 }, seats: [{ name: hostile }, { name: 'Bo', bot: 'greedy' }, { name: 'Cy', bot: 'greedy' }] });
    const { page, failed } = await open(chromium, size);
    await page.goto(`${served.url}/play/${clocked.game.id}#token=${clocked.seats[0].token}`);
    const countdown = page.locator('[data-testid=countdown]');
    await countdown.waitFor();
    const seconds = () => countdown.textContent().then((s) => Number(s!.match(/(\d+) s left/)![1]));
    const first = await seconds();
    t.ok(first > 50 && first <= 60, `${size}: the turn clock counts down from 60 s (${first})`);
    await page.waitForFunction((first) => Number(document.querySelector('[data-testid=countdown]')?.textContent?.match(/(\d+) s/)?.[1]) < first, first);
    t.equal(await page.locator('[data-testid=turn]').count(), 1, `${size}: one indicator says whose turn it is`);
    t.match(await page.locator('[data-testid=turn]').textContent(), /^Your turn/, `${size}: and it is yours`);
    t.equal(await page.getByText('to act').count(), 0, `${size}: nothing else says who is to act`);
    t.same(await axeViolations(page), [], `${size}: axe finds nothing on the play page`);
    await shot(page, `play-fackel-und-keule-${size}`);

    // The move list follows the newest move, unless scrolled back.
    const game = await served.api('POST', '/games', { type: 'mistkaefer', seats: [{ name: hostile }, { name: 'Bo', bot: 'greedy' }] });
    const [id, token] = [game.game.id, game.seats[0].token];
    await page.goto(`${served.url}/play/${id}#token=${token}`);
    await page.waitForSelector('[data-testid=table] svg');
    const list = page.locator('[data-testid=moves]');
    const count = () => list.locator('li').count();
    const overflowing = () => list.evaluate((ol) => ol.scrollHeight > ol.clientHeight + 20);
    await move(served, id, token, overflowing);
    await page.waitForFunction(() => {
      const ol = document.querySelector('[data-testid=moves]')!;
      return ol.scrollTop > 0 && ol.scrollTop + ol.clientHeight >= ol.scrollHeight - 8;
    });
    t.pass(`${size}: the move list shows the newest move`);
    t.match(await page.locator('[data-testid=last-move]').textContent(), /^Last move: \S/, `${size}: the newest move is said over the table`);
    await list.evaluate((ol) => ol.scrollTo(0, 0));
    const before = await count();
    await move(served, id, token, async () => (await count()) > before + 2);
    t.equal(await list.evaluate((ol) => ol.scrollTop), 0, `${size}: scrolled back, it stays where the person put it`);
    await move(served, id, token, async () => false);
    await page.waitForSelector('[data-testid=result]');
    const result = await served.api('GET', `/games/${id}`);
    t.equal(await page.locator('[data-testid=headline]').textContent(), result.result.winners.includes(0) ? 'You won' : 'You came 2nd of 2', `${size}: the banner says how the viewer did`);
    t.equal(await page.locator('[data-testid=scores] li').count(), 2, `${size}: every seat's score`);
    t.ok(await page.locator('[data-testid=replay]').isVisible(), `${size}: and a button to the replay`);
    t.same(await axeViolations(page), [], `${size}: axe finds nothing on the finished play page`);
    await shot(page, `play-mistkaefer-over-${size}`);
    t.same(failed.filter((f) => !f.startsWith('409')), [], `${size}: no request failed, no script error`);
    await page.context().close();
  }
});
