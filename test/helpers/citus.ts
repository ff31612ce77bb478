// Test databases on a Citus cluster (`npm run test:citus`, scripts/test-citus.ts). The
// run's template is made once on every node under one name: the citus extension on
// each, the nodes registered on the coordinator, migrated and put in the layout of
// src/db/distribution.ts with few shards (enough to spread games over both workers).
// Each test database is then a copy of it on every node at once, shards and metadata
// included, which takes a fraction of distributing it anew. Kept free of tap, like
// test-server.ts.
import { distribute } from '../../src/db/distribution.ts';
import { citusFunctions } from '../../src/events/citus.ts';
import { databaseUrl, withAdmin } from './test-server.ts';

/** Set by scripts/test-citus.ts for its tap workers: the admin URL is a Citus coordinator's. */
export const CITUS_TEST_ENV = 'SPIELWERK_TEST_CITUS';

export const onCitus = (): boolean => process.env[CITUS_TEST_ENV] === '1';

/** Shards of `game` in a test database. */
const testShards = 4;

/** The workers registered in the coordinator's database at `adminUrl`, as URLs of the same database on each. */
export async function workerUrls(adminUrl: string): Promise<string[]> {
  const { rows } = await withAdmin(adminUrl, (client) =>
    client.query<{ host: string; port: number }>(`SELECT nodename AS host, nodeport AS port FROM pg_dist_node WHERE groupid <> 0 AND noderole = 'primary' ORDER BY nodeid`),
  );
  return rows.map(({ host, port }) => Object.assign(new URL(adminUrl), { hostname: host, port: String(port) }).toString());
}

/** Before the migrations: the database `name` (made on the coordinator already) on every
 * worker, the citus extension on every node, the workers registered on the coordinator. */
export async function createOnEveryNode(adminUrl: string, name: string): Promise<void> {
  const workers = await workerUrls(adminUrl);
  await Promise.all(
    workers.map(async (worker) => {
      await withAdmin(worker, (client) => client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`));
      await withAdmin(databaseUrl(worker, name), (client) => client.query('CREATE EXTENSION citus'));
    }),
  );
  await withAdmin(databaseUrl(adminUrl, name), async (client) => {
    await client.query('CREATE EXTENSION citus');
    const coordinator = new URL(adminUrl);
    await client.query(`SELECT citus_set_coordinator_host($1, $2)`, [coordinator.hostname, Number(coordinator.port || 5432)]);
    for (const worker of workers) {
      const url = new URL(worker);
      await client.query(`SELECT citus_add_node($1, $2)`, [url.hostname, Number(url.port || 5432)]);
    }
  });
}

/** After the migrations: the template in the layout, then closed on every node, since
 * Postgres copies no database that anyone is connected to (Citus's maintenance
 * daemon keeps a connection to each database with the extension). */
export async function distributeTemplate(adminUrl: string, name: string): Promise<void> {
  await withAdmin(databaseUrl(adminUrl, name), (client) => distribute(client, { shardCount: testShards, functions: citusFunctions }));
  const nodes = [adminUrl, ...(await workerUrls(adminUrl))];
  await Promise.all(
    nodes.map((node) =>
      withAdmin(node, async (client) => {
        await client.query(`ALTER DATABASE ${client.escapeIdentifier(name)} ALLOW_CONNECTIONS false`);
        await client.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [name]);
      }),
    ),
  );
}

/** The worker halves of a test database: copies of the template's on every worker. */
export async function copyOnWorkers(adminUrl: string, name: string, template: string): Promise<void> {
  const workers = await workerUrls(adminUrl);
  await Promise.all(
    workers.map((worker) => withAdmin(worker, (client) => client.query(`CREATE DATABASE ${client.escapeIdentifier(name)} TEMPLATE ${client.escapeIdentifier(template)}`))),
  );
}

/** Drops the databases `names` on every worker. */
export async function dropOnWorkers(adminUrl: string, names: readonly string[]): Promise<void> {
  const workers = await workerUrls(adminUrl);
  await Promise.all(
    workers.map((worker) =>
      withAdmin(worker, async (client) => {
        for (const name of names) await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
      }),
    ),
  );
}
