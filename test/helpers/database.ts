// One database per test file, copied from a migrated template. `npm test`
// (scripts/test.ts) prepares the server and template once per run and hands them to
// tap's workers through the environment; a test file run on its own (`npx tap file`)
// prepares a private server instead.
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import tap from 'tap';
import { createPrisma } from '../../src/db/client.ts';
import type { PrismaClient } from '../../src/db/client.ts';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { applyMigrations } from '../../src/db/migrate.ts';

export const ADMIN_URL_ENV = 'SPIELWERK_TEST_DB_ADMIN_URL';
export const TEMPLATE_ENV = 'SPIELWERK_TEST_DB_TEMPLATE';
export const PREFIX_ENV = 'SPIELWERK_TEST_DB_PREFIX';

/** Teardown hooks of tap's `t`; kept structural so the helper does not depend on tap's types. */
interface TestLike {
  teardown(fn: () => unknown): void;
}

export interface TestDatabase {
  url: string;
  prisma: PrismaClient;
}

export interface TestServer {
  adminUrl: string;
  template: string;
  /** Every database this run makes starts with it, so cleanup can find leftovers. */
  prefix: string;
  /** Drops the run's databases, then stops the server if it was started here. */
  stop(): Promise<void>;
}

/** Settings for a throwaway cluster: durability is worthless here, speed is not. */
const throwawaySettings = {
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
  max_connections: '300',
};

export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function withAdmin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function dropDatabasesWithPrefix(adminUrl: string, prefix: string): Promise<void> {
  await withAdmin(adminUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE starts_with(datname, $1)`,
      [prefix],
    );
    for (const { datname } of rows) {
      await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(datname)} WITH (FORCE)`);
    }
  });
}

/**
 * A Postgres with a migrated template: on $DATABASE_URL's server when set (the role
 * needs CREATEDB), else an embedded cluster in a temporary directory.
 */
export async function startTestServer(log?: (line: string) => void): Promise<TestServer> {
  const prefix = `spielwerk_test_${randomBytes(4).toString('hex')}_`;
  const template = `${prefix}template`;
  let adminUrl = process.env.DATABASE_URL;
  let stopServer = async () => {};
  if (!adminUrl) {
    const server = await startEmbeddedPostgres({
      dataDir: await mkdtemp(path.join(os.tmpdir(), 'spielwerk-pg-')),
      ephemeral: true,
      settings: throwawaySettings,
      log,
    });
    adminUrl = server.url;
    stopServer = server.stop;
  }
  const admin = adminUrl;
  const stop = async () => {
    try {
      await dropDatabasesWithPrefix(admin, prefix);
    } finally {
      await stopServer();
    }
  };
  try {
    await withAdmin(admin, (client) => client.query(`CREATE DATABASE ${client.escapeIdentifier(template)}`));
    await applyMigrations(databaseUrl(admin, template));
  } catch (error) {
    await stop();
    throw error;
  }
  return { adminUrl: admin, template, prefix, stop };
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

/** A fresh, migrated database for this test; dropped again at its teardown. */
export async function testDatabase(t: TestLike): Promise<TestDatabase> {
  const { adminUrl, template, prefix } = await server();
  const name = `${prefix}${process.pid}_${++counter}`;
  await withAdmin(adminUrl, (client) =>
    client.query(`CREATE DATABASE ${client.escapeIdentifier(name)} TEMPLATE ${client.escapeIdentifier(template)}`),
  );
  const url = databaseUrl(adminUrl, name);
  const prisma = createPrisma(url, { poolSize: 4 });
  t.teardown(async () => {
    await prisma.$disconnect();
    await withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`));
  });
  return { url, prisma };
}
