import { noFilter, openSchemaEngine, readMigrations } from './schema-engine.ts';
import type { EngineLog } from './schema-engine.ts';

/**
 * Applies `prisma/migrations/*` that the database has not seen yet and records them in
 * `_prisma_migrations`, the same as `prisma migrate deploy`. Returns the names applied.
 */
export async function applyMigrations(databaseUrl: string, log?: EngineLog): Promise<string[]> {
  const { engine, close } = await openSchemaEngine(databaseUrl, log);
  try {
    const { appliedMigrationNames } = await engine.applyMigrations({
      migrationsList: await readMigrations(),
      filters: noFilter,
    });
    return appliedMigrationNames;
  } finally {
    await close();
  }
}
