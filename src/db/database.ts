import { createClients } from './client.ts';
import type pg from 'pg';
import type { PrismaClient } from './client.ts';
import { startEmbeddedPostgres } from './embedded.ts';
import { applyMigrationsInChild } from './migrate-in-child.ts';

export interface DatabaseServer {
  url: string;
  stop(): Promise<void>;
}

export interface Database {
  url: string;
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
  if (url) return { url, stop: async () => {} };
  const port = Number(process.env.EMBEDDED_PG_PORT) || undefined;
  const server = await startEmbeddedPostgres({
    dataDir: process.env.EMBEDDED_PG_DATA_DIR || undefined,
    port,
    log: options.log,
  });
  return { url: server.url, stop: server.stop };
}

/** The service's database: resolved, migrated (in a child process, see migrate-in-child.ts),
 * with a Prisma client. */
export async function openDatabase(options: ResolveOptions = {}): Promise<Database> {
  const server = await resolveServer(options);
  try {
    const applied = await applyMigrationsInChild(server.url);
    if (applied.length) options.log?.(`applied migrations: ${applied.join(', ')}`);
  } catch (error) {
    await server.stop();
    throw error;
  }
  const clients = createClients(server.url);
  return {
    url: server.url,
    prisma: clients.prisma,
    pool: clients.pool,
    close: async () => {
      await clients.close();
      await server.stop();
    },
  };
}
