import { createClients } from './client.ts';
import type pg from 'pg';
import type { PrismaClient } from './client.ts';
import { startEmbeddedPostgres } from './embedded.ts';
import { applyMigrationsInChild } from './migrate-in-child.ts';
import { checkConnection, describeDatabase, explainMigrationFailure, parseDatabaseUrl } from './preflight.ts';

export interface DatabaseServer {
  url: string;
  stop(): Promise<void>;
  /** Settles if an embedded server exits without being stopped; never for DATABASE_URL. */
  died: Promise<void>;
}

export interface Database {
  url: string;
  /** Where the database runs, for the log (no password). */
  where: string;
  /** The migrations this start applied. */
  applied: string[];
  died: Promise<void>;
  prisma: PrismaClient;
  pool: pg.Pool;
  close(): Promise<void>;
}

export interface ResolveOptions {
  log?: (line: string) => void;
}

/**
 * DATABASE_URL when set; otherwise the embedded Postgres in EMBEDDED_PG_DATA_DIR
 * (default .data/postgres) on EMBEDDED_PG_PORT (default: a free port).
 */
export async function resolveServer(options: ResolveOptions = {}): Promise<DatabaseServer> {
  const url = process.env.DATABASE_URL;
  if (url) return { url, stop: async () => {}, died: new Promise(() => {}) };
  const port = Number(process.env.EMBEDDED_PG_PORT) || undefined;
  const server = await startEmbeddedPostgres({
    dataDir: process.env.EMBEDDED_PG_DATA_DIR || undefined,
    port,
    log: options.log,
  });
  return { url: server.url, stop: server.stop, died: server.died };
}

/** The service's database: resolved, checked, migrated (in a child process, see
 * migrate-in-child.ts), with a Prisma client. A wrong DATABASE_URL or a database that is
 * not this service's fails with a StartupError. */
export async function openDatabase(options: ResolveOptions = {}): Promise<Database> {
  const server = await resolveServer(options);
  const parsed = parseDatabaseUrl(server.url);
  let applied: string[];
  try {
    await checkConnection(server.url);
    applied = await applyMigrationsInChild(server.url).catch((error: unknown) => {
      throw explainMigrationFailure(error, parsed);
    });
  } catch (error) {
    await server.stop();
    throw error;
  }
  const clients = createClients(server.url);
  return {
    url: server.url,
    where: describeDatabase(parsed),
    applied,
    died: server.died,
    prisma: clients.prisma,
    pool: clients.pool,
    close: async () => {
      await clients.close();
      await server.stop();
    },
  };
}
