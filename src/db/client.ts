import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.ts';
import { applicationName } from '../lib/application-name.ts';

export type { PrismaClient };

export interface PrismaOptions {
  /** pg pool size; env DATABASE_POOL_SIZE, else 10. */
  poolSize?: number;
  /** Waiting for a connection; env DATABASE_CONNECT_TIMEOUT_MS, else 3000. */
  connectTimeoutMs?: number;
  /** One statement; env DATABASE_STATEMENT_TIMEOUT_MS, else 5000. */
  statementTimeoutMs?: number;
}

const fromEnv = (name: string): number | undefined => Number(process.env[name]) || undefined;

/** Prisma for the schema and most queries, and its pg pool itself for the few hot
 * statements where Prisma's per-query overhead (about a millisecond here) would
 * dominate. Both share the same connections. */
export interface DatabaseClients {
  readonly prisma: PrismaClient;
  readonly pool: pg.Pool;
  close(): Promise<void>;
}

export function createClients(url: string, options: PrismaOptions = {}): DatabaseClients {
  const max = options.poolSize ?? fromEnv('DATABASE_POOL_SIZE') ?? 10;
  const statementMs = options.statementTimeoutMs ?? fromEnv('DATABASE_STATEMENT_TIMEOUT_MS') ?? 5000;
  // A starved pool or a stuck statement fails after a while (a 503) instead of
  // stalling a game's command queue for good. The server cancels a slow statement
  // itself; the client-side timeout, a second later, covers a server that does not
  // answer at all (frozen, or gone without closing the connection).
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: options.connectTimeoutMs ?? fromEnv('DATABASE_CONNECT_TIMEOUT_MS') ?? 3000,
    statement_timeout: statementMs,
    query_timeout: statementMs + 1000,
    idle_in_transaction_session_timeout: statementMs,
    application_name: applicationName('pool'),
  });
  // An idle connection that the server closes (a restart, a terminated backend) is
  // dropped by the pool, which opens another when asked; without a listener its error
  // would crash the process. A query in flight gets its own error.
  pool.on('error', () => {});
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    prisma,
    pool,
    close: async () => {
      await prisma.$disconnect();
      await pool.end().catch(() => undefined);
    },
  };
}
