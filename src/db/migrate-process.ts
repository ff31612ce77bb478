// The child process of applyMigrationsInChild (migrate-in-child.ts): applies the migrations to
// $SPIELWERK_MIGRATE_URL and prints the names applied as one JSON line.
import { applyMigrations } from './migrate.ts';

const url = process.env.SPIELWERK_MIGRATE_URL;
if (!url) throw new Error('SPIELWERK_MIGRATE_URL is not set');
process.stdout.write(`${JSON.stringify(await applyMigrations(url))}\n`);
