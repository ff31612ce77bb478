// On Citus (npm run test:citus): npm run db:distribute puts a migrated database in the
// layout of src/db/distribution.ts, the games' rows co-located with them, and changes
// nothing when run again.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import t from 'tap';
import { layout } from '../../src/db/distribution.ts';
import { applyMigrations } from '../../src/db/migrate.ts';
import { dropOnWorkers, onCitus, createOnEveryNode } from '../helpers/citus.ts';
import { databaseUrl, withAdmin } from '../helpers/test-server.ts';

if (!onCitus()) {
  t.plan(0, 'needs a Citus cluster: npm run test:citus');
  process.exit(0);
}

const run = promisify(execFile);

t.test('db:distribute makes the layout, then finds it in place', async (t) => {
  const adminUrl = process.env.CITUS_URL!;
  const name = `${process.env.SPIELWERK_TEST_DB_PREFIX}layout_${process.pid}`;
  await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`));
  t.teardown(async () => {
    await withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`));
    await dropOnWorkers(adminUrl, [name]);
  });
  await createOnEveryNode(adminUrl, name);
  const url = databaseUrl(adminUrl, name);
  await applyMigrations(url);
  const distribute = () => run('npx', ['tsx', 'scripts/distribute.ts', '--shards', '4'], { env: { ...process.env, DATABASE_URL: url } });

  t.match((await distribute()).stdout, /^Distributed api_key, command_record, .*spielwerk_append_v1/m, 'the first run distributes');
  const tables = await withAdmin(url, async (client) =>
    (await client.query<{ table: string; type: string; column: string; colocation: number }>(
      `SELECT table_name::text AS table, citus_table_type AS type, distribution_column AS column, colocation_id AS colocation FROM citus_tables ORDER BY 1`,
    )).rows,
  );
  const games = tables.find((row) => row.table === layout.games.table)!;
  t.same(games, { ...games, type: 'distributed', column: layout.games.column }, 'games by id');
  for (const table of layout.gameRows) t.same(tables.find((row) => row.table === table), { table, type: 'distributed', column: 'game_id', colocation: games.colocation }, `${table} by game_id, beside the games`);
  for (const table of layout.reference) t.match(tables.find((row) => row.table === table), { type: 'reference' }, `${table} on every node`);
  t.equal(tables.length, 1 + layout.gameRows.length + layout.reference.length, 'and nothing else');

  t.match((await distribute()).stdout, /in the distributed layout already/, 'the second run changes nothing');
});
