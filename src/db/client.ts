import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.ts';

export type { PrismaClient };

export interface PrismaOptions {
  /** pg pool size; env DATABASE_POOL_SIZE, else 10. */
  poolSize?: number;
}

export function createPrisma(url: string, options: PrismaOptions = {}): PrismaClient {
  const max = options.poolSize ?? (Number(process.env.DATABASE_POOL_SIZE) || 10);
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max }) });
}
