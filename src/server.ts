// The process: a database (DATABASE_URL, or an embedded Postgres whose data survives
// restarts), the app on PORT, and a graceful shutdown on SIGTERM/SIGINT: /ready turns
// 503 at once, requests are served for SHUTDOWN_GRACE_MS more, then the app closes
// within SHUTDOWN_TIMEOUT_MS (in-flight commands finish, sockets get 1001, whatever is
// left is cut) and the embedded database stops. See docs/operations.md.
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { openDatabase } from './db/database.ts';
import { citusFunctions } from './events/citus.ts';
import { StartupError } from './db/preflight.ts';
import { secretPaths } from './observability/redaction.ts';
import { defaultSweeperOptions } from './jobs/stalled-games.ts';

const log = pino({ level: process.env.LOG_LEVEL ?? 'info', redact: { paths: secretPaths, censor: '[redacted]' } });
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '0.0.0.0';
const graceMs = count('SHUTDOWN_GRACE_MS', 0);
const closeTimeoutMs = count('SHUTDOWN_TIMEOUT_MS', 5000);
/** Stopping the database after the app: a clean Postgres shutdown takes well under this. */
const databaseStopMs = 10_000;

/** A whole number ≥ 0 from the environment (milliseconds, or a limit where 0 is none). */
function count(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    log.error({ [name]: raw }, `${name} must be a whole number ≥ 0`);
    process.exit(1);
  }
  return value;
}

// The database comes up (an embedded Postgres boots in a process of its own, an external
// one is asked whether anything is left to migrate) while the application's modules
// load, which is most of a start: one after the other, they made a restart twice as long.
// A database the service cannot use is told in one line, without a stack: nothing an
// operator could do with one.
const opening = openDatabase({ log: (line) => log.debug(line), citusFunctions }).catch((error: unknown) => {
  if (error instanceof StartupError) log.error({ cause: (error.cause as { code?: string } | undefined)?.code }, `cannot start: ${error.message}`);
  else log.error({ err: error }, 'cannot start');
  process.exit(1);
});
const [{ buildApp, parseCorsOrigins }, { defaultLiveLimits }, { defaultConnectionLimits }, { defaultMcpLimits }] = await Promise.all([
  import('./app.ts'),
  import('./live/socket-limits.ts'),
  import('./routes/connection-limits.ts'),
  import('./mcp/route.ts'),
]);
const database = await opening;
const adminKey = process.env.SPIELWERK_ADMIN_KEY || undefined;
// Only bearer tokens shaped like API keys are looked up as keys (see routes/organizer-key.ts).
if (adminKey !== undefined && !/^sw_\S{32,}$/.test(adminKey)) {
  log.error('SPIELWERK_ADMIN_KEY must start with sw_ and have at least 32 characters after it');
  await database.close();
  process.exit(1);
}
log.info({ database: database.where, embedded: !process.env.DATABASE_URL, distributed: database.distributed }, 'database ready');
log.info({ applied: database.applied }, database.applied.length > 0 ? `applied ${database.applied.length} migrations` : 'the database schema is up to date');
const rateLimits = {
  gamesPerMinute: count('RATE_LIMIT_GAMES_PER_MINUTE', 300),
  commandsPerSecond: count('RATE_LIMIT_COMMANDS_PER_SECOND', 5000),
  joinsPerMinute: count('RATE_LIMIT_JOINS_PER_MINUTE', 20),
};
const corsOrigins = parseCorsOrigins(process.env.CORS_ORIGINS);
const live = {
  sendBufferBytes: count('LIVE_SEND_BUFFER_BYTES', defaultLiveLimits.sendBufferBytes),
  messagesPerSecond: count('LIVE_MESSAGES_PER_SECOND', defaultLiveLimits.messagesPerSecond),
  catchUpEvents: Math.max(1, count('LIVE_CATCH_UP_EVENTS', defaultLiveLimits.catchUpEvents)),
};
const connections = {
  max: count('MAX_CONNECTIONS', defaultConnectionLimits.max),
  perAddress: count('MAX_CONNECTIONS_PER_ADDRESS', defaultConnectionLimits.perAddress),
  headersTimeoutMs: count('HTTP_HEADERS_TIMEOUT_MS', defaultConnectionLimits.headersTimeoutMs),
  requestTimeoutMs: count('HTTP_REQUEST_TIMEOUT_MS', defaultConnectionLimits.requestTimeoutMs),
  keepAliveTimeoutMs: count('HTTP_KEEP_ALIVE_TIMEOUT_MS', defaultConnectionLimits.keepAliveTimeoutMs),
};
const app = await buildApp({
  prisma: database.prisma,
  pool: database.pool,
  notifyUrl: database.url,
  distributed: database.distributed,
  logger: log,
  logProbeSample: count('LOG_PROBE_SAMPLE', 1),
  closeTimeoutMs,
  rateLimits,
  live,
  connections,
  mcp: {
    sessions: count('MCP_SESSIONS', defaultMcpLimits.sessions),
    sessionsPerClient: count('MCP_SESSIONS_PER_CLIENT', defaultMcpLimits.sessionsPerClient),
    idleMs: count('MCP_SESSION_IDLE_SECONDS', defaultMcpLimits.idleMs / 1000) * 1000,
  },
  adminKey,
  openGameTtlMs: count('OPEN_GAME_TTL_SECONDS', 86_400) * 1000,
  sweeper: { stallMs: count('STALL_MS', defaultSweeperOptions.stallMs) },
  // Watchable by default (docs/bots.md); the servers tests and benchmarks start set 0.
  botThinkMs: count('BOT_THINK_MS', 800),
  webhooks: { allowPrivate: process.env.WEBHOOK_ALLOW_PRIVATE === '1' || process.env.WEBHOOK_ALLOW_PRIVATE === 'true' },
  ...(corsOrigins === undefined ? {} : { corsOrigins }),
});

// An embedded Postgres that died is not restarted here: the process exits non-zero so
// that its supervisor restarts the whole service (docs/operations.md).
void database.died.then(() => {
  log.error('the embedded Postgres exited unexpectedly; stopping with exit code 1');
  void shutdown('the embedded Postgres exited', 1);
});

let stopping = false;
async function shutdown(reason: string, exitCode = 0): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ reason, graceMs, closeTimeoutMs }, 'shutting down');
  // Whatever hangs, the process ends: a supervisor would kill it anyway, later.
  setTimeout(() => {
    log.error('shutdown did not finish in time; exiting');
    process.exit(1);
  }, graceMs + closeTimeoutMs + databaseStopMs).unref();
  app.lifecycle.draining = true;
  if (graceMs > 0) await sleep(graceMs);
  try {
    await app.close();
    await database.close();
    if (exitCode === 0) log.info('stopped cleanly');
    process.exit(exitCode);
  } catch (error) {
    log.error({ err: error }, 'unclean shutdown');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

// Run by `npm start`, this process's parent is npm (or the shell npm runs a script in,
// which dies of a SIGTERM without passing it on). Once the parent is gone nobody could
// stop the service any more, so it stops as if it had been sent SIGTERM itself.
if (process.env.npm_lifecycle_event !== undefined) {
  const parent = process.ppid;
  setInterval(() => {
    if (!alive(parent)) void shutdown('the npm process that started the service exited');
  }, 250).unref();
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

try {
  await app.listen({ port, host });
} catch (error) {
  log.error({ err: error }, 'could not start');
  await database.close();
  process.exit(1);
}
