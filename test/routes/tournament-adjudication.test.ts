// Adjudication and correction (issue 25, item 11): the organizer ends a stuck table
// with a result and a reason, or corrects a finished one; each is an event in the
// game's log and in the tournament's, standings and ratings follow, the feed says so,
// and bad verdicts change nothing.
import t from 'tap';
import { initialRating, rate } from '../../src/domain/tournament/ratings.ts';
import type { TournamentEvent } from '../../src/tournaments/log.ts';
import { bearerHeader, createOrganizer, testApp, testClock } from '../helpers/app.ts';
import { testDatabase } from '../helpers/database.ts';
import { createTournament } from '../helpers/tournaments.ts';

const hostile = `<img src=x onerror=alert(1)>"'&`;

t.test('a stuck table is adjudicated, a finished one corrected; standings and ratings follow', async (t) => {
  const database = await testDatabase(t);
  const clock = testClock();
  const app = await testApp(t, { clock, database });
  const organizer = await createOrganizer(app);
  const people = ['Ada', 'Bea', 'Cem', 'Dan'].map((name, i) => ({ name, externalId: `club-${i}` }));
  const { tournament } = await createTournament(app, organizer.key, {
    name: 'Streit', gameType: 'pechvogel', format: { kind: 'swiss', rounds: 2, tableSize: { min: 4, max: 4 }, byes: false }, settings: { advance: 'organizer' }, players: people,
  });
  const id = tournament.id;
  const fed: TournamentEvent[] = [];
  app.services.feed.watch(id, (_seq, events) => fed.push(...events));
  const post = (url: string, payload: object = {}) => app.inject({ method: 'POST', url, headers: bearerHeader(organizer.key), payload });
  const pair = async () => (await post(`/tournaments/${id}/rounds`)).json().tables[0] as { gameId: string; players: string[] };
  const counts = async () => [await database.prisma.event.count(), await database.prisma.tournamentEvent.count()];

  const first = await pair();
  // Nobody moves: the table is stuck. Bad verdicts first, each changing nothing.
  for (const [what, body, code] of [
    ['ranks for three seats of four', { ranks: [1, 2, 3], reason: 'x' }, 'lifecycle/invalid-result'],
    ['nobody first', { ranks: [2, 2, 3, 4], reason: 'x' }, 'lifecycle/invalid-result'],
    ['no reason', { ranks: [1, 2, 3, 4], reason: ' ' }, 'request/invalid'],
    ['a field too many', { ranks: [1, 2, 3, 4], reason: 'x', winner: 0 }, 'request/invalid'],
  ] as const) {
    const before = await counts();
    const refused = await post(`/tournaments/${id}/tables/${first.gameId}/adjudicate`, body);
    t.equal(refused.json().code, code, what);
    t.same(await counts(), before, `${what}: nothing written`);
  }
  t.equal((await post(`/tournaments/${id}/tables/${first.gameId}/correct`, { ranks: [1, 2, 3, 4], reason: 'x' })).json().code, 'tournament/table-running');
  const outsider = await app.inject({ method: 'POST', url: '/games', payload: { type: 'pechvogel', seats: [{}, {}] } });
  t.equal((await post(`/tournaments/${id}/tables/${outsider.json().game.id}/adjudicate`, { ranks: [1, 2], reason: 'x' })).json().code, 'tournament/game-not-in-tournament');

  const ranks1 = [2, 1, 4, 3];
  const adjudicated = await post(`/tournaments/${id}/tables/${first.gameId}/adjudicate`, { ranks: ranks1, scores: [5, 9, 1, 3], reason: hostile });
  t.equal(adjudicated.statusCode, 200, adjudicated.body);
  t.same(adjudicated.json().result.ranks, ranks1);
  const read = await app.inject({ url: `/games/${first.gameId}` });
  const game = read.json();
  t.same([game.status, game.game.ending.kind, game.game.ending.reason, game.game.ending.correction], ['finished', 'adjudicated', hostile, false], "the game's summary says who ended it and why");
  t.notMatch(String(read.headers['cache-control']), /immutable/, "a tournament table's reads are never immutable: a correction may change them");
  const gameLog = (await app.inject({ url: `/games/${first.gameId}/events` })).json().events;
  t.match(gameLog.at(-1), { actor: `organizer:${organizer.id}`, event: { type: 'GameAdjudicated', ranks: ranks1, reason: hostile, correction: false } }, "in the game's log");
  const finished = fed.find((e) => e.type === 'TableFinished') as Extract<TournamentEvent, { type: 'TableFinished' }>;
  t.same(finished.adjudicated, { reason: hostile }, "in the tournament's log and its feed");
  t.equal((await post(`/tournaments/${id}/tables/${first.gameId}/adjudicate`, { ranks: [1, 2, 3, 4], reason: 'again' })).json().code, 'tournament/table-finished');

  const second = await pair();
  const ranks2 = [1, 2, 3, 4];
  await post(`/tournaments/${id}/tables/${second.gameId}/adjudicate`, { ranks: ranks2, reason: 'Stuck' });
  t.equal((await app.inject({ url: `/tournaments/${id}` })).json().status, 'finished');

  // Round 1 was misread: Ada won it. The correction comes after round 2 was rated.
  const corrected1 = [1, 2, 4, 3];
  const corrected = await post(`/tournaments/${id}/tables/${first.gameId}/correct`, { ranks: corrected1, reason: 'Scoresheet misread' });
  t.equal(corrected.statusCode, 200, corrected.body);
  t.same([corrected.json().previous.ranks, corrected.json().result.ranks, corrected.json().result.scores], [ranks1, corrected1, [5, 9, 1, 3]], 'scores kept when not given');
  const retried = await post(`/tournaments/${id}/tables/${first.gameId}/correct`, { ranks: corrected1, reason: 'Scoresheet misread' });
  t.same(retried.json().result, corrected.json().result, 'the same correction again writes nothing more');
  const gameAfter = (await app.inject({ url: `/games/${first.gameId}` })).json();
  t.same([gameAfter.game.ending.correction, gameAfter.game.result.ranks], [true, corrected1], "the game's result is the corrected one");
  const correctedEvents = fed.filter((e) => e.type === 'TableCorrected');
  t.equal(correctedEvents.length, 1, 'one TableCorrected in the feed');
  t.equal(fed.at(-1)!.type, 'StandingsChanged');

  const standings = (await app.inject({ url: `/tournaments/${id}/standings` })).json().standings as { player: string; points: number; rating: { mu: number; sigma: number; tables: number } }[];
  const points = new Map(standings.map((s) => [s.player, s.points]));
  const seatOf = (table: { players: string[] }, player: string) => table.players.indexOf(player);
  const pointsFor = (rank: number) => [3, 2, 1, 0][rank - 1]!;
  for (const player of ['p1', 'p2', 'p3', 'p4']) {
    t.equal(points.get(player), pointsFor(corrected1[seatOf(first, player)]!) + pointsFor(ranks2[seatOf(second, player)]!), `${player}'s points follow the correction`);
  }
  // Ratings: folded again from both tables in order, the first with its corrected result.
  const fresh = new Map(['p1', 'p2', 'p3', 'p4'].map((p) => [p, initialRating()]));
  for (const [table, ranks] of [[first, corrected1], [second, ranks2]] as const) {
    const after = rate(table.players.map((p) => fresh.get(p)!), ranks);
    table.players.forEach((p, i) => fresh.set(p, after[i]!));
  }
  for (const s of standings) {
    t.ok(Math.abs(s.rating.mu - fresh.get(s.player)!.mu) < 1e-9 && s.rating.tables === 2, `${s.player}'s rating is the fold with the corrected result`);
  }
});
