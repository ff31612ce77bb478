// One database per test file, copied from a migrated template. `npm test`
// (scripts/test.ts) prepares the server and template once per run and hands them to
// tap's workers through the environment; a test file run on its own (`npx tap file`)
// prepares a private server instead.
import tap from 'tap';
import { createClients } from '../../src/db/client.ts';
import type pg from 'pg';
import type { PrismaClient } from '../../src/db/client.ts';
import { ADMIN_URL_ENV, PREFIX_ENV, TEMPLATE_ENV, databaseUrl, startTestServer, withAdmin, type TestServer } from './test-server.ts';
import { copyOnWorkers, dropOnWorkers, onCitus } from './citus.ts';

/** Teardown hooks of tap's `t`; kept structural so the helper does not depend on tap's types. */
export interface TestLike {
  teardown(fn: () => unknown): void;
}

export interface TestDatabase {
  url: string;
  prisma: PrismaClient;
  pool: pg.Pool;
}

let privateServer: Promise<TestServer> | undefined;

async function server(): Promise<Omit<TestServer, 'stop'>> {
  const adminUrl = process.env[ADMIN_URL_ENV];
  const template = process.env[TEMPLATE_ENV];
  const prefix = process.env[PREFIX_ENV];
  if (adminUrl && template && prefix) return { adminUrl, template, prefix };
  if (!privateServer) {
    const started = startTestServer();
    privateServer = started;
    // On the root test: it ends after every subtest that may still use the server.
    tap.teardown(async () => (await started).stop());
  }
  return privateServer;
}

let counter = 0;

/** A fresh, migrated database for this test; dropped again at its teardown. Under
 * `npm run test:citus`, a copy of the distributed template on every node (citus.ts). */
export async function testDatabase(t: TestLike): Promise<TestDatabase> {
  const { adminUrl, template, prefix } = await server();
  const name = `${prefix}${process.pid}_${++counter}`;
  const drop = async () => {
    await withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`));
    if (onCitus()) await dropOnWorkers(adminUrl, [name]);
  };
  await Promise.all([
    withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${client.escapeIdentifier(name)} TEMPLATE ${client.escapeIdentifier(template)}`)),
    onCitus() ? copyOnWorkers(adminUrl, name, template) : undefined,
  ]).catch(async (error: unknown) => {
    await drop();
    throw error;
  });
  const url = databaseUrl(adminUrl, name);
  const { prisma, pool, close } = createClients(url, { poolSize: 4 });
  t.teardown(async () => {
    await close();
    await drop();
  });
  return { url, prisma, pool };
}

/** A fresh database without any schema, for testing migrations; dropped at teardown. */
export async function emptyDatabase(t: TestLike): Promise<string> {
  const { adminUrl, prefix } = await server();
  const name = `${prefix}${process.pid}_${++counter}`;
  await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`));
  t.teardown(() => withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`)));
  return databaseUrl(adminUrl, name);
}

/** A pool that counts the queries sent through it, to check what shares a statement. */
export function countingPool(pool: pg.Pool): { pool: pg.Pool; readonly queries: number } {
  let queries = 0;
  const counting = {
    query: (...args: unknown[]) => {
      queries++;
      return (pool.query as (...a: unknown[]) => unknown).apply(pool, args);
    },
  } as unknown as pg.Pool;
  return {
    pool: counting,
    get queries() {
      return queries;
    },
  };
}
