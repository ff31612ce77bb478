import pg from 'pg';
import { applicationName } from '../lib/application-name.ts';
import { citusInstalled, distribute, type DistributedFunction } from './distribution.ts';
import type { PrismaClient } from './client.ts';
import { startEmbeddedPostgres } from './embedded.ts';
import { applyMigrationsInChild } from './migrate-in-child.ts';
import { checkConnection, describeDatabase, explainMigrationFailure, parseDatabaseUrl, StartupError } from './preflight.ts';

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
  /** A Citus coordinator, its tables in the distributed layout (docs/scaling.md). */
  distributed: boolean;
  died: Promise<void>;
  prisma: PrismaClient;
  pool: pg.Pool;
  close(): Promise<void>;
}

export interface ResolveOptions {
  log?: (line: string) => void;
}

export interface OpenOptions extends ResolveOptions {
  /** On Citus, the functions the layout delegates to a game's worker (events/citus.ts). */
  citusFunctions?: readonly DistributedFunction[];
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
 * migrate-in-child.ts), on a Citus coordinator put in the distributed layout (new tables
 * of the migrations included), with a Prisma client. A wrong DATABASE_URL or a database
 * that is not this service's fails with a StartupError. */
export async function openDatabase(options: OpenOptions = {}): Promise<Database> {
  const server = await resolveServer(options);
  const parsed = parseDatabaseUrl(server.url);
  let applied: string[];
  let distributed: boolean;
  try {
    const unapplied = await checkConnection(server.url);
    applied = unapplied.length === 0 ? [] : await applyMigrationsInChild(server.url).catch((error: unknown) => {
      throw explainMigrationFailure(error, parsed);
    });
    distributed = await distributeOnCitus(server.url, options.citusFunctions ?? []).catch((error: unknown) => {
      throw new StartupError(`putting ${describeDatabase(parsed)} in the distributed layout failed: ${(error as Error).message}`, { cause: error });
    });
  } catch (error) {
    await server.stop();
    throw error;
  }
  // The Prisma client is loaded only now: until the database is ready, the process has
  // its time for everything else it loads (server.ts).
  const { createClients } = await import('./client.ts');
  const clients = createClients(server.url);
  return {
    url: server.url,
    where: describeDatabase(parsed),
    applied,
    distributed,
    died: server.died,
    prisma: clients.prisma,
    pool: clients.pool,
    close: async () => {
      await clients.close();
      await server.stop();
    },
  };
}

/** Whether the database is a Citus coordinator; if so, its tables are put in the layout. */
async function distributeOnCitus(url: string, functions: readonly DistributedFunction[]): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, application_name: applicationName('distribute') });
  await client.connect();
  try {
    if (!(await citusInstalled(client))) return false;
    await distribute(client, { functions });
    return true;
  } finally {
    await client.end().catch(() => undefined);
  }
}
