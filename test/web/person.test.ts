// The pages as a person meets them (issue 26), at a desktop's and a phone's size:
// the lobby (form first, options in words with visible help, winners, "Your games"
// kept across a reload with copy buttons), the replay (opens at the end, ?v= clamped
// without errors, the move list one tab stop) and the watch page; axe finds nothing
// on each, and every text drawn in a table stands out from what is under it (4.5:1).
// The play page: person-play.test.ts.
import t from 'tap';
import { botGame, browser, gameTypes, serve } from './browser.ts';
import { axeViolations, lowContrast, open, shot } from './checks.ts';

t.setTimeout(240_000);

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
    t.ok(await page.getByLabel('Bot speed').isVisible() && (await page.locator('#bot-speed-help').isVisible()), `${size}: with a bot seated, its speed is a choice in words, its help in sight`);
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
