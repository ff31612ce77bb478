// The Postgres a test run uses and its migrated template. Kept free of tap: the
// runner (scripts/test.ts) imports it, and importing tap would make the runner a test
// process of its own, with a root test that times out.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { applyMigrations } from '../../src/db/migrate.ts';
import { CITUS_TEST_ENV, distributeTemplate, dropOnWorkers, onCitus, createOnEveryNode } from './citus.ts';

export const ADMIN_URL_ENV = 'SPIELWERK_TEST_DB_ADMIN_URL';
export const TEMPLATE_ENV = 'SPIELWERK_TEST_DB_TEMPLATE';
export const PREFIX_ENV = 'SPIELWERK_TEST_DB_PREFIX';

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

export async function withAdmin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function dropDatabasesWithPrefix(adminUrl: string, prefix: string): Promise<void> {
  const names = await withAdmin(adminUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE starts_with(datname, $1)`,
      [prefix],
    );
    for (const { datname } of rows) {
      await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(datname)} WITH (FORCE)`);
    }
    return rows.map((row) => row.datname);
  });
  if (onCitus()) await dropOnWorkers(adminUrl, names);
}

/**
 * A Postgres with a migrated template: on $DATABASE_URL's server when set (the role
 * needs CREATEDB), else an embedded cluster in a temporary directory. Under
 * `npm run test:citus` ($SPIELWERK_TEST_CITUS), on the Citus cluster of $CITUS_URL, the
 * template distributed over its workers (see citus.ts).
 */
export async function startTestServer(log?: (line: string) => void): Promise<TestServer> {
  const prefix = `spielwerk_test_${randomBytes(4).toString('hex')}_`;
  const template = `${prefix}template`;
  let adminUrl = onCitus() ? process.env.CITUS_URL : process.env.DATABASE_URL;
  if (onCitus() && !adminUrl) throw new Error(`${CITUS_TEST_ENV} needs CITUS_URL`);
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
    if (onCitus()) await createOnEveryNode(admin, template);
    await applyMigrations(databaseUrl(admin, template));
    if (onCitus()) await distributeTemplate(admin, template);
  } catch (error) {
    await stop();
    throw error;
  }
  return { adminUrl: admin, template, prefix, stop };
}


/** Runs tap with `args` against `server` (handed to its workers through the environment);
 * resolves to tap's exit code. A Ctrl-C reaches tap through the terminal; SIGTERM (CI
 * timeouts) is passed on, and the caller stays alive to clean up after tap has gone. */
export function runTap(server: Omit<TestServer, 'stop'>, args: readonly string[]): Promise<number> {
  const tapBin = fileURLToPath(new URL('../../node_modules/.bin/tap', import.meta.url));
  const child = spawn(tapBin, args, {
    stdio: 'inherit',
    env: { ...process.env, [ADMIN_URL_ENV]: server.adminUrl, [TEMPLATE_ENV]: server.template, [PREFIX_ENV]: server.prefix },
  });
  process.on('SIGINT', () => {});
  process.on('SIGTERM', (signal) => child.kill(signal));
  return new Promise<number>((resolve) => {
    child.on('error', () => resolve(1));
    child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 128 : 1)));
  });
}
