// Usage: npm run db:distribute [-- --shards N]
// Puts the migrated database at $DATABASE_URL, a Citus coordinator, in the distributed
// layout of src/db/distribution.ts (docs/scaling.md): reference tables, games spread by
// id, a game's rows co-located with it, and the event store's functions delegated to
// each game's worker. Idempotent: what is in place already is left alone; `npm start`
// does the same after its migrations. --shards: how many shards `game` gets when it is
// distributed now (Citus's citus.shard_count, 32, otherwise).
import pg from 'pg';
import { distribute, DistributionError } from '../src/db/distribution.ts';
import { citusFunctions } from '../src/events/citus.ts';
import { parseOptions } from './lib.ts';

const values = parseOptions(import.meta.url, { shards: { type: 'string', default: '0' } }, ['shards']);
const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL must name the Citus coordinator\'s database (docs/scaling.md)');
  process.exit(2);
}
const client = new pg.Client({ connectionString: url });
await client.connect();
try {
  const { rows } = await client.query(`SELECT to_regclass('public._prisma_migrations') IS NOT NULL AS migrated`);
  if (!rows[0].migrated) throw new DistributionError('the database has no migrations applied: run npm run db:migrate first');
  const changed = await distribute(client, { functions: citusFunctions, ...(values.shards > 0 ? { shardCount: values.shards } : {}) });
  console.log(
    changed.tables.length + changed.functions.length === 0
      ? 'The database is in the distributed layout already.'
      : `Distributed ${[...changed.tables, ...changed.functions].join(', ')}.`,
  );
} catch (error) {
  if (!(error instanceof DistributionError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
} finally {
  await client.end();
}
