// A whole game played as a person plays it (issue 26, "Done means"): the lobby's create
// form with a bot, the seat's link under "Your games", then on the play page the first
// thing the page offers is clicked — a piece on the table if one is playable, else the
// first enabled button (a card picker is ticked in order until its button enables) —
// until the result banner shows, then the banner's rematch.
import type { Test } from 'tap';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { browser, serve, type Served } from './browser.ts';
import { checkBreakdown } from './checks.ts';

export const HOSTILE = '<img src=x onerror=alert(1)>';

export interface LobbyGame {
  /** The catalog type chosen in the create form. */
  type: string;
  /** Seat count: the form's default (the minimum) plus this many greedy bots. */
  extraSeats?: number;
  /** Option fields to fill, by option name (the form's #option-<name> inputs). */
  options?: Record<string, number>;
}

/** Creates the game from the lobby with the person named HOSTILE in seat 1 and opens
 * its play page through "Your games"; returns the game id. */
export async function createFromLobby(page: Page, url: string, game: LobbyGame): Promise<string> {
  await page.addInitScript(MARKS);
  await page.goto(`${url}/`);
  await page.selectOption('[data-testid=create-type]', game.type);
  for (let i = 0; i < (game.extraSeats ?? 0); i++) await page.getByRole('button', { name: 'Add a seat' }).click();
  await page.getByLabel('Seat 1 name').fill(HOSTILE);
  for (const [name, value] of Object.entries(game.options ?? {})) await page.fill(`#option-${name}`, String(value));
  await page.click('[data-testid=create]');
  await page.locator('[data-testid=created]').waitFor();
  const mine = page.locator('[data-testid=your-games] li').first();
  await mine.locator('a', { hasText: 'Play' }).click();
  await page.waitForURL(/\/play\/[^/#]+#token=/);
  await page.waitForSelector('[data-testid=table] svg');
  return new URL(page.url()).pathname.split('/')[2]!;
}

// Records every piece or area the table marks as the newest move, as it is marked (a
// bot's answer can replace the mark before the test looks), and when two are marked at once.
const MARKS = `globalThis.newestMarks = [];
new MutationObserver((records) => {
  for (const r of records) {
    const e = r.target;
    if (!(e instanceof SVGElement) || !e.classList.contains('newest')) continue;
    const all = document.querySelectorAll('[data-testid=table] svg .newest').length;
    globalThis.newestMarks.push(all > 1 ? 'more than one' : e.getAttribute('data-area') ?? e.getAttribute('data-piece'));
  }
}).observe(document, { attributes: true, attributeFilter: ['class'], subtree: true });`;

const version = (page: Page) => page.locator('[data-testid=version]').textContent();

/** Clicks what the page offers until the result banner shows; counts the clicks on the
 * table and on buttons. */
export async function playToTheEnd(page: Page): Promise<{ onTable: number; buttons: number; marked: Set<string> }> {
  let onTable = 0;
  let buttons = 0;
  const result = page.locator('[data-testid=result]');
  while (!(await result.count())) {
    const before = await version(page);
    const piece = page.locator('[data-testid=table] .actable').first();
    const button = page.locator('[data-testid=commands] > button:enabled').first();
    const picker = page.locator('[data-testid=picker]');
    try {
      if (await piece.count()) {
        await piece.click({ timeout: 2_000 });
        onTable++;
      } else if (await button.count()) {
        await button.click({ timeout: 2_000 });
        buttons++;
      } else if (await picker.count()) {
        const send = picker.locator('button');
        const boxes = picker.locator('input[type=checkbox]');
        for (let i = 0; i < (await boxes.count()) && (await send.isDisabled()); i++) await boxes.nth(i).check({ timeout: 2_000 });
        await send.click({ timeout: 2_000 });
        buttons++;
      }
    } catch {
      // The page moved on under the click (a bot, a timer or a race): look again.
      continue;
    }
    // Wait for the page to draw what the click (or anyone else) changed.
    await page.waitForFunction(
      (before) => document.querySelector('[data-testid=result]') !== null || document.querySelector('[data-testid=version]')?.textContent !== before || document.querySelector('[data-testid=table] .actable, [data-testid=commands] button:enabled') !== null,
      before,
      { timeout: 15_000, polling: 50 },
    ).catch(() => undefined);
    if ((await version(page)) === before && !(await result.count())) await page.waitForTimeout(50);
  }
  // What the table marked as the newest move along the way (MARKS): its data-area or data-piece.
  const marks = await page.evaluate(() => (globalThis as unknown as { newestMarks: string[] }).newestMarks);
  return { onTable, buttons, marked: new Set(marks) };
}

/** The banner after the game: the headline names how the person did, a replay link,
 * then the rematch opens the new game's play page with a new seat token. */
export async function bannerAndRematch(t: Test, page: Page, id: string): Promise<void> {
  const headline = await page.locator('[data-testid=headline]').textContent();
  t.match(headline, /^(You won|You came \d\w+ of \d|No result)/, `the banner says how the person did: ${headline}`);
  t.equal(await page.locator('[data-testid=table] .seat.active').count(), 0, 'no seat is outlined as if to play once the game is over');
  // Each seat's score comes with its parts as the rules counted them, adding up to it.
  await checkBreakdown(t, page, 'the banner');
  // The newest move the table shows is marked on it, with its words as a title.
  const newest = page.locator('[data-testid=table] svg .newest');
  t.equal(await newest.count(), 1, 'one piece or area of the table is marked as the newest move');
  t.match(await newest.locator('title.newest-hint').textContent(), /^Newest move: \S/, `the mark says the move: ${await newest.getAttribute('data-area') ?? await newest.getAttribute('data-piece')}`);
  t.equal(await page.locator('[data-testid=result]').getByRole('link', { name: /replay/i }).count(), 1, 'the banner links to the replay');
  const token = new URLSearchParams(new URL(page.url()).hash.slice(1)).get('token');
  await page.locator('[data-testid=result]').getByRole('button', { name: /rematch/i }).click();
  await page.waitForURL((u) => /\/play\/[^/#]+#token=/.test(u.href) && !u.pathname.includes(id));
  await page.waitForSelector('[data-testid=table] svg');
  const next = new URLSearchParams(new URL(page.url()).hash.slice(1)).get('token');
  t.ok(next && next !== token, 'the rematch is a new game with a new seat token');
}

export const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 } };

/** The whole walk for one game: a served app and a fresh browser page (any alert the
 * hostile name might raise is recorded), the game made in the lobby and played to its
 * banner. `rematch()` ends it: the banner, the rematch, and no alert ever raised. */
export async function playFromLobby(t: Test, game: LobbyGame, device: BrowserContextOptions = DESKTOP) {
  const served: Served = await serve(t);
  const chromium = await browser(t);
  const page = await chromium.newPage(device);
  const dialogs: string[] = [];
  page.on('dialog', (d) => (dialogs.push(d.message()), void d.dismiss()));
  const started = performance.now();
  const id = await createFromLobby(page, served.url, game);
  const played = await playToTheEnd(page);
  t.comment(`played in ${Math.round(performance.now() - started)} ms: ${played.onTable} clicks on the table, ${played.buttons} on buttons`);
  t.ok(!played.marked.has('more than one'), 'never more than one newest move marked');
  const rematch = async () => {
    await bannerAndRematch(t, page, id);
    t.same(dialogs, [], 'the hostile name ran nothing');
  };
  return { served, id, played, rematch };
}
