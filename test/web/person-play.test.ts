// The play page as a person meets it (issue 26), at a desktop's and a phone's size:
// one turn indicator, a countdown for every deadline, the move list following the
// newest move unless scrolled back, the newest move said over the table, and a
// result banner with every seat's score and the replay; axe finds nothing.
import t from 'tap';
import { browser, serve, type Served } from './browser.ts';
import { axeViolations, checkBreakdown, open, shot } from './checks.ts';

t.setTimeout(120_000);

const hostile = `<img src=x onerror=alert(1)>"'&`;

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
    }).catch(async (e) => {
      throw new Error(`${e}: ${await list.evaluate((ol) => JSON.stringify([ol.scrollTop, ol.clientHeight, ol.scrollHeight]))}`);
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
    t.equal(await page.locator('[data-testid=scores] > li').count(), 2, `${size}: every seat's score`);
    // Mistkäfer's chips, face down all game, are counted face up under their owners' scores.
    await checkBreakdown(t, page, size, result.result);
    t.ok(await page.locator('[data-testid=replay]').isVisible(), `${size}: and a button to the replay`);
    t.same(await axeViolations(page), [], `${size}: axe finds nothing on the finished play page`);
    await shot(page, `play-mistkaefer-over-${size}`);
    t.same(failed.filter((f) => !f.startsWith('409')), [], `${size}: no request failed, no script error`);
    await page.context().close();
  }
});
