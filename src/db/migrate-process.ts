// The child process of applyMigrationsInChild (migrate-in-child.ts): applies the migrations to
// $SPIELWERK_MIGRATE_URL and prints the names applied as one JSON line. A failure is told
// on stderr as the error's message alone, so the parent can explain it (db/preflight.ts)
// rather than show a stack trace.
import { applyMigrations } from './migrate.ts';

const url = process.env.SPIELWERK_MIGRATE_URL;
if (!url) throw new Error('SPIELWERK_MIGRATE_URL is not set');
// It exits once it has answered: the schema engine leaves a 10 s timer of its own
// running after it is freed, which would keep the process alive that long, and the
// server's start waits for this process.
try {
  const applied = await applyMigrations(url);
  process.stdout.write(`${JSON.stringify(applied)}\n`, () => process.exit(0));
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`, () => process.exit(1));
}
