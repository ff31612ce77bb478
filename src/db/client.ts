import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.ts';

export type { PrismaClient };

export interface PrismaOptions {
  /** pg pool size; env DATABASE_POOL_SIZE, else 10. */
  poolSize?: number;
}

/** Prisma for the schema and most queries, and its pg pool itself for the few hot
 * statements where Prisma's per-query overhead (about a millisecond here) would
 * dominate. Both share the same connections. */
export interface DatabaseClients {
  readonly prisma: PrismaClient;
  readonly pool: pg.Pool;
  close(): Promise<void>;
}

export function createClients(url: string, options: PrismaOptions = {}): DatabaseClients {
  const max = options.poolSize ?? (Number(process.env.DATABASE_POOL_SIZE) || 10);
  // A starved pool or a stuck statement fails loudly after a while instead of
  // stalling a game's command queue for good.
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: 10_000,
    statement_timeout: 15_000,
    idle_in_transaction_session_timeout: 15_000,
  });
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
