// Which of prisma/migrations the database has not applied. A start with none to apply
// (every start but the first after a deploy) then skips the schema engine: spawning its
// child process, loading its WebAssembly and comparing took 1.8 s of a 4 s start, longer
// than the rest of a restart after a crash. Whatever is pending, or recorded as failed
// or rolled back, is left to the engine, which applies or explains it.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

export const migrationsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../prisma/migrations');

/** The names (folders) of the migrations this checkout has, in order. */
export async function migrationNames(): Promise<string[]> {
  const entries = await readdir(migrationsDir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  return entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
}

/** Migrations of this checkout that `client`'s database has not finished applying. */
export async function unappliedMigrations(client: pg.Client): Promise<string[]> {
  const names = await migrationNames();
  // Prisma's own bookkeeping table; absent in a database never migrated.
  const { rows: [table] } = await client.query<{ present: boolean }>("SELECT to_regclass('_prisma_migrations') IS NOT NULL AS present");
  if (table?.present !== true) return names;
  const { rows } = await client.query<{ applied: string[] }>('SELECT coalesce(array_agg(migration_name), \'{}\') AS applied FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL');
  const applied = new Set(rows[0]?.applied ?? []);
  return names.filter((name) => !applied.has(name));
}
