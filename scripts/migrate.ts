// Usage: npm run db:migrate — applies prisma/migrations to $DATABASE_URL, or to the
// embedded Postgres that `npm start` uses.
import { resolveServer } from '../src/db/database.ts';
import { applyMigrations } from '../src/db/migrate.ts';

const server = await resolveServer();
try {
  const applied = await applyMigrations(server.url);
  console.log(applied.length ? `Applied ${applied.join(', ')}` : 'No pending migrations.');
} finally {
  await server.stop();
}
