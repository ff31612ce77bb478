// Games that end besides their rules, over the API against a real Postgres: a seat
// resigns, the creator aborts, an open game expires, a turn clock runs out. Each is an
// event in the log and shows in the view, the game's summary and the game list.
import t from 'tap';
import type { App } from '../../src/app.ts';
import { bearerHeader, command, createGame, createOrganizer, testApp, testClock } from '../helpers/app.ts';
import { botPlayers, createTournament } from '../helpers/tournaments.ts';

const read = async (app: App, id: string, token?: string | null) => (await app.inject({ url: `/games/${id}`, headers: bearerHeader(token) })).json();
const types = async (app: App, id: string) => (await app.inject({ url: `/games/${id}/events?limit=1000` })).json().events.map((e: { event: { type: string } }) => e.event.type);
const listed = async (app: App, id: string) => (await app.inject({ url: '/games?limit=100' })).json().games.find((g: { id: string }) => g.id === id);
const abort = (app: App, id: string, token: string | null | undefined) => app.inject({ method: 'POST', url: `/games/${id}/abort`, headers: bearerHeader(token) });

t.test('a seat resigns: the game ends, the others win, the result says who resigned', async (t) => {
  const app = await testApp(t);
  for (const [type, seats] of [['pechvogel', 2], ['fackel-und-keule', 3], ['mistkaefer', 2], ['porca-miseria', 3]] as const) {
    const { id, tokens } = await createGame(app, { type, seats: Array.from({ length: seats }, () => ({})) });
    const response = await command(app, id, tokens[1], { command: { type: 'resign' } });
    t.equal(response.statusCode, 200, `${type}: ${response.body}`);
    const game = await read(app, id, tokens[0]);
    t.equal(game.status, 'finished', `${type}: the game is over`);
    const ending = { kind: 'resigned', seats: [1], timedOut: false };
    t.same(game.game.ending, ending, `${type}: the summary says how it ended`);
    t.same(game.view.lifecycle.ending, ending, `${type}: so does the view`);
    t.same(game.game.result.resigned, [1], `${type}: the result names the seat that resigned`);
    t.same(game.game.result.winners, Array.from({ length: seats }, (_, s) => s).filter((s) => s !== 1), `${type}: the seats that stayed share the win`);
    t.equal(game.game.result.ranks[1], seats, `${type}: the resigned seat ranks last`);
    t.equal((await types(app, id)).at(-1), 'SeatResigned', `${type}: the log says it`);
    t.same((await listed(app, id)).ending, ending, `${type}: the game list shows it`);
    t.equal(game.game.seed !== null, true, `${type}: the seed is revealed as at any end`);
    const again = await command(app, id, tokens[0], { command: { type: 'resign' } });
    t.equal(again.statusCode, 409, `${type}: nothing more is decided`);
  }
});

t.test('resigning is a seat\'s: the referee or a spectator cannot', async (t) => {
  const app = await testApp(t);
  const { id, referee } = await createGame(app, { type: 'pechvogel', seats: [{}, {}] });
  t.equal((await command(app, id, undefined, { command: { type: 'resign' } })).statusCode, 401);
  t.equal((await command(app, id, referee, { command: { type: 'resign' }, seat: 0 })).statusCode, 403, 'the referee acts for seats only in supplied games');
  t.equal((await read(app, id)).status, 'running');
});

t.test('the creator aborts: GameAborted, the game ends with no result', async (t) => {
  const app = await testApp(t);
  const { id, tokens, referee } = await createGame(app, { type: 'fackel-und-keule', seats: [{}, {}, {}] });
  const bySeat = await abort(app, id, tokens[0]);
  t.equal(bySeat.statusCode, 403, 'a seat cannot abort');
  t.equal(bySeat.json().code, 'auth/forbidden');
  t.equal((await abort(app, id, undefined)).statusCode, 403, 'nor can a spectator');
  const response = await abort(app, id, referee);
  t.equal(response.statusCode, 200, response.body);
  const game = await read(app, id);
  t.equal(game.status, 'finished');
  t.equal(game.game.result, null, 'no result');
  t.same(game.game.ending, { kind: 'aborted', by: 'referee' });
  t.same(game.view.lifecycle.ending, { kind: 'aborted', by: 'referee' });
  t.same(game.pending.seats, [], 'nobody is waited for');
  t.equal((await types(app, id)).at(-1), 'GameAborted');
  t.same((await listed(app, id)).ending, { kind: 'aborted', by: 'referee' });
  t.equal((await abort(app, id, referee)).statusCode, 409, 'an ended game is not aborted again');
  const replay = (await app.inject({ url: `/games/${id}/replay` })).json();
  t.same(replay.steps.at(-1).view.lifecycle.ending, { kind: 'aborted', by: 'referee' }, 'the replay is public and ends with the abort');
  const before = (await app.inject({ url: `/games/${id}/view?version=${game.version - 1}` })).json();
  t.equal(before.status, 'running', 'the view before the abort is of a running game');
  t.equal(before.view.lifecycle.ending, null);
});

t.test('an open game can be aborted before anyone joins; an organizer aborts its own games only', async (t) => {
  const app = await testApp(t);
  const open = await createGame(app, { type: 'pechvogel', seats: [{}, { open: true }] });
  t.equal((await abort(app, open.id, open.referee)).statusCode, 200);
  t.same((await read(app, open.id)).game.ending, { kind: 'aborted', by: 'referee' });
  t.equal((await app.inject({ method: 'POST', url: `/games/${open.id}/join`, payload: {} })).statusCode, 409, 'nobody joins it any more');

  const { key } = await createOrganizer(app);
  const { key: otherKey } = await createOrganizer(app, undefined, 'Spielekreis Süd');
  const created = await app.inject({ method: 'POST', url: '/games', headers: bearerHeader(key), payload: { type: 'pechvogel', seats: [{}, {}] } });
  const id = created.json().game.id;
  t.equal((await abort(app, id, otherKey)).statusCode, 403, "another organizer's key cannot");
  t.equal((await abort(app, id, key)).statusCode, 200, 'the owning key can');
  t.same((await read(app, id)).game.ending, { kind: 'aborted', by: 'organizer' });
});

t.test('an open game nobody fills expires after its time', async (t) => {
  const clock = testClock();
  const app = await testApp(t, { clock, openGameTtlMs: 60_000 });
  const { id } = await createGame(app, { type: 'mistkaefer', seats: [{}, { open: true }] });
  const filled = await createGame(app, { type: 'mistkaefer', seats: [{}, {}] });
  t.equal((await read(app, id)).game.deadline, new Date(clock.now + 60_000).toISOString(), 'its deadline is its expiry');
  clock.now += 59_999;
  await app.services.scheduler.runDue();
  t.equal((await read(app, id)).status, 'open', 'not before its time');
  clock.now += 1;
  await app.services.scheduler.runDue();
  const game = await read(app, id);
  t.equal(game.status, 'finished');
  t.equal(game.game.result, null, 'no result');
  t.same(game.game.ending, { kind: 'expired' });
  t.same(await types(app, id), ['GameExpired'], 'the log holds just that');
  t.same((await listed(app, id)).ending, { kind: 'expired' });
  t.equal(await app.services.store.takeSeat(id, 1, 'late', 'a'.repeat(64), new Date(clock.now)), false, 'a join racing the expiry takes no seat');
  t.equal((await read(app, filled.id)).status, 'running', 'a game whose seats were all taken never expires');
});

t.test('a turn clock: the seat that lets it run out loses on time', async (t) => {
  const clock = testClock();
  const app = await testApp(t, { clock });
  for (const type of ['pechvogel', 'mistkaefer']) {
    const { id } = await createGame(app, { type, seats: [{}, {}], options: { turnSeconds: 30 } });
    const started = await read(app, id);
    t.same(started.pending.seats, [0]);
    t.equal(started.pending.deadline, clock.now + 30_000, `${type}: the first seat has 30 s`);
    t.equal(started.view.lifecycle.turnDeadline, clock.now + 30_000, `${type}: the view shows the clock`);
    clock.now += 30_000;
    await app.services.scheduler.runDue();
    const game = await read(app, id);
    t.equal(game.status, 'finished', `${type}: the game is over`);
    t.same(game.game.ending, { kind: 'resigned', seats: [0], timedOut: true }, `${type}: seat 0 lost on time`);
    t.same(game.game.result.winners, [1]);
    t.same((await types(app, id)).slice(-1), ['SeatResigned']);
  }
  // Each accepted move starts the clock again for whoever is pending after it.
  const { id, tokens } = await createGame(app, { type: 'pechvogel', seats: [{}, {}], options: { turnSeconds: 30 } });
  clock.now += 20_000;
  t.equal((await command(app, id, tokens[0], { command: { type: 'throw' } })).statusCode, 200);
  const moved = await read(app, id);
  t.equal(moved.view.lifecycle.turnDeadline, clock.now + 30_000, 'a move gives the pending seats their time again');
  t.equal((await types(app, id)).at(-1), 'TurnClockSet');
  clock.now += 29_999;
  await app.services.scheduler.runDue();
  t.equal((await read(app, id)).status, 'running', 'not before the clock runs out');
  clock.now += 1;
  await app.services.scheduler.runDue();
  t.same((await read(app, id)).game.ending, { kind: 'resigned', seats: [0], timedOut: true }, 'a timeout tried too early is tried again, and the seat loses on time');
  const untimed = await createGame(app, { type: 'mistkaefer', seats: [{}, {}] });
  t.equal((await read(app, untimed.id)).pending.deadline, undefined, 'without the option no clock runs');
});

t.test("a tournament's table is not aborted: its round would wait for a result forever", async (t) => {
  const clock = testClock();
  const app = await testApp(t, { clock });
  const organizer = await createOrganizer(app);
  const created = await createTournament(app, organizer.key, { name: 'Kurz', gameType: 'pechvogel', format: { kind: 'swiss', rounds: 1, tableSize: { min: 2, max: 2 }, byes: false }, settings: { advance: 'organizer' }, players: botPlayers(2) });
  const paired = await app.inject({ method: 'POST', url: `/tournaments/${created.tournament.id}/rounds`, headers: bearerHeader(organizer.key), payload: {} });
  const gameId = paired.json().tables[0].gameId;
  const response = await abort(app, gameId, organizer.key);
  t.equal(response.statusCode, 403, response.body);
  t.match(response.json().detail, /tournament/);
});
