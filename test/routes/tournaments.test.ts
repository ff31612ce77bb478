// Tournaments over the API against a real Postgres: a Swiss tournament of bots plays
// itself to the end, round by round; its standings are a projection of the finished
// games (recomputed here from the logs); people find and play their tables with one
// token; rounds are written all or nothing; bad input is refused and writes nothing.
import t from 'tap';
import { standings } from '../../src/domain/tournament/standings.ts';
import { defaultPointsScheme, defaultTieBreaks } from '../../src/domain/tournament/standings.ts';
import { testDatabase } from '../helpers/database.ts';
import { bearerHeader, command, createOrganizer, testApp, testClock } from '../helpers/app.ts';
import { botPlayers, createTournament, playOn, tournamentStatus } from '../helpers/tournaments.ts';

const swiss = (rounds: number, min = 4, max = 4) => ({ kind: 'swiss', rounds, tableSize: { min, max }, byes: false });
const fast = { options: { reactionSeconds: 1 } };

t.test('a Swiss tournament of bots plays itself to the end; standings are a projection of the games', async (t) => {
  const clock = testClock();
  const app = await testApp(t, { clock });
  const organizer = await createOrganizer(app);
  const created = await createTournament(app, organizer.key, { name: 'Herbstpokal', gameType: 'pechvogel', format: swiss(3), settings: fast, players: botPlayers(12) });
  const id = created.tournament.id;
  t.same(created.players.map((p) => p.token), Array(12).fill(null), 'bots get no token');

  const paired = await app.inject({ method: 'POST', url: `/tournaments/${id}/rounds`, headers: bearerHeader(organizer.key), payload: {} });
  t.equal(paired.statusCode, 200, paired.body);
  t.equal(paired.json().tables.length, 3, '12 players at 3 tables of 4');
  await playOn(app, clock, async () => (await tournamentStatus(app, id)) === 'finished');

  const summary = (await app.inject({ url: `/tournaments/${id}` })).json();
  t.same(summary.rounds.map((r: { round: number; tables: unknown[] }) => [r.round, r.tables.length]), [[1, 3], [2, 3], [3, 3]], 'three rounds were paired, the later ones by the server');
  for (const round of summary.rounds) {
    const seated = round.tables.flatMap((table: { players: string[] }) => table.players).sort();
    t.same(seated, summary.players.map((p: { id: string }) => p.id).sort(), `round ${round.round} seats everyone exactly once`);
  }

  // Recompute from the games alone: their results through GET /games filters.
  const listed = (await app.inject({ url: `/games?tournament=${id}&limit=100` })).json().games as { id: string; tournament: { round: number }; result: { ranks: number[]; scores: number[] }; status: string }[];
  t.equal(listed.length, 9);
  t.ok(listed.every((g) => g.status === 'finished' && g.result !== null), 'every table finished and its summary carries the result');
  const tableOf = new Map(summary.rounds.flatMap((r: { tables: { gameId: string; players: string[] }[] }) => r.tables.map((tb) => [tb.gameId, tb.players])));
  const results = listed.map((g) => ({ tableId: g.id, round: g.tournament.round, players: tableOf.get(g.id) as string[], ranks: g.result.ranks, scores: g.result.scores }));
  const expected = standings(summary.players.map((p: { id: string }) => p.id), results, [], defaultPointsScheme, defaultTieBreaks);
  const shown = (await app.inject({ url: `/tournaments/${id}/standings` })).json();
  t.same(shown.standings.map((s: { player: string; rank: number; points: number }) => [s.player, s.rank, s.points]), expected.map((s) => [s.player, s.rank, s.points]), 'the standings are the projection of the finished games');
  t.ok(shown.standings.every((s: { rating: { tables: number } | null }) => s.rating !== null && s.rating.tables === 3), 'every player is rated after three tables');

  // ... and from the tournament's own log.
  const log = (await app.inject({ url: `/tournaments/${id}/events` })).json().events as { seq: number; event: { type: string; result?: unknown; standings?: unknown[]; round?: number } }[];
  t.same(log.map((e) => e.seq), log.map((_, i) => i + 1), 'the log is gapless');
  const fromLog = log.filter((e) => e.event.type === 'TableFinished').map((e) => e.event.result as Parameters<typeof standings>[1][number]);
  t.same(standings(summary.players.map((p: { id: string }) => p.id), fromLog, []), expected, 'the log\'s TableFinished events give the same standings');
  const last = log.filter((e) => e.event.type === 'StandingsChanged').at(-1)!;
  t.same(last.event.standings, expected, 'and the last StandingsChanged says so too');
  t.equal(log.at(-1)!.event.type, 'TournamentFinished');

  const round2 = (await app.inject({ url: `/games?tournament=${id}&round=2` })).json().games;
  t.equal(round2.length, 3, 'filter by round');
  const p1 = (await app.inject({ url: `/games?tournament=${id}&player=p1` })).json().games;
  t.equal(p1.length, 3, 'filter by player: p1 sat at one table a round');
  // finished_at is the database's time of the last append, not the test clock's.
  const finishedAfter = async (at: Date) => (await app.inject({ url: `/games?finishedAfter=${encodeURIComponent(at.toISOString())}&limit=100` })).json().games.length;
  t.equal(await finishedAfter(new Date(Date.now() + 60_000)), 0, 'filter by finished after: none yet in the future');
  t.equal(await finishedAfter(new Date(Date.now() - 600_000)), 9, 'all nine in the last ten minutes');

  const csv = (await app.inject({ url: `/tournaments/${id}/standings?format=csv` }));
  t.match(csv.headers['content-type'], /text\/csv/);
  const lines = csv.body.trim().split('\n');
  t.equal(lines.length, 13, 'a header and a line per player');
  t.match(lines[0], /^rank,player,name,externalId,points,/);
});

t.test('people find their table with their tournament token and play it with the same token', async (t) => {
  const clock = testClock();
  const app = await testApp(t, { clock });
  const organizer = await createOrganizer(app);
  const created = await createTournament(app, organizer.key, {
    name: 'Stammtisch', gameType: 'pechvogel', format: swiss(2, 3, 3), settings: { ...fast, advance: 'organizer' },
    players: [{ name: 'Ada' }, { name: 'Bea', externalId: 'club-17' }, { bot: 'greedy', name: 'Greedy' }],
  });
  const ada = created.players[0]!.token!;
  const before = (await app.inject({ url: '/tournaments/me', headers: bearerHeader(ada) })).json();
  t.equal(before.player.name, 'Ada');
  t.equal(before.table, null, 'no table before the first round');

  const id = created.tournament.id;
  await app.inject({ method: 'POST', url: `/tournaments/${id}/rounds`, headers: bearerHeader(organizer.key), payload: {} });
  const me = (await app.inject({ url: '/tournaments/me', headers: bearerHeader(ada) })).json();
  t.equal(me.table.round, 1);
  const game = (await app.inject({ url: `/games/${me.table.gameId}`, headers: bearerHeader(ada) })).json();
  t.same(game.you, { kind: 'seat', seat: me.table.seat }, 'the tournament token is the seat token at the table');
  t.equal(game.game.seats[me.table.seat].name, 'Ada');
  t.equal(game.game.tournament.id, id);

  const bea = created.players[1]!.token!;
  const beaTable = (await app.inject({ url: '/tournaments/me', headers: bearerHeader(bea) })).json().table;
  const bad = await app.inject({ url: '/tournaments/me', headers: bearerHeader('not-a-token') });
  t.equal(bad.json().code, 'tournament/unknown-token');

  // Play the table out: each person sends their first legal command when pending.
  await playOn(app, clock, async () => {
    for (const [token, table] of [[ada, me.table], [bea, beaTable]] as const) {
      const view = (await app.inject({ url: `/games/${table.gameId}`, headers: bearerHeader(token) })).json();
      if (view.status === 'running' && view.pending.seats.includes(table.seat) && view.legalCommands.length > 0) {
        await command(app, table.gameId, token, { command: view.legalCommands[0], expectedVersion: view.version });
        return false;
      }
    }
    return (await app.inject({ url: `/tournaments/${id}` })).json().rounds[0].tables.every((tb: { finished: boolean }) => tb.finished);
  });
  const after = (await app.inject({ url: `/tournaments/${id}` })).json();
  t.equal(after.rounds.length, 1, 'with advance "organizer" the server waits for the organizer');
  t.equal(after.status, 'running');
});

t.test('bad input: each its problem and code, and nothing written', async (t) => {
  const database = await testDatabase(t);
  const clock = testClock();
  const app = await testApp(t, { clock, database });
  const organizer = await createOrganizer(app);
  const reader = await createOrganizer(app, ['results:read'], 'Zuschauer');
  const other = await createOrganizer(app, undefined, 'Andere');
  const created = await createTournament(app, organizer.key, { name: 'Streng', gameType: 'pechvogel', format: swiss(2), settings: { ...fast, advance: 'organizer' }, players: botPlayers(8) });
  const id = created.tournament.id;
  const counts = async () => ({
    events: await database.prisma.tournamentEvent.count(),
    games: await database.prisma.game.count(),
    tournaments: await database.prisma.tournament.count(),
  });
  const post = (url: string, key: string | null, payload: unknown = {}) => app.inject({ method: 'POST', url, headers: bearerHeader(key), payload: payload as object });

  const cases: [string, () => ReturnType<typeof post>, number, string][] = [
    ['a table size outside the game', () => post('/tournaments', organizer.key, { name: 'x', gameType: 'pechvogel', format: swiss(2, 6, 6), players: [] }), 422, 'tournament/invalid-format'],
    ['an unknown game', () => post('/tournaments', organizer.key, { name: 'x', gameType: 'schach', format: swiss(2), players: [] }), 422, 'game/unknown-type'],
    ['an unknown bot', () => post(`/tournaments/${id}/players`, organizer.key, { players: [{ name: 'x', bot: 'genius' }] }), 422, 'game/invalid-setup'],
    ['no key', () => post(`/tournaments/${id}/rounds`, null), 401, 'auth/key-required'],
    ['a key without the scope', () => post(`/tournaments/${id}/rounds`, reader.key), 403, 'auth/scope-missing'],
    ["another organizer's key", () => post(`/tournaments/${id}/rounds`, other.key), 404, 'tournament/not-found'],
    ['withdrawing an unknown player', () => post(`/tournaments/${id}/players/p99/withdraw`, organizer.key), 422, 'tournament/unknown-player'],
    ['a round that is not the next', () => post(`/tournaments/${id}/rounds`, organizer.key, { round: 2 }), 400, 'request/invalid'],
  ];
  for (const [what, send, status, code] of cases) {
    const before = await counts();
    const refused = await send();
    t.equal(refused.statusCode, status, `${what}: ${refused.body}`);
    t.equal(refused.json().code, code, what);
    t.same(await counts(), before, `${what}: nothing written`);
  }

  t.equal((await post(`/tournaments/${id}/rounds`, organizer.key, { round: 1 })).statusCode, 200);
  for (const [what, send, status, code] of [
    ['pairing while the round plays', () => post(`/tournaments/${id}/rounds`, organizer.key), 409, 'tournament/round-in-progress'],
    ['pairing round 1 twice', () => post(`/tournaments/${id}/rounds`, organizer.key, { round: 1 }), 409, 'tournament/round-already-paired'],
  ] as const) {
    const before = await counts();
    const refused = await send();
    t.equal(refused.statusCode, status, what);
    t.equal(refused.json().code, code, what);
    t.same(await counts(), before, `${what}: nothing written`);
  }
  const outsider = await app.inject({ method: 'POST', url: '/games', payload: { type: 'pechvogel', seats: [{}, {}] } });
  const before = await counts();
  const foreign = await post(`/tournaments/${id}/results`, organizer.key, { gameId: outsider.json().game.id });
  t.equal(foreign.statusCode, 422);
  t.equal(foreign.json().code, 'tournament/game-not-in-tournament');
  t.same(await counts(), before, 'a result for a game outside the tournament writes nothing');
});

t.test("a round's games are written with the round's event, all or none", async (t) => {
  const database = await testDatabase(t);
  const app = await testApp(t, { database });
  const organizer = await createOrganizer(app);
  const { tournament } = await createTournament(app, organizer.key, { name: 'Atom', gameType: 'pechvogel', format: swiss(1), settings: { ...fast, advance: 'organizer' }, players: botPlayers(16) });
  const store = app.services.store;
  const insertGames = store.insertGames.bind(store);
  // The games are written, then the database refuses something later in the same transaction.
  store.insertGames = async (client, games) => {
    await insertGames(client, games);
    await client.query('SELECT 1/0');
  };
  const failed = await app.inject({ method: 'POST', url: `/tournaments/${tournament.id}/rounds`, headers: bearerHeader(organizer.key), payload: {} });
  t.equal(failed.statusCode, 500);
  t.equal(await database.prisma.game.count(), 0, 'no game of the round was kept');
  t.equal(await database.prisma.tournamentTable.count(), 0);
  t.equal((await app.inject({ url: `/tournaments/${tournament.id}` })).json().rounds.length, 0, 'and no round was paired');
  store.insertGames = insertGames;

  const headers = { ...bearerHeader(organizer.key), 'idempotency-key': 'round-1' };
  const first = await app.inject({ method: 'POST', url: `/tournaments/${tournament.id}/rounds`, headers, payload: {} });
  const retry = await app.inject({ method: 'POST', url: `/tournaments/${tournament.id}/rounds`, headers, payload: {} });
  t.equal(first.statusCode, 200);
  t.same(retry.json(), first.json(), 'a retry with the same Idempotency-Key gets the first answer');
  t.equal(await database.prisma.game.count(), 4, 'and pairs nothing more: 16 players, 4 tables');
  const reused = await app.inject({ method: 'POST', url: `/tournaments/${tournament.id}/players`, headers, payload: { players: [{ name: 'Late' }] } });
  t.equal(reused.json().code, 'command/idempotency-key-reused');
});

t.test('no-shows: past the table deadline a silent seat is played by a bot and, with forfeit, ranks last; a withdrawal too', async (t) => {
  const clock = testClock();
  const app = await testApp(t, { clock });
  const organizer = await createOrganizer(app);
  const created = await createTournament(app, organizer.key, {
    name: 'Verschlafen', gameType: 'pechvogel', format: swiss(2, 4, 4), settings: { ...fast, advance: 'organizer', noShow: { afterSeconds: 300, action: 'forfeit' } },
    players: [{ name: 'Ada' }, { name: 'Bea' }, { name: 'Cem' }, { name: 'Bot', bot: 'greedy' }],
  });
  const id = created.tournament.id;
  const bea = created.players[1]!.token!;
  const round = (await app.inject({ method: 'POST', url: `/tournaments/${id}/rounds`, headers: bearerHeader(organizer.key), payload: {} })).json();
  const gameId: string = round.tables[0].gameId;

  // Nobody shows up; Bea withdraws while her table plays.
  await app.services.bots.idle();
  const withdrew = await app.inject({ method: 'POST', url: `/tournaments/${id}/players/p2/withdraw`, headers: bearerHeader(organizer.key) });
  t.match(withdrew.json(), { withdrawn: 'p2', table: gameId, outlook: { round: 2, players: 3, blocked: /3 players are too few for a table of 4/ } }, 'Bea leaves her running table; round 2 could not be paired without her');
  t.equal((await app.inject({ url: '/tournaments/me', headers: bearerHeader(bea) })).json().player.withdrawn, true);
  const asBea = (await app.inject({ url: `/games/${gameId}`, headers: bearerHeader(bea) })).json();
  t.same([asBea.code, asBea.you], ['auth/forbidden', undefined], 'her token no longer holds the seat the bot plays');

  await app.services.tournaments.attend();
  let log = (await app.inject({ url: `/tournaments/${id}/events` })).json().events.map((e: { event: { type: string } }) => e.event);
  t.equal(log.filter((e: { type: string }) => e.type === 'SeatTakenOver' && (e as unknown as { reason: string }).reason === 'no-show').length, 0, 'before the deadline nobody is a no-show');

  // Past the deadline, the ticker hands each silent seat to a bot as the game comes to
  // wait on it; the bots play on in between.
  clock.now += 300_000;
  const noShows = async () => (await app.inject({ url: `/tournaments/${id}/events` })).json().events.filter((e: { event: { type: string; reason?: string } }) => e.event.type === 'SeatTakenOver' && e.event.reason === 'no-show').length;
  for (let tick = 0; tick < 20 && (await noShows()) < 2; tick++) {
    await app.services.bots.idle();
    await app.services.tournaments.attend();
  }
  const late = await app.inject({ url: `/games/${gameId}`, headers: bearerHeader(created.players[0]!.token) });
  t.equal(late.json().code, 'auth/forbidden', 'Ada, arriving late, no longer holds the seat her bot plays: the two would race each other for it');
  await playOn(app, clock, async () => (await app.inject({ url: `/tournaments/${id}` })).json().rounds[0].tables[0].finished);
  log = (await app.inject({ url: `/tournaments/${id}/events` })).json().events.map((e: { event: unknown }) => e.event);
  const takenOver = log.filter((e: { type: string }) => e.type === 'SeatTakenOver') as { player: string; reason: string; forfeited: boolean }[];
  t.ok(takenOver.some((e) => e.player === 'p2' && e.reason === 'withdrew' && e.forfeited), 'the withdrawn player forfeits their table');
  t.ok(takenOver.some((e) => e.player === 'p1' && e.reason === 'no-show' && e.forfeited) && takenOver.some((e) => e.player === 'p3' && e.reason === 'no-show' && e.forfeited), 'Ada and Cem, silent past the deadline, forfeit');
  t.notOk(takenOver.some((e) => e.player === 'p4'), "the bot's own seat is nobody's no-show");
  const finished = log.find((e: { type: string }) => e.type === 'TableFinished') as { result: { forfeited: string[] } };
  t.ok(finished.result.forfeited.includes('p3') && finished.result.forfeited.includes('p2'), 'the table result names the forfeits');
  const shown = (await app.inject({ url: `/tournaments/${id}/standings` })).json().standings as { player: string; points: number }[];
  const points = new Map(shown.map((s) => [s.player, s.points]));
  t.ok(['p1', 'p2', 'p3'].every((p) => points.get(p)! < points.get('p4')!), 'a forfeit ranks below the one who played on');

  const next = (await app.inject({ method: 'POST', url: `/tournaments/${id}/rounds`, headers: bearerHeader(organizer.key), payload: {} }));
  t.equal(next.json().code, 'tournament/pairing-impossible', 'three players left cannot fill a table of four');
});

t.test('a scheduled round is paired by the server once its time has come', async (t) => {
  const clock = testClock();
  const app = await testApp(t, { clock });
  const organizer = await createOrganizer(app);
  const { tournament } = await createTournament(app, organizer.key, { name: 'Später', gameType: 'pechvogel', format: swiss(1), settings: fast, players: botPlayers(8) });
  const at = new Date(clock.now + 3_600_000).toISOString();
  const scheduled = await app.inject({ method: 'POST', url: `/tournaments/${tournament.id}/rounds`, headers: bearerHeader(organizer.key), payload: { at } });
  t.same(scheduled.json(), { round: 1, scheduled: at, tables: [], leftOut: [] });
  await app.services.tournaments.attend();
  t.equal((await app.inject({ url: `/tournaments/${tournament.id}` })).json().rounds.length, 0, 'not before its time');
  clock.now += 3_600_000;
  await app.services.tournaments.attend();
  const summary = (await app.inject({ url: `/tournaments/${tournament.id}` })).json();
  t.equal(summary.rounds.length, 1, 'paired at its time');
  t.equal(summary.scheduled, null);
});

t.test('a knockout by tables sends the top two of each table on to one final table', async (t) => {
  const clock = testClock();
  const app = await testApp(t, { clock });
  const organizer = await createOrganizer(app);
  const { tournament } = await createTournament(app, organizer.key, {
    name: 'K.o.', gameType: 'mistkaefer', format: { kind: 'knockout', tableSize: { min: 4, max: 4 }, advance: 2 }, players: botPlayers(8),
  });
  await app.inject({ method: 'POST', url: `/tournaments/${tournament.id}/rounds`, headers: bearerHeader(organizer.key), payload: {} });
  await playOn(app, clock, async () => (await tournamentStatus(app, tournament.id)) === 'finished');
  const summary = (await app.inject({ url: `/tournaments/${tournament.id}` })).json();
  t.same(summary.rounds.map((r: { tables: unknown[] }) => r.tables.length), [2, 1], 'two tables, then the final');
  const games = (await app.inject({ url: `/games?tournament=${tournament.id}&round=1` })).json().games as { id: string; result: { ranks: number[] } }[];
  const firstRound = summary.rounds[0].tables as { gameId: string; players: string[] }[];
  const top = firstRound.flatMap((table) => {
    const ranks = games.find((g) => g.id === table.gameId)!.result.ranks;
    return table.players.filter((_, seat) => ranks[seat]! <= 2);
  });
  for (const player of summary.rounds[1].tables[0].players) t.ok(top.includes(player), `${player} placed in the top two of their table`);
});

t.test('a request may carry as many players as the schema allows, with the longest fields', async (t) => {
  const app = await testApp(t);
  const organizer = await createOrganizer(app);
  const longest = (i: number) => ({ name: `${'N'.repeat(95)}${String(i).padStart(5, '0')}`, externalId: `${'x'.repeat(95)}${String(i).padStart(5, '0')}`, bot: 'greedy' });
  const created = await createTournament(app, organizer.key, { name: 'Groß', gameType: 'pechvogel', format: swiss(1), settings: fast, players: Array.from({ length: 2500 }, (_, i) => longest(i)) });
  t.equal(created.players.length, 2500, 'created with 2,500 players (about 600 kB)');
  const more = await app.inject({ method: 'POST', url: `/tournaments/${created.tournament.id}/players`, headers: bearerHeader(organizer.key), payload: { players: Array.from({ length: 2500 }, (_, i) => longest(2500 + i)) } });
  t.equal(more.statusCode, 200, 'and 2,500 more registered late');
  t.equal((await app.inject({ url: `/tournaments/${created.tournament.id}` })).json().players.length, 5000);
});
