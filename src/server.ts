// The process: a database (DATABASE_URL, or an embedded Postgres whose data survives
// restarts), the app on PORT, and a graceful shutdown on SIGTERM/SIGINT that finishes
// in-flight commands, closes sockets with 1001 and stops the embedded database.
import pino from 'pino';
import { buildApp, parseCorsOrigins } from './app.ts';
import { openDatabase } from './db/database.ts';

const log = pino({ level: process.env.LOG_LEVEL ?? 'info' });
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '0.0.0.0';
const corsOrigins = parseCorsOrigins(process.env.CORS_ORIGINS);

const database = await openDatabase({ log: (line) => log.debug(line) });
const app = await buildApp({
  prisma: database.prisma,
  pool: database.pool,
  notifyUrl: database.url,
  logger: log,
  ...(corsOrigins === undefined ? {} : { corsOrigins }),
});

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down');
  try {
    await app.close();
    await database.close();
    log.info('stopped cleanly');
    process.exit(0);
  } catch (error) {
    log.error({ err: error }, 'unclean shutdown');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

try {
  await app.listen({ port, host });
} catch (error) {
  log.error({ err: error }, 'could not start');
  await database.close();
  process.exit(1);
}
