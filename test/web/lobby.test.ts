// The lobby in a real browser: games listed and filtered by type and status (the
// filter kept in the address), an open seat joined from the list, and a game created
// with an option from the catalog's schema. Its load time is printed, not asserted.
import t from 'tap';
import { botGame, browser, serve } from './browser.ts';

t.setTimeout(300_000);

t.test('list, filter, join and create from the lobby', async (t) => {
  const served = await serve(t);
  const chromium = await browser(t);
  const finishedId = await botGame(served, 'pechvogel', 'lobby');
  const running = await served.api('POST', '/games', { type: 'mistkaefer', seats: [{ name: 'Ada' }, { name: 'Bot', bot: 'greedy' }] });
  const open = await served.api('POST', '/games', { type: 'fackel-und-keule', seats: [{ name: 'Ada' }, { open: true }, { name: 'Bot', bot: 'greedy' }] });

  const page = await chromium.newPage({ viewport: { width: 390, height: 844 } });
  const started = performance.now();
  await page.goto(`${served.url}/`);
  await page.waitForSelector('[data-testid=games]');
  t.comment(`lobby with its list loaded in ${Math.round(performance.now() - started)} ms`);
  const listed = () => page.locator('[data-testid=games] [data-game-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-game-id')));
  t.same(new Set(await listed()), new Set([finishedId, running.game.id, open.game.id]), 'every game is listed');

  await page.selectOption('[data-testid=filter-status]', 'finished');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=games] [data-game-id]').length === 1);
  t.same(await listed(), [finishedId], 'finished only');
  t.equal(await page.locator(`[data-game-id="${finishedId}"] a[href="/replay/${finishedId}"]`).count(), 1, 'a finished game links to its replay');
  await page.selectOption('[data-testid=filter-status]', 'open');
  await page.selectOption('[data-testid=filter-type]', 'fackel-und-keule');
  await page.waitForURL(/type=fackel-und-keule/);
  await page.waitForFunction((id) => [...document.querySelectorAll('[data-testid=games] [data-game-id]')].map((r) => r.getAttribute('data-game-id')).join() === id, open.game.id);
  t.match(page.url(), /status=open/, 'the filter is in the address');
  await page.reload();
  await page.waitForSelector('[data-testid=games]');
  t.same(await listed(), [open.game.id], 'and survives a reload');

  await page.fill(`[data-game-id="${open.game.id}"] input`, 'Kelly');
  await page.click(`[data-game-id="${open.game.id}"] button[type=submit]`);
  await page.waitForURL(/\/play\/.*#token=/);
  await page.waitForSelector('[data-testid=table] svg');
  t.match(await page.locator('h1').textContent(), /playing as Kelly/, 'joined: the seat page of the open seat');
  const game = await served.api('GET', `/games/${open.game.id}`);
  t.same(game.game.waitingFor, [0], 'the last seat taken: the table, which has a bot, waits for Ada, who has not opened it');

  await page.goto(`${served.url}/`);
  await page.selectOption('[data-testid=create-type]', 'pechvogel');
  await page.fill('#option-reactionSeconds', '7');
  await page.click('[data-testid=create]');
  const link = page.locator('[data-testid=created] a[data-seat="0"]');
  await link.waitFor();
  const id = new URL((await link.getAttribute('href'))!).pathname.split('/')[2]!;
  const created = await served.api('GET', `/games/${id}`);
  t.equal(created.game.options.reactionSeconds, 7, 'the option from the form');
  t.same(created.game.seats.map((s: { bot: string | null }) => s.bot), [null, 'greedy'], 'a person and a bot, as the form defaults');
  t.equal(created.game.botThinkMs, null, "the bots' pace left to the server unless chosen");

  // With a bot at the table the form offers its pace, in words with its help in sight.
  await page.goto(`${served.url}/`);
  await page.waitForSelector('[data-testid=bot-speed]');
  t.ok(await page.locator('#bot-speed-help').isVisible(), 'the bot speed says what it is for, not in a tooltip');
  await page.selectOption('[data-testid=bot-speed]', { label: 'fast (no pause)' });
  await page.click('[data-testid=create]');
  await link.waitFor();
  const fast = await served.api('GET', `/games/${new URL((await link.getAttribute('href'))!).pathname.split('/')[2]!}`);
  t.equal(fast.game.botThinkMs, 0, 'fast bots: the game thinks 0 ms a move');
  await page.getByLabel('Seat 2 player').selectOption('person');
  t.equal(await page.locator('[data-testid=bot-speed]').count(), 0, 'no bot at the table, no bot speed');
  await page.goto(`${served.url}/`);

  // A setup the rules refuse is shown in words.
  await page.fill('#option-firstSeat', '4');
  await page.click('[data-testid=create]');
  await page.locator('[data-testid=problem]').waitFor();
  t.match(await page.locator('[data-testid=problem]').textContent(), /firstSeat/, 'the refusal names the option');
});
