// The process: a database (DATABASE_URL, or an embedded Postgres whose data survives
// restarts), the app on PORT, and a graceful shutdown on SIGTERM/SIGINT that finishes
// in-flight commands, closes sockets with 1001 and stops the embedded database.
import pino from 'pino';
import { buildApp } from './app.ts';
import { openDatabase } from './db/database.ts';

const log = pino({ level: process.env.LOG_LEVEL ?? 'info' });
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '0.0.0.0';

const database = await openDatabase({ log: (line) => log.debug(line) });
const adminKey = process.env.SPIELWERK_ADMIN_KEY || undefined;
// Only bearer tokens shaped like API keys are looked up as keys (see routes/organizer-key.ts).
if (adminKey !== undefined && !/^sw_\S{32,}$/.test(adminKey)) {
  log.error('SPIELWERK_ADMIN_KEY must start with sw_ and have at least 32 characters after it');
  await database.close();
  process.exit(1);
}
const app = await buildApp({ prisma: database.prisma, pool: database.pool, notifyUrl: database.url, logger: log, adminKey });

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
