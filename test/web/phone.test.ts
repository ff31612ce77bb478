// Phone-sized screens (375×667, a touch phone as Chromium emulates it): the lobby, each
// game's table in replay, watch and play fit the width (no sideways scrolling of the
// page), the tables take their narrow layout and stay readable (drawn at no less than
// 0.8 of their size: 14-unit labels at 11 px or more), and the key controls are on the
// screen. Screenshots of each go to test/web/screenshots/phone-*.png.
import t, { type Test } from 'tap';
import type { Page } from 'playwright-core';
import { botGame, browser, gameTypes, screenshot, serve } from './browser.ts';

t.setTimeout(600_000);

const phone = { viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/** What the test asserts of every page: no page wider than the screen, and each
 * control named inside the screen's width and visible. */
async function fits(t: Test, page: Page, what: string, controls: string[]): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: window.innerWidth }));
  t.ok(scrollWidth <= innerWidth, `${what}: the page is ${scrollWidth} px wide on a ${innerWidth} px screen`);
  const table = await page.locator('[data-testid=table]').evaluateAll((tables) => tables.map((e) => ({ scrollWidth: e.scrollWidth, width: e.getBoundingClientRect().width })));
  for (const { scrollWidth, width } of table) t.ok(scrollWidth <= Math.ceil(width) && width <= innerWidth, `${what}: the table is ${scrollWidth} px wide in ${Math.round(width)} px, nothing to scroll sideways`);
  for (const selector of controls) {
    const control = page.locator(selector).first();
    const box = await control.boundingBox();
    t.ok((await control.isVisible()) && box !== null && box.x >= 0 && box.x + box.width <= innerWidth, `${what}: ${selector} is visible and on the screen`);
  }
}

/** The table's narrow layout, drawn at no less than 0.8 of its size. */
async function readableTable(t: Test, page: Page, what: string): Promise<void> {
  await page.waitForSelector('[data-testid=table][data-layout=narrow] svg');
  const scale = await page.locator('[data-testid=table] svg').evaluate((svg) => svg.getBoundingClientRect().width / (svg as SVGSVGElement).viewBox.baseVal.width);
  t.ok(scale >= 0.8, `${what}: the table is drawn at ${scale.toFixed(2)} of its size`);
}

t.test('every page fits a phone', async (t) => {
  const served = await serve(t);
  const chromium = await browser(t);
  const context = await chromium.newContext(phone);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  await page.goto(`${served.url}/`);
  await page.waitForSelector('[data-testid=create]');
  await fits(t, page, 'lobby', ['[data-testid=filter-type]', '[data-testid=filter-status]', '[data-testid=create-type]', '[data-testid=create]']);
  await screenshot(page, 'phone-lobby');

  const ids = await Promise.all(gameTypes.map((type) => botGame(served, type, `phone-${type}`)));
  for (const [i, type] of gameTypes.entries()) {
    const replay = await served.api('GET', `/games/${ids[i]}/replay`);
    await page.goto(`${served.url}/replay/${ids[i]}?v=${Math.floor(replay.steps.length / 2)}`);
    await page.waitForSelector('[data-testid=table] svg');
    await fits(t, page, `${type} replay`, ['[data-testid=back]', '[data-testid=play]', '[data-testid=forward]', '[data-testid=slider]', '[data-testid=version]']);
    await readableTable(t, page, `${type} replay`);
    // Stepping keeps the table where it is: the move list under it scrolls by itself.
    const half = Math.floor(replay.steps.length / 2);
    await page.click('[data-testid=forward]');
    await page.waitForFunction((v) => document.querySelector('[data-testid=version]')?.textContent?.startsWith(`${v} /`), half + 1);
    t.equal(await page.evaluate(() => window.scrollY), 0, `${type} replay: stepping does not scroll the page`);
    await screenshot(page, `phone-replay-${type}`);

    await page.goto(`${served.url}/watch/${ids[i]}`);
    await page.waitForSelector('[data-testid=table] svg');
    await fits(t, page, `${type} watch`, ['[data-testid=live-state]', '[data-testid=version]']);
    await readableTable(t, page, `${type} watch`);
  }

  // Playing: a seat's buttons, and Fackel+Keule's card picker, on the screen.
  for (const type of ['fackel-und-keule', 'pechvogel'] as const) {
    const created = await served.api('POST', '/games', { type, seed: `phone-play-${type}`, seats: [{ name: 'Thea' }, { name: 'Bot 1', bot: 'greedy' }, { name: 'Bot 2', bot: 'greedy' }] });
    await page.goto(`${served.url}/play/${created.game.id}#token=${encodeURIComponent(created.seats[0].token)}`);
    const controls = type === 'fackel-und-keule' ? ['[data-testid=picker] input', '[data-testid=picker] > button'] : ['[data-testid=commands] > button'];
    await page.waitForSelector(controls[0]!);
    await fits(t, page, `${type} play`, ['[data-testid=live-state]', ...controls]);
    await readableTable(t, page, `${type} play`);
    await screenshot(page, `phone-play-${type}`);
  }
  t.same(errors, [], 'no script errors');
});
