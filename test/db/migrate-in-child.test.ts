// The server migrates in a child process (src/db/migrate-in-child.ts), so that the
// schema engine's WebAssembly never stays in the server's memory.
import { readdir } from 'node:fs/promises';
import pg from 'pg';
import t from 'tap';
import { applyMigrationsInChild } from '../../src/db/migrate-in-child.ts';
import { migrationsDir, unappliedMigrations } from '../../src/db/unapplied-migrations.ts';
import { emptyDatabase } from '../helpers/database.ts';

t.test('a child process applies every migration once and reports their names', async (t) => {
  const url = await emptyDatabase(t);
  const expected = (await readdir(migrationsDir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  t.teardown(() => client.end());
  t.strictSame(await unappliedMigrations(client), expected, 'a database never migrated lacks them all');
  t.strictSame(await applyMigrationsInChild(url), expected, 'the names of all migrations, in order');
  const { rows } = await client.query<{ migration_name: string }>('SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name');
  t.strictSame(rows.map((r) => r.migration_name), expected, 'recorded as prisma migrate deploy records them');
  // A start finds nothing to apply without the schema engine (server.ts then skips the child).
  t.strictSame(await unappliedMigrations(client), [], 'then none is unapplied');
  t.strictSame(await applyMigrationsInChild(url), [], 'a second run applies nothing');
  await client.query('UPDATE _prisma_migrations SET rolled_back_at = now() WHERE migration_name = $1', [expected.at(-1)]);
  t.strictSame(await unappliedMigrations(client), [expected.at(-1)], 'one rolled back is left to the engine again');
});

t.test("a failing migration run rejects with the child's own error", async (t) => {
  const url = new URL(await emptyDatabase(t));
  url.pathname = '/no_such_database_here';
  await t.rejects(applyMigrationsInChild(url.href), /migrations failed \(exit 1\): .*no_such_database_here/s);
});
