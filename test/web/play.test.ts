// Playing in a real browser: a whole game of Mistkäfer against a bot, played only by
// clicking the page's buttons (a random legal one each time), from the seat's link
// with its token in the fragment. The seat's page receives its own chips and nobody
// else's; a refusal is shown in words; the lobby lists the game, and both load times
// are measured (reported, not asserted).
import t from 'tap';
import type { Page } from 'playwright-core';
import { browser, rng, screenshot, serve, type Served } from './browser.ts';
import { secrets } from './hidden.ts';
import { drawn, expected } from './tables.ts';

t.setTimeout(600_000);

/** Plays the page's seat to the end by clicking a random enabled button (or, for a
 * command that picks cards, ticking a random legal set and sending it). */
async function playByClicking(page: Page, served: Served, id: string, token: string, random: () => number): Promise<number> {
  let clicks = 0;
  for (;;) {
    const state = await served.api('GET', `/games/${id}`, undefined, token);
    if (state.status === 'finished') return clicks;
    if (clicks > 3000) throw new Error('too many clicks');
    const shown = Number((await page.locator('[data-testid=version]').textContent())?.replace(/\D/g, ''));
    // The buttons for moves the table offers are folded away: this person uses them.
    const folded = page.locator('[data-testid=on-table-commands]:not([open]) > summary');
    if (await folded.count()) await folded.click().catch(() => undefined);
    const buttons = page.locator('[data-testid=commands] > button, [data-testid=on-table-commands][open] > button');
    const plain = await buttons.count();
    const picker = (await page.locator('[data-testid=picker]').count()) > 0;
    if (state.legalCommands.length === 0 || shown !== state.version || plain + (picker ? 1 : 0) === 0) {
      await page.waitForTimeout(20);
      continue;
    }
    const choice = Math.floor(random() * (plain + (picker ? 1 : 0)));
    if (choice < plain) await buttons.nth(choice).click();
    else {
      const picking = state.legalCommands.filter((c: { cards?: number[] }) => Array.isArray(c.cards));
      const { cards } = picking[Math.floor(random() * picking.length)];
      for (const card of cards) await page.check(`[data-testid=picker] input[data-card="${card}"]`);
      await page.click('[data-testid=picker] > button');
    }
    clicks++;
    await page.waitForFunction(
      (v) => Number(document.querySelector('[data-testid=version]')?.textContent?.replace(/\D/g, '')) > v || document.querySelector('[data-testid=refusal]')?.textContent,
      state.version,
      { timeout: 10_000 },
    );
  }
}

t.test('a person plays a whole game of Mistkäfer by clicking', async (t) => {
  const served = await serve(t);
  const chromium = await browser(t);
  const page = await chromium.newPage({ viewport: { width: 390, height: 844 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const received: { source: string; message: any }[] = [];
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  page.on('websocket', (socket) => socket.on('framereceived', (frame) => received.push({ source: 'frame', message: JSON.parse(String(frame.payload)) })));
  page.on('response', async (response) => {
    if (response.headers()['content-type']?.includes('json')) received.push({ source: response.url(), message: await response.json().catch(() => null) });
  });

  // The lobby creates the game: a person in seat 0 and a greedy bot.
  let started = performance.now();
  await page.goto(`${served.url}/`);
  await page.waitForSelector('[data-testid=create]');
  t.comment(`lobby loaded in ${Math.round(performance.now() - started)} ms (phone-sized window)`);
  await page.selectOption('[data-testid=create-type]', 'mistkaefer');
  await page.fill('[aria-label="Seat 1 name"]', 'Thea');
  await page.click('[data-testid=create]');
  const link = page.locator('[data-testid=created] a[data-seat="0"]');
  await link.waitFor();
  const href = (await link.getAttribute('href'))!;
  t.match(href, /\/play\/[0-9a-f-]+#token=/, 'the seat link carries its token in the fragment');
  const id = new URL(href).pathname.split('/')[2]!;
  const token = decodeURIComponent(new URL(href).hash.slice('#token='.length));
  await page.waitForSelector(`[data-game-id="${id}"]`);
  await screenshot(page, 'lobby');

  started = performance.now();
  await page.goto(href);
  await page.waitForSelector('[data-testid=table] svg');
  t.comment(`table loaded in ${Math.round(performance.now() - started)} ms`);

  const clicks = await playByClicking(page, served, id, token, rng(11));
  await page.waitForSelector('[data-testid=result]');
  const final = await served.api('GET', `/games/${id}`, undefined, token);
  t.ok(clicks > 5, `the game was played by ${clicks} clicks`);
  t.same(await drawn(page, 'mistkaefer'), expected('mistkaefer', final.view), 'the table ends as the seat\'s final view says');
  await screenshot(page, 'play-mistkaefer');

  const running = received.filter(({ message }) => message !== null && message.status !== 'finished' && message.game?.status !== 'finished');
  t.same(running.flatMap(({ source, message }) => secrets('mistkaefer', message, 0).map((s) => `${s} in ${source}`)), [], `nothing of the bot's chips in ${running.length} messages`);
  t.ok(running.some(({ message }) => secrets('mistkaefer', message, null).length > 0), 'the seat did receive its own chips (the search finds secrets)');
  t.notOk(requested.some((url) => url.includes(token)), 'the token is in no URL the page requested');
  t.same(errors, [], 'no script errors');
});

t.test('a refused command is shown in words from the problem document', async (t) => {
  const served = await serve(t);
  const chromium = await browser(t);
  const created = await served.api('POST', '/games', { type: 'pechvogel', seats: [{ name: 'Thea' }, { name: 'Umberto' }] });
  const id: string = created.game.id;
  const thea: string = created.seats[0].token;
  const page = await chromium.newPage();
  await page.goto(`${served.url}/play/${id}#token=${encodeURIComponent(thea)}`);
  const throwButton = page.locator('[data-testid=commands] button', { hasText: 'Throw' });
  await throwButton.waitFor();
  // The game moves on behind the page's back, and the page may not read it again yet:
  // its button now meets a version that is gone.
  await page.route(`**/games/${id}`, () => {});
  await served.api('POST', `/games/${id}/commands`, { command: { type: 'throw' } }, thea);
  await throwButton.click();
  const refusal = page.locator('[data-testid=refusal]');
  await page.waitForFunction(() => (document.querySelector('[data-testid=refusal]')?.textContent ?? '') !== '');
  const stale = await fetch(`${served.url}/games/${id}/commands`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${thea}` }, body: JSON.stringify({ command: { type: 'throw' }, expectedVersion: 1 }) });
  const problem = await stale.json();
  t.equal(problem.code, 'command/stale-version');
  t.equal(await refusal.textContent(), problem.detail, `the problem's detail is shown: ${problem.detail}`);
});

t.test('a person plays a whole game of Fackel+Keule by clicking, picking cards from the hand', async (t) => {
  const served = await serve(t);
  const chromium = await browser(t);
  const created = await served.api('POST', '/games', { type: 'fackel-und-keule', seed: 'click', seats: [{ name: 'Thea' }, { name: 'Bot 1', bot: 'greedy' }, { name: 'Bot 2', bot: 'random' }] });
  const id: string = created.game.id;
  const token: string = created.seats[0].token;
  const page = await chromium.newPage({ viewport: { width: 1100, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const received: any[] = [];
  page.on('websocket', (socket) => socket.on('framereceived', (frame) => received.push(JSON.parse(String(frame.payload)))));
  page.on('response', async (response) => {
    if (response.headers()['content-type']?.includes('json')) received.push(await response.json().catch(() => null));
  });
  await page.goto(`${served.url}/play/${id}#token=${encodeURIComponent(token)}`);
  await page.waitForSelector('[data-testid=picker]');
  const mid = await served.api('GET', `/games/${id}`, undefined, token);
  t.same(await drawn(page, 'fackel-und-keule'), expected('fackel-und-keule', mid.view), 'own hand face up, the others face down');
  await screenshot(page, 'play-fackel-und-keule');
  const clicks = await playByClicking(page, served, id, token, rng(5));
  await page.waitForSelector('[data-testid=result]');
  t.ok(clicks >= 12, `12 rounds played by ${clicks} clicks`);
  const running = received.filter((m) => m !== null && m.status !== 'finished' && m.game?.status !== 'finished');
  t.same(running.flatMap((m) => secrets('fackel-und-keule', m, 0)), [], `no other seat's cards in ${running.length} messages`);
  t.ok(running.some((m) => secrets('fackel-und-keule', m, null).length > 0), 'the seat did receive its own hand (the search finds secrets)');
  t.same(errors, [], 'no script errors');
});

t.test("Porca Miseria's reveal, grabs and pass are one key each", async (t) => {
  const served = await serve(t);
  const chromium = await browser(t);
  // Long windows: only the keys move the game while the test looks.
  const created = await served.api('POST', '/games', { type: 'porca-miseria', seed: 'keys', options: { revealMs: 60_000, windowMs: 60_000 }, seats: [{ name: 'Thea' }, { name: 'Umberto' }, { name: 'Kelly' }] });
  const id: string = created.game.id;
  const tokens: string[] = created.seats.map((s: { token: string }) => s.token);
  const start = await served.api('GET', `/games/${id}`);
  const starter: number = start.view.startingSeat;
  const page = await chromium.newPage();
  await page.goto(`${served.url}/play/${id}#token=${encodeURIComponent(tokens[starter]!)}`);
  await page.locator('[data-testid=commands] button', { hasText: 'Reveal' }).waitFor();
  const version = async (v: number) => page.waitForFunction((v) => Number(document.querySelector('[data-testid=version]')?.textContent?.replace(/\D/g, '')) >= v, v);
  await page.keyboard.press('r');
  await version(start.version + 1);
  let game = await served.api('GET', `/games/${id}`);
  t.not(game.view.card, null, 'R revealed the top card');
  // On to a symbol card: touch cards' windows are passed, and whoever starts reveals.
  while (game.view.phase !== 'symbol') {
    if (game.view.phase === 'touch') {
      for (const token of tokens) await served.api('POST', `/games/${id}/commands`, { command: { type: 'pass' } }, token).catch(() => {});
    } else if (game.view.phase === 'reveal') {
      await served.api('POST', `/games/${id}/commands`, { command: { type: 'reveal' } }, tokens[game.view.startingSeat]);
    } else throw new Error(`no symbol card before the ${game.view.phase} phase`);
    game = await served.api('GET', `/games/${id}`);
  }
  await version(game.version);
  await page.keyboard.press('2');
  await version(game.version + 1);
  const after = await served.api('GET', `/games/${id}`);
  t.equal(after.view.targets.find((x: { symbol: string }) => x.symbol === 'pig').heldBy, starter, 'key 2 grabbed the pig');
  t.equal(after.version, game.version + 1, 'one key, one command');
  await page.keyboard.press('p');
  await version(after.version + 1);
  const passed = await served.api('GET', `/games/${id}`);
  t.equal(passed.view.passed[starter], true, 'P passed');
});
