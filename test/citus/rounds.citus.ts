// On Citus (npm run test:citus): a round's games, written in one transaction with the
// round's event, land on shards of both workers, and are kept all or none.
import t from 'tap';
import { bearerHeader, createOrganizer, testApp } from '../helpers/app.ts';
import { onCitus } from '../helpers/citus.ts';
import { testDatabase } from '../helpers/database.ts';
import { botPlayers, createTournament } from '../helpers/tournaments.ts';

if (!onCitus()) {
  t.plan(0, 'needs a Citus cluster: npm run test:citus');
  process.exit(0);
}

/** The nodes holding the shards of these games. */
const NODES_OF_GAMES_SQL = `
SELECT count(DISTINCT (s.nodename, s.nodeport))::int AS nodes FROM citus_shards s
 WHERE s.table_name = 'game'::regclass AND s.shardid IN (SELECT get_shard_id_for_distribution_column('game', g) FROM unnest($1::uuid[]) AS g)`;

t.test("a round's games across both workers are kept all or none", async (t) => {
  const database = await testDatabase(t);
  const app = await testApp(t, { database });
  const organizer = await createOrganizer(app);
  const format = { kind: 'swiss', rounds: 1, tableSize: { min: 4, max: 4 }, byes: false };
  const { tournament } = await createTournament(app, organizer.key, { name: 'Verteilt', gameType: 'pechvogel', format, settings: { advance: 'organizer' }, players: botPlayers(32) });
  const pair = () => app.inject({ method: 'POST', url: `/tournaments/${tournament.id}/rounds`, headers: bearerHeader(organizer.key), payload: {} });
  const count = async (table: string) => (await database.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n;

  const store = app.services.store;
  const insertGames = store.insertGames.bind(store);
  let spread = 0;
  // The games are written to their shards, then the database refuses something later in the same transaction.
  store.insertGames = async (client, games) => {
    await insertGames(client, games);
    spread = (await client.query<{ nodes: number }>(NODES_OF_GAMES_SQL, [games.map((g) => g.record.id)])).rows[0]!.nodes;
    await client.query('SELECT 1/0');
  };
  t.equal((await pair()).statusCode, 500);
  t.equal(spread, 2, 'the eight games had been written on both workers');
  for (const table of ['game', 'seat', 'event', 'tournament_table']) t.equal(await count(table), 0, `no row of ${table} was kept`);
  t.equal((await app.inject({ url: `/tournaments/${tournament.id}` })).json().rounds.length, 0, 'and no round was paired');

  store.insertGames = insertGames;
  const paired = await pair();
  t.equal(paired.statusCode, 200);
  const games = (await app.inject({ url: `/tournaments/${tournament.id}` })).json().rounds[0].tables.map((table: { gameId: string }) => table.gameId);
  t.equal(games.length, 8);
  t.equal((await database.pool.query<{ nodes: number }>(NODES_OF_GAMES_SQL, [games])).rows[0]!.nodes, 2, 'paired again, on both workers');
  for (const id of games) t.equal((await app.inject({ url: `/games/${id}` })).statusCode, 200, `game ${id} reads`);
});
