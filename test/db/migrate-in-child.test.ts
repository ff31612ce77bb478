// The server migrates in a child process (src/db/migrate-in-child.ts), so that the
// schema engine's WebAssembly never stays in the server's memory.
import { readdir } from 'node:fs/promises';
import pg from 'pg';
import t from 'tap';
import { applyMigrationsInChild } from '../../src/db/migrate-in-child.ts';
import { migrationsDir } from '../../src/db/schema-engine.ts';
import { emptyDatabase } from '../helpers/database.ts';

t.test('a child process applies every migration once and reports their names', async (t) => {
  const url = await emptyDatabase(t);
  const expected = (await readdir(migrationsDir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  t.strictSame(await applyMigrationsInChild(url), expected, 'the names of all migrations, in order');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  t.teardown(() => client.end());
  const { rows } = await client.query<{ migration_name: string }>('SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name');
  t.strictSame(rows.map((r) => r.migration_name), expected, 'recorded as prisma migrate deploy records them');
  t.strictSame(await applyMigrationsInChild(url), [], 'a second run applies nothing');
});

t.test("a failing migration run rejects with the child's own error", async (t) => {
  const url = new URL(await emptyDatabase(t));
  url.pathname = '/no_such_database_here';
  await t.rejects(applyMigrationsInChild(url.href), /migrations failed \(exit 1\): .*no_such_database_here/s);
});
