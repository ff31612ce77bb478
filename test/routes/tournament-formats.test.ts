// Formats over the API (issue 25, items 4, 5, 6): a knockout of an odd field at 2-seat
// tables has a bye and a match for third, and ranks by the stage reached; bots are
// rated per tournament entry, never by kind across organizers; an externalId is one
// player's in a tournament.
import t from 'tap';
import { testDatabase } from '../helpers/database.ts';
import { bearerHeader, createOrganizer, testApp, testClock } from '../helpers/app.ts';
import { createTournament, playOn, quick, tournamentStatus } from '../helpers/tournaments.ts';

const greedy = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `Bot ${i + 1}`, bot: 'greedy', seed: 30 - i }));

t.test('a knockout of 7 at 2-seat tables: a bye, semi-finals, the final beside the match for third, ranked by stage reached', async (t) => {
  const clock = testClock();
  const app = await testApp(t, { clock });
  const organizer = await createOrganizer(app);
  const { tournament } = await createTournament(app, organizer.key, {
    name: 'K.o. zu zweit', gameType: 'pechvogel', format: { kind: 'knockout', tableSize: { min: 2, max: 2 }, advance: 1, placement: true }, settings: quick, players: greedy(7),
  });
  await app.inject({ method: 'POST', url: `/tournaments/${tournament.id}/rounds`, headers: bearerHeader(organizer.key), payload: {} });
  await playOn(app, clock, async () => (await tournamentStatus(app, tournament.id)) === 'finished');
  const summary = (await app.inject({ url: `/tournaments/${tournament.id}` })).json();
  t.same(summary.rounds.map((r: { tables: unknown[]; byes: string[] }) => [r.tables.length, r.byes.length]), [[3, 1], [2, 0], [2, 0]]);
  t.same(summary.rounds[0].byes, ['p1'], 'the strongest seed has the bye');
  const [final, third] = summary.rounds[2].tables as { gameId: string; players: string[]; placement?: true }[];
  t.same([final!.placement, third!.placement], [undefined, true]);
  const results = (await app.inject({ url: `/games?tournament=${tournament.id}&round=3` })).json().games as { id: string; result: { ranks: number[] } }[];
  const order = (table: { gameId: string; players: string[] }) => {
    const ranks = results.find((g) => g.id === table.gameId)!.result.ranks;
    return [...table.players].sort((a, b) => ranks[table.players.indexOf(a)]! - ranks[table.players.indexOf(b)]!);
  };
  const standings = (await app.inject({ url: `/tournaments/${tournament.id}/standings` })).json().standings as { player: string; rank: number; reached: number }[];
  t.same(standings.slice(0, 4).map((s) => s.player), [...order(final!), ...order(third!)], "the final's places, then the match for third's");
  t.same(standings.slice(0, 4).map((s) => [s.rank, s.reached]), [[1, 3], [2, 3], [3, 2], [4, 2]]);
  t.same(standings.slice(4).map((s) => s.reached), [1, 1, 1], 'then those out in round 1');
});

t.test("bots are rated per entry, two at a table apart, never shared across organizers; an externalId is one player's", async (t) => {
  const database = await testDatabase(t);
  const clock = testClock();
  const app = await testApp(t, { clock, database });
  const ids: string[] = [];
  for (const name of ['Nord', 'Süd']) {
    const organizer = await createOrganizer(app, undefined, name);
    const { tournament } = await createTournament(app, organizer.key, { name, gameType: 'pechvogel', format: { kind: 'swiss', rounds: 1, tableSize: { min: 3, max: 3 }, byes: false }, settings: quick, players: greedy(3) });
    await app.inject({ method: 'POST', url: `/tournaments/${tournament.id}/rounds`, headers: bearerHeader(organizer.key), payload: {} });
    ids.push(tournament.id);
    if (name === 'Süd') {
      const before = await database.prisma.tournamentEvent.count();
      const twice = await app.inject({ method: 'POST', url: '/tournaments', headers: bearerHeader(organizer.key), payload: { name: 'x', gameType: 'pechvogel', format: { kind: 'swiss', rounds: 1, tableSize: { min: 3, max: 3 }, byes: false }, players: [{ name: 'A', externalId: 'club-1' }, { name: 'B', externalId: 'club-1' }] } });
      t.same([twice.statusCode, twice.json().code], [409, 'tournament/duplicate-external-id']);
      const late = await app.inject({ method: 'POST', url: `/tournaments/${tournament.id}/players`, headers: bearerHeader(organizer.key), payload: { players: [{ name: 'C', externalId: 'x' }, { name: 'D', externalId: 'x' }] } });
      t.equal(late.json().code, 'tournament/duplicate-external-id');
      t.equal(await database.prisma.tournamentEvent.count(), before, 'nothing written');
    }
  }
  await playOn(app, clock, async () => (await Promise.all(ids.map((id) => tournamentStatus(app, id)))).every((s) => s === 'finished'));
  const rows = await database.prisma.rating.findMany({ orderBy: { player: 'asc' } });
  t.equal(rows.length, 6, 'six bots, six rows');
  t.ok(rows.every((r) => r.tables === 1), 'each rated for its one table');
  t.same([...new Set(rows.map((r) => r.player.split(':').slice(0, 2).join(':')))].sort(), ids.map((id) => `tournament:${id}`).sort(), 'rated within their tournament, none by kind');
});
