// Mistkäfer played on the table itself at a phone's size with touch (issue 26, point
// 8): the rolls are dice drawn where the dice land, a rolled die places its value;
// the buttons stay as the fallback, folded away (bonuses, steals and scoring keep theirs).
// Then the result banner.
import t from 'tap';
import { browser, serve } from './browser.ts';
import { axeViolations } from './checks.ts';

t.setTimeout(120_000);

t.test('Mistkäfer by tapping the dice on the table', async (t) => {
  const served = await serve(t);
  const chromium = await browser(t);
  const context = await chromium.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const created = await served.api('POST', '/games', { type: 'mistkaefer', seats: [{ name: 'Ana' }, { name: 'Bo', bot: 'greedy' }] });
  const [id, token] = [created.game.id, created.seats[0].token];
  await page.goto(`${served.url}/play/${id}#token=${token}`);
  await page.waitForSelector('[data-testid=table] svg');
  let onTable = 0;
  let buttons = 0;
  let checked = false;
  for (let i = 0; i < 300; i++) {
    const game = await served.api('GET', `/games/${id}`, undefined, token);
    if (game.status === 'finished') break;
    if (game.legalCommands.length === 0) {
      await new Promise((r) => setTimeout(r, 20));
      continue;
    }
    // Wait for the page to draw the version the API shows, then act on it.
    await page.waitForFunction((v) => document.querySelector('[data-testid=version]')?.textContent?.includes(`version ${v}`), game.version);
    const piece = page.locator('[data-testid=table] .actable').first();
    if (await piece.count()) {
      if (!checked) {
        t.same(await axeViolations(page), [], 'axe finds nothing with pieces to play on the table');
        // The rolls' buttons are folded away, so the first screen shows the seat's own
        // tableau whole (thirteen buttons pushed it below the fold).
        const own = await page.locator('[data-area=player][data-seat="0"]').evaluate((panel) => Math.ceil(panel.getBoundingClientRect().bottom + scrollY));
        t.ok(own <= 844, `Ana's tableau ends at ${own} px, on the first screen of 844`);
        t.equal(await page.locator('[data-testid=on-table-commands]').getAttribute('open'), null, 'the buttons for the moves on the table start folded');
        await page.screenshot({ path: '/tmp/shots/play-mistkaefer-table-phone.png', fullPage: true });
        checked = true;
      }
      await piece.tap();
      onTable++;
    } else {
      await page.locator('[data-testid=commands] button').first().tap();
      buttons++;
    }
    await page.waitForFunction((v) => !document.querySelector('[data-testid=version]')?.textContent?.includes(`version ${v}`), game.version);
  }
  await page.waitForSelector('[data-testid=result]');
  t.ok(onTable > 3, `played mostly on the table: ${onTable} taps on dice, ${buttons} on buttons`);
  t.match(await page.locator('[data-testid=headline]').textContent(), /^You (won|came 2nd of 2)$/, 'the banner says how Ana did');
});
