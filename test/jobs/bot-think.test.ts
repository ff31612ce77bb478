// Bot think time (BotSeats' thinkMs, BOT_THINK_MS): a table of bots can be watched.
// A bot waits its think time after its seat became pending, measured on the events'
// own times; 0 moves at once; the sweeper does not take a thinking bot for a stalled
// one, and a game whose bot was thinking when its instance went away still finishes.
import t from 'tap';
import type { App } from '../../src/app.ts';
import { bearerHeader, createGame, testApp } from '../helpers/app.ts';
import { testDatabase } from '../helpers/database.ts';

interface Logged { seq: number; at: string; actor: string }

async function events(app: App, id: string): Promise<Logged[]> {
  return ((await app.inject({ url: `/games/${id}/events?after=0&limit=1000` })).json() as { events: Logged[] }).events;
}

/** Reads the game until it has at least `version` events (bounded). */
async function reaches(app: App, id: string, version: number, withinMs = 20_000): Promise<number> {
  const started = Date.now();
  for (;;) {
    const game = (await app.inject({ url: `/games/${id}` })).json() as { version: number };
    if (game.version >= version) return game.version;
    if (Date.now() - started > withinMs) throw new Error(`game at version ${game.version} after ${withinMs} ms, wanted ${version}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The gaps between consecutive bot events and the event before each. */
function botGaps(log: Logged[]): number[] {
  const gaps: number[] = [];
  for (let i = 1; i < log.length; i++) if (log[i]!.actor.startsWith('bot:') && log[i - 1]!.seq === log[i]!.seq - 1) gaps.push(Date.parse(log[i]!.at) - Date.parse(log[i - 1]!.at));
  return gaps;
}

const bots = { type: 'pechvogel', seats: [{ bot: 'greedy' }, { bot: 'random' }] };

t.test('a bot thinking 300 ms moves no sooner than 300 ms after its seat became pending', async (t) => {
  const app = await testApp(t, { botThinkMs: 300 });
  const { id } = await createGame(app, { ...bots, seed: 'think-300' });
  const opened = (await app.inject({ url: `/games/${id}` })).json() as { version: number };
  await reaches(app, id, opened.version + 3);
  const gaps = botGaps(await events(app, id)).slice(0, 3);
  t.equal(gaps.length, 3, 'three bot moves');
  for (const gap of gaps) t.ok(gap >= 300, `a bot move ${gap} ms after the event before it`);
});

t.test('think time 0 (the test default) moves at once, and the table of bots finishes', async (t) => {
  const app = await testApp(t);
  const { id } = await createGame(app, { ...bots, seed: 'think-0' });
  const started = Date.now();
  for (;;) {
    const game = (await app.inject({ url: `/games/${id}` })).json() as { status: string };
    if (game.status === 'finished') break;
    if (Date.now() - started > 20_000) throw new Error('not finished');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const gaps = botGaps(await events(app, id));
  t.ok(gaps.length > 3, `${gaps.length} bot moves`);
  t.ok(Math.min(...gaps) < 100, 'no move waited for a think time');
});

t.test('the sweeper leaves a thinking bot alone, and moves it once it is overdue', async (t) => {
  const database = await testDatabase(t);
  const app = await testApp(t, { database, botThinkMs: 5_000, sweeper: { stallMs: 50 } });
  const { id } = await createGame(app, { ...bots, seed: 'think-sweep' });
  const opened = (await app.inject({ url: `/games/${id}` })).json() as { version: number };
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.same(await app.services.sweeper.sweep(), [], 'waiting less than think time + STALL_MS is not a stall');
  t.equal(((await app.inject({ url: `/games/${id}` })).json() as { version: number }).version, opened.version, 'the bot is still thinking');

  // Its wake-up is lost in effect: the game has waited longer than think time + STALL_MS.
  await database.pool.query(`UPDATE game SET updated_at = now() - interval '1 minute' WHERE id = $1::uuid`, [id]);
  t.same((await app.services.sweeper.sweep()).map((m) => m.version), [opened.version], 'an overdue bot is moved on, at once');
  t.same(await app.services.sweeper.sweep(), [], 'and only once');
  const log = await events(app, id);
  t.equal(log.filter((e) => e.seq === opened.version + 1).length, 1, 'one move at that version');
});

t.test('a game whose bot was thinking when its instance went away finishes on another', async (t) => {
  const database = await testDatabase(t);
  const gone = await testApp(t, { database, botThinkMs: 60_000 });
  const { id } = await createGame(gone, { ...bots, seed: 'think-gone' });
  const opened = (await gone.inject({ url: `/games/${id}` })).json() as { version: number };
  const closing = Date.now();
  await gone.close();
  t.ok(Date.now() - closing < 5_000, 'close() does not wait out a thinking bot');

  // The other instance thinks 100 ms: its sweeper finds the game overdue once the game
  // has waited 100 + 50 ms, and its bots then carry the table on.
  const other = await testApp(t, { database, botThinkMs: 100, sweeper: { stallMs: 50 } });
  await database.pool.query(`UPDATE game SET updated_at = now() - interval '1 minute' WHERE id = $1::uuid`, [id]);
  const moved = await other.services.sweeper.sweep();
  t.same(moved.map((m) => m.reason), ['bot'], 'the sweeper moved the overdue bot at once');
  await reaches(other, id, opened.version + 3);
  const gaps = botGaps(await events(other, id));
  t.ok(gaps.slice(1).every((gap) => gap >= 100), 'the bots after it think on this instance');
});

t.test('the default comes from the app option; the test app has 0', async (t) => {
  const app = await testApp(t, { botThinkMs: 250 });
  const { id } = await createGame(app, { ...bots, seed: 'think-default' });
  const opened = (await app.inject({ url: `/games/${id}` })).json() as { version: number };
  await new Promise((resolve) => setTimeout(resolve, 100));
  t.equal(((await app.inject({ url: `/games/${id}` })).json() as { version: number }).version, opened.version, 'no move in the first 100 ms');
  await reaches(app, id, opened.version + 1);
});

t.test("a game's own think time (POST /games botThinkMs) overrides the server's, both ways", async (t) => {
  const database = await testDatabase(t);
  const app = await testApp(t, { database, sweeper: { stallMs: 50 } });
  // The server moves at once (the test default); this game asked for 300 ms.
  const slow = await createGame(app, { ...bots, seed: 'own-300', botThinkMs: 300 });
  t.equal((slow.created.game as { botThinkMs?: number }).botThinkMs, 300, 'the game says its think time');
  // Another instance has nothing of it in memory: it reads what the database kept.
  const other = await testApp(t, { database });
  t.equal((await other.inject({ url: `/games/${slow.id}` })).json().game.botThinkMs, 300, 'stored with the game');
  const opened = (await app.inject({ url: `/games/${slow.id}` })).json() as { version: number };
  await reaches(app, slow.id, opened.version + 3);
  const gaps = botGaps(await events(app, slow.id)).slice(0, 3);
  for (const gap of gaps) t.ok(gap >= 300, `a bot move ${gap} ms after the event before it`);

  // Thinking within its own time is no stall; past it and STALL_MS, it is.
  const thinking = await createGame(app, { ...bots, seed: 'own-5000', botThinkMs: 5_000 });
  const before = (await app.inject({ url: `/games/${thinking.id}` })).json() as { version: number };
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.same((await app.services.sweeper.sweep()).filter((m) => m.gameId === thinking.id), [], "the sweeper waits out the game's own think time");
  await database.pool.query(`UPDATE game SET updated_at = now() - interval '1 minute' WHERE id = $1::uuid`, [thinking.id]);
  t.same((await app.services.sweeper.sweep()).filter((m) => m.gameId === thinking.id).map((m) => m.version), [before.version], 'and moves it once overdue');
});

t.test('botThinkMs 0 plays at once on a server whose bots think 5 s', async (t) => {
  const app = await testApp(t, { botThinkMs: 5_000 });
  const { id, created } = await createGame(app, { ...bots, seed: 'own-0', botThinkMs: 0 });
  t.equal((created.game as { botThinkMs?: number }).botThinkMs, 0, 'the game says 0, not the default');
  const opened = (await app.inject({ url: `/games/${id}` })).json() as { version: number };
  await reaches(app, id, opened.version + 3);
  const gaps = botGaps(await events(app, id)).slice(0, 3);
  t.equal(gaps.length, 3, 'three bot moves');
  // By the events' own times: a bot of the server's pace would be 5 s behind each event.
  for (const gap of gaps) t.ok(gap < 5_000, `a bot move ${gap} ms after the event before it`);
});

t.test("a rematch keeps the game's think time, and a game that set none keeps none", async (t) => {
  const app = await testApp(t);
  for (const botThinkMs of [1_234, undefined]) {
    const game = await createGame(app, { type: 'pechvogel', seats: [{ name: 'Ana' }, { bot: 'greedy' }], seed: `rematch-${botThinkMs}`, ...(botThinkMs === undefined ? {} : { botThinkMs }) });
    const resigned = await app.inject({ method: 'POST', url: `/games/${game.id}/commands`, headers: bearerHeader(game.tokens[0]), payload: { command: { type: 'resign' } } });
    t.equal(resigned.statusCode, 200, 'Ana resigns: the game is over');
    const rematch = await app.inject({ method: 'POST', url: `/games/${game.id}/rematch`, headers: bearerHeader(game.tokens[0]) });
    t.equal(rematch.statusCode, 200);
    t.equal(rematch.json().game.botThinkMs, botThinkMs ?? null, `the rematch's think time: ${botThinkMs ?? "none (the server's)"}`);
  }
});

t.test('a think time out of range is refused with a problem document, and nothing is created', async (t) => {
  const app = await testApp(t);
  for (const botThinkMs of [-1, 10_001, 1.5, '300']) {
    const answer = await app.inject({ method: 'POST', url: '/games', payload: { ...bots, botThinkMs } });
    t.equal(answer.statusCode, 400, `botThinkMs ${JSON.stringify(botThinkMs)}: 400`);
    t.match(answer.json(), { type: /.+/, code: 'request/invalid', detail: /botThinkMs/ }, 'a problem document with its stable code, naming the field');
  }
  t.equal((await app.inject({ url: '/games' })).json().games.length, 0, 'no game was created');
});
