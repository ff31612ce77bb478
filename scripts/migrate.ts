// Usage: npm run db:migrate — applies prisma/migrations to $DATABASE_URL, or to the
// embedded Postgres that `npm start` uses.
import { resolveServer } from '../src/db/database.ts';
import { applyMigrations } from '../src/db/migrate.ts';
import { parseOptions } from './lib.ts';

parseOptions(import.meta.url, {});

const server = await resolveServer();
try {
  const applied = await applyMigrations(server.url);
  console.log(applied.length ? `Applied ${applied.join(', ')}` : 'No pending migrations.');
} finally {
  await server.stop();
}
// The schema engine leaves a 10 s timer of its own running after it is freed
// (src/db/migrate-process.ts); nothing else is left to wait for.
process.exit();
