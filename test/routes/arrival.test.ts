// A game with a bot waits for its people (docs/lifecycle.md): it stays open, undealt,
// with no bot moving and no clock running, until every person holding a seat has used
// its token on it (a read, the live socket, a command), or its creator starts it anyway.
// A table of people only starts once its seats are taken.
import t from 'tap';
import type { App } from '../../src/app.ts';
import { bearerHeader, command, createGame, createOrganizer, testApp, testClock } from '../helpers/app.ts';
import { connect } from '../helpers/ws.ts';

const read = async (app: App, id: string, token?: string | null) => (await app.inject({ url: `/games/${id}`, headers: bearerHeader(token) })).json();
const start = (app: App, id: string, headers: Record<string, string | undefined>) => app.inject({ method: 'POST', url: `/games/${id}/start`, headers });
const hostile = `<img src=x onerror=alert(1)>"'&`;

t.test('a game with a bot waits for its person: nothing is dealt, the bot does not move, no clock runs', async (t) => {
  const clock = testClock();
  const app = await testApp(t, { clock });
  const created = clock.now;
  const { id, tokens } = await createGame(app, { type: 'mistkaefer', seats: [{}, { bot: 'random' }], options: { turnSeconds: 30 } }, { arrive: false });
  const waiting = await read(app, id);
  t.equal(waiting.game.status, 'open');
  t.equal(waiting.game.version, 0, 'nothing dealt, no bot move');
  t.same(waiting.game.waitingFor, [0]);
  t.equal(waiting.game.startedAt, null);
  const refused = await command(app, id, tokens[1] ?? 'x'.repeat(43), { command: { type: 'resign' } });
  t.not(refused.statusCode, 200, 'a token holding no seat arrives nowhere');
  clock.now += 120_000;
  await app.services.scheduler.runDue();
  t.equal((await read(app, id)).game.version, 0, 'two minutes later still nothing: no bot, no clock');
  const arrived = await read(app, id, tokens[0]);
  t.equal(arrived.game.status, 'running', 'the read that arrives starts the game');
  t.same(arrived.game.waitingFor, []);
  t.equal(arrived.game.startedAt, new Date(created + 120_000).toISOString());
  t.ok(arrived.version > 0, 'dealt');
  t.equal(arrived.pending.seats.includes(0) ? arrived.pending.deadline : clock.now + 30_000, clock.now + 30_000, 'the clock counts from the arrival, not the creation');
});

t.test('the live socket and a command are arrivals too; the last one starts the game', async (t) => {
  const app = await testApp(t);
  const { id, tokens } = await createGame(app, { type: 'pechvogel', seats: [{}, {}, { bot: 'random' }] }, { arrive: false });
  const socket = await connect(app, `/games/${id}/live?token=${tokens[0]}`);
  t.teardown(() => socket.socket.terminate());
  // The socket opens before the server has recorded the arrival; its first update comes after.
  await socket.next();
  t.same((await read(app, id)).game.waitingFor, [1], 'the socket arrived seat 0');
  const first = await command(app, id, tokens[1], { command: { type: 'resign' } });
  t.equal(first.statusCode, 200, `the command of the last person starts the game, then is decided: ${first.body}`);
  const after = await read(app, id);
  t.not(after.game.status, 'open', 'started');
  const events = (await app.inject({ url: `/games/${id}/events?limit=1000` })).json().events.map((e: { event: { type: string } }) => e.event.type);
  t.equal(events.at(-1), 'SeatResigned', 'and the command was decided in it');
  const alone = await createGame(app, { type: 'pechvogel', seats: [{}, {}, { bot: 'random' }] }, { arrive: false });
  const early = await command(app, alone.id, alone.tokens[0], { command: { type: 'resign' } });
  t.equal(early.statusCode, 409);
  t.equal(early.json().code, 'game/not-running');
  t.match(early.json().detail, /waits for the people of seats 1/);
  t.same((await read(app, alone.id)).game.waitingFor, [1], 'the refused command still arrived its seat');
});

t.test('start anyway: the creator only; not twice, not with open seats', async (t) => {
  const app = await testApp(t);
  const { id, tokens, referee } = await createGame(app, { type: 'pechvogel', seats: [{}, {}, { bot: 'random' }] }, { arrive: false });
  const bySeat = await start(app, id, bearerHeader(tokens[0]));
  t.equal(bySeat.statusCode, 403);
  t.equal(bySeat.json().code, 'auth/forbidden');
  t.equal((await start(app, id, {})).json().code, 'auth/token-required');
  t.equal((await read(app, id)).game.status, 'open', 'a refused start changes nothing');
  const started = await start(app, id, bearerHeader(referee));
  t.equal(started.statusCode, 200, started.body);
  t.equal(started.json().game.status, 'running');
  t.ok(started.json().game.version > 0);
  t.equal((await start(app, id, bearerHeader(referee))).json().code, 'game/not-open');
  const open = await createGame(app, { type: 'pechvogel', seats: [{}, { open: true }, { bot: 'random' }] }, { arrive: false });
  t.equal((await start(app, open.id, bearerHeader(open.referee))).json().code, 'game/seats-open');
  const { key } = await createOrganizer(app);
  const owned = await app.inject({ method: 'POST', url: '/games', payload: { type: 'pechvogel', seats: [{}, {}, { bot: 'random' }] }, headers: bearerHeader(key) });
  const organizerStart = await start(app, owned.json().game.id, bearerHeader(key));
  t.equal(organizerStart.statusCode, 200, `the organizer whose key created it starts it: ${organizerStart.body}`);
});

t.test('a waiting table nobody arrives at expires as an open game does', async (t) => {
  const clock = testClock();
  const app = await testApp(t, { clock, openGameTtlMs: 60_000 });
  const { id } = await createGame(app, { type: 'mistkaefer', seats: [{}, { bot: 'random' }] }, { arrive: false });
  t.equal((await read(app, id)).game.deadline, new Date(clock.now + 60_000).toISOString(), 'its deadline is its expiry');
  clock.now += 60_000;
  await app.services.scheduler.runDue();
  const game = await read(app, id);
  t.equal(game.game.status, 'finished');
  t.same(game.game.ending, { kind: 'expired' });
});

t.test('names: a seat without one is "Player N" or "<Kind> bot N", never "You"; a hostile name is kept as data', async (t) => {
  const app = await testApp(t);
  const { id, tokens } = await createGame(app, { type: 'fackel-und-keule', seats: [{}, { bot: 'random' }, { open: true }, { name: hostile }] }, { arrive: false });
  const joined = await app.inject({ method: 'POST', url: `/games/${id}/join`, payload: {} });
  t.equal(joined.statusCode, 200, joined.body);
  const game = (await read(app, id, tokens[0])).game;
  t.same(game.seats.map((s: { name: string }) => s.name), ['Player 1', 'Random bot 2', 'Player 3', hostile]);
  t.same(game.waitingFor, [3], 'joining is arriving');
});

t.test('a table of people only starts once its seats are taken: they play each other', async (t) => {
  const app = await testApp(t);
  const { id } = await createGame(app, { type: 'pechvogel', seats: [{}, {}] }, { arrive: false });
  const game = await read(app, id);
  t.equal(game.game.status, 'running');
  t.same(game.game.waitingFor, []);
  t.ok(game.version > 0, 'dealt at creation');
});
