// Playing in a real browser: a whole game of Mistkäfer against a bot, played only by
// clicking the page's buttons (a random legal one each time), from the seat's link
// with its token in the fragment. The seat's page receives its own chips and nobody
// else's; a refusal is shown in words; the lobby lists the game, and both load times
// are measured (reported, not asserted).
import t from 'tap';
import { browser, rng, screenshot, serve } from './browser.ts';
import { secrets } from './hidden.ts';
import { drawn, expected } from './tables.ts';

t.setTimeout(600_000);

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

  const random = rng(11);
  let clicks = 0;
  for (;;) {
    const state = await served.api('GET', `/games/${id}`, undefined, token);
    if (state.status === 'finished') break;
    if (clicks > 2000) throw new Error('too many clicks');
    const buttons = page.locator('[data-testid=commands] button:not([disabled])');
    const count = state.legalCommands.length > 0 ? await buttons.count() : 0;
    if (count === 0) {
      await page.waitForTimeout(30);
      continue;
    }
    const before = state.version;
    await buttons.nth(Math.floor(random() * count)).click();
    clicks++;
    await page.waitForFunction((v) => Number(document.querySelector('[data-testid=version]')?.textContent?.replace(/\D/g, '')) > v || document.querySelector('[data-testid=refusal]')?.textContent, before, { timeout: 10_000 });
  }
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
