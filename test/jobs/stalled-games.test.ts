// The sweeper (src/jobs/stalled-games.ts) moves on a game left waiting on the server:
// a bot seat that nobody woke, a deadline that no timer fired. Each is counted in
// spielwerk_stalled_games_total and logged with the game's id; a game waiting on a
// person is left alone, and a second sweep (or instance) does not move a game twice.
import { Writable } from 'node:stream';
import t from 'tap';
import pino from 'pino';
import type { App } from '../../src/app.ts';
import { bearerHeader, createGame, testApp, testClock } from '../helpers/app.ts';
import { testDatabase } from '../helpers/database.ts';

/** A pino logger whose lines land in `lines`. */
function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'warn' }, stream), lines };
}

const stalledCount = async (app: App, reason: string) => {
  const text = (await app.inject({ url: '/metrics' })).body;
  const line = text.split('\n').find((l) => l.startsWith('spielwerk_stalled_games_total{') && l.includes(`reason="${reason}"`));
  return line === undefined ? 0 : Number(line.split(' ').pop());
};

const STALL_MS = 50;

t.test('a bot seat nobody woke is moved on by the sweeper, counted and logged', async (t) => {
  const database = await testDatabase(t);
  const { logger, lines } = capturedLogger();
  const app = await testApp(t, { database, logger, sweeper: { stallMs: STALL_MS } });
  const { id, tokens } = await createGame(app, { type: 'pechvogel', seats: [{ name: '<img src=x onerror=alert(1)>"\'&' }, { name: 'Bea' }], seed: 'stalled-bot', botThinkMs: 40 });
  const before = (await app.inject({ url: `/games/${id}`, headers: bearerHeader(tokens[0]) })).json() as { version: number; pending: { seats: number[] } };
  t.same(before.pending.seats, [0], 'the first seat is to move');
  t.same(await app.services.sweeper.sweep(), [], 'a game waiting on a person is not stalled');

  // The seat goes to a bot behind the service's back: no notice, no kick, as a lost
  // wake-up would leave it; and the game has not moved for longer than STALL_MS.
  await database.pool.query(`UPDATE seat SET bot = 'greedy', token_hash = NULL WHERE game_id = $1::uuid AND seat = 0`, [id]);
  await database.pool.query(`UPDATE game SET updated_at = now() - interval '1 minute' WHERE id = $1::uuid`, [id]);
  await app.services.bots.idle();
  t.equal((await app.inject({ url: `/games/${id}` })).json().version, before.version, 'nobody drove the bot');

  const moved = await app.services.sweeper.sweep();
  t.same(moved, [{ gameId: id, gameType: 'pechvogel', reason: 'bot', version: before.version }], 'the sweeper moved the game on');
  const after = (await app.inject({ url: `/games/${id}?after=${before.version}&viewer=all` })).json() as { version: number; events: { event: { type: string } }[] };
  t.ok(after.version > before.version, `the bot moved (version ${before.version} → ${after.version})`);
  t.equal(await stalledCount(app, 'bot'), 1, 'spielwerk_stalled_games_total counts it');
  const warned = lines.filter((l) => String(l.msg).startsWith('a stalled game was moved on'));
  t.equal(warned.length, 1, 'one warn line');
  t.match(warned[0], { level: 40, gameId: id, reason: 'bot', gameType: 'pechvogel', thinkMs: 40 }, "naming the game, why, and the game's own think time");
  t.match(warned[0]!.msg, /none had for 90 ms/, 'the wait: its think time and STALL_MS');
  t.notMatch(JSON.stringify(lines), /onerror/, 'and no player name');

  // The bot's move was the sweeper's: the game now moves by itself or waits on Bea.
  await app.services.bots.idle();
  t.same(await app.services.sweeper.sweep(), [], 'a game that moves is not swept again');
  t.equal(await stalledCount(app, 'bot'), 1);
});

t.test('a passed deadline no timer fired is enforced by the sweeper; two instances move it once', async (t) => {
  const clock = testClock();
  const database = await testDatabase(t);
  const { logger, lines } = capturedLogger();
  const app = await testApp(t, { database, clock, logger, sweeper: { stallMs: STALL_MS } });
  const other = await testApp(t, { database, clock, sweeper: { stallMs: STALL_MS } });
  const { id } = await createGame(app, { type: 'mistkaefer', seats: [{ name: 'Ada' }, { name: 'Bea' }], options: { turnSeconds: 5 }, seed: 'stalled-deadline' });
  const game = (await app.inject({ url: `/games/${id}` })).json() as { version: number; pending: { deadline: number } };
  t.type(game.pending.deadline, 'number', 'the turn clock runs');

  clock.now = game.pending.deadline + STALL_MS - 1;
  t.same(await app.services.sweeper.sweep(), [], 'a deadline passed for less than STALL_MS is the timers\' to fire');
  clock.now = game.pending.deadline + STALL_MS;
  // Both instances sweep at once: the timeout is appended once.
  const [here, there] = await Promise.all([app.services.sweeper.sweep(), other.services.sweeper.sweep()]);
  t.same([...here, ...there], [{ gameId: id, gameType: 'mistkaefer', reason: 'deadline', version: game.version }], 'one instance enforced it');
  const after = (await app.inject({ url: `/games/${id}` })).json() as { status: string };
  t.equal(after.status, 'finished', 'the seat lost on time');
  t.equal((await stalledCount(app, 'deadline')) + (await stalledCount(other, 'deadline')), 1, 'counted once over both instances');
  if (here.length === 1) t.ok(lines.some((l) => l.gameId === id && l.reason === 'deadline'), 'and logged');
  t.same(await app.services.sweeper.sweep(), [], 'a finished game is not swept');
});
