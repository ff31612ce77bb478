// Notifications between two instances on one database (src/events/notifier.ts) when
// the listener connection fails: cut by the server (pg_terminate_backend, as an
// operator or a failover does) or stuck (its backend frozen with SIGSTOP). Every
// watcher on the other instance must be caught up within a second either way, without
// the periodic resync (set to a minute here).
import { existsSync, readFileSync } from 'node:fs';
import pg from 'pg';
import pino from 'pino';
import t from 'tap';
import { buildApp, type App } from '../../src/app.ts';
import { createClients } from '../../src/db/client.ts';
import { bearerHeader, command, createGame, testApp } from '../helpers/app.ts';
import { testDatabase, type TestDatabase } from '../helpers/database.ts';
import { connect, type Inbox } from '../helpers/ws.ts';

type Game = Awaited<ReturnType<typeof createGame>>;

/** One move in each game, sent together so that their appends share a statement
 * (announced by the notifier after the commit, not inside the append). */
async function moveAll(app: App, games: readonly Game[]): Promise<number[]> {
  const moves = await Promise.all(
    games.map(async ({ id, tokens }) => {
      for (const [seat, token] of tokens.entries()) {
        const view = (await app.inject({ url: `/games/${id}`, headers: bearerHeader(token) })).json();
        if (view.legalCommands.length > 0) return { id, token: tokens[seat], command: view.legalCommands[0], expectedVersion: view.version };
      }
      throw new Error(`nobody may move in ${id}`);
    }),
  );
  const answers = await Promise.all(moves.map(({ id, token, ...body }) => command(app, id, token, body)));
  return answers.map((answer) => {
    if (answer.statusCode !== 200) throw new Error(`move refused: ${answer.body}`);
    return answer.json().version as number;
  });
}

/** Milliseconds until `inbox` has been pushed `version`; fails after `withinMs`. */
async function caughtUp(inbox: Inbox, version: number, started: number, withinMs: number): Promise<number> {
  for (;;) {
    const left = started + withinMs - performance.now();
    const message = await Promise.race([inbox.next(), new Promise<null>((resolve) => setTimeout(() => resolve(null), Math.max(0, left)))]);
    if (message === null) throw new Error(`not caught up to version ${version} within ${withinMs} ms`);
    if (message.version >= version) return Math.round(performance.now() - started);
  }
}

/** Two watchers per game on `watching`, each past its first update. */
async function watchAll(watching: App, games: readonly Game[]): Promise<Inbox[][]> {
  const watchers = await Promise.all(games.map((game) => Promise.all([0, 1].map(() => connect(watching, `/games/${game.id}/live`)))));
  await Promise.all(watchers.flat().map((w) => w.next()));
  return watchers;
}

async function everyWatcherWithin(t: { ok(value: boolean, message: string): void }, watchers: Inbox[][], versions: readonly number[], started: number, withinMs: number, what: string) {
  const delays = await Promise.all(watchers.flatMap((inboxes, i) => inboxes.map((inbox) => caughtUp(inbox, versions[i]!, started, withinMs))));
  t.ok(Math.max(...delays) < withinMs, `${what}: every watcher caught up, the last after ${Math.max(...delays)} ms`);
}

const terminate = (database: TestDatabase, pattern: string) =>
  database.pool.query<{ ok: boolean }>(
    'SELECT pg_terminate_backend(pid, 2000) AS ok FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE $1',
    [pattern],
  );

t.test('after the listener connections are cut, every watcher on the other instance is caught up within 1 s', async (t) => {
  const database = await testDatabase(t);
  const committing = await testApp(t, { database });
  const watching = await testApp(t, { database });
  const games = await Promise.all([0, 1, 2].map((n) => createGame(committing, { type: 'pechvogel', seats: [{}, {}], seed: `cut-${n}` })));
  const watchers = await watchAll(watching, games);

  const cases = [
    ['the committing instance\'s listener', committing.services.notifier!.applicationName],
    ['the watching instance\'s listener', watching.services.notifier!.applicationName],
    ['both listeners', 'spielwerk % listener %'],
  ] as const;
  for (const [what, pattern] of cases) {
    const { rows } = await terminate(database, pattern);
    t.ok(rows.length > 0 && rows.every((row) => row.ok), `${what} cut (${rows.length})`);
    const started = performance.now();
    const versions = await moveAll(committing, games);
    await everyWatcherWithin(t, watchers, versions, started, 1000, what);
  }
  for (const inbox of watchers.flat()) inbox.socket.close();
});

t.test('a stuck notifier connection is timed out and said once, and what it held back goes out on a new one', async (t) => {
  const database = await testDatabase(t);
  const lines: { level: number; msg: string }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const clients = createClients(database.url, { poolSize: 2 });
  t.teardown(() => clients.close());
  const timeoutMs = 300;
  const committing = await buildApp({ ...clients, notifyUrl: database.url, scheduler: { timers: false }, resyncMs: 60_000, logger, notifier: { timeoutMs } });
  await committing.ready();
  t.teardown(() => committing.close());
  const watching = await testApp(t, { database });
  const games = await Promise.all([0, 1, 2].map((n) => createGame(committing, { type: 'pechvogel', seats: [{}, {}], seed: `stuck-${n}` })));
  const watchers = await watchAll(watching, games);
  // A statement that goes alone carries its own notifications (group-commit.ts): the
  // moves go beside one held up by a lock on another game's row, so they are announced.
  const blocker = await createGame(committing, { type: 'pechvogel', seats: [{}, {}], seed: 'stuck-blocker' });
  const lock = new pg.Client({ connectionString: database.url });
  await lock.connect();
  t.teardown(() => lock.end());
  await lock.query('BEGIN');
  await lock.query('SELECT 1 FROM game WHERE id = $1 FOR UPDATE', [blocker.id]);
  const blocked = moveAll(committing, [blocker]);
  const waitingOnLock = async () =>
    (await database.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")).rows[0]!.n;
  for (let i = 0; i < 1000 && (await waitingOnLock()) === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  t.equal(await waitingOnLock(), 1, "the blocker's statement waits on the lock");

  const { rows } = await database.pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [committing.services.notifier!.applicationName]);
  t.equal(rows.length, 1, 'the committing instance\'s listener');
  const frozen = rows[0]!.pid;
  // Only a backend of a server on this machine can be frozen from here (not one behind
  // a DATABASE_URL elsewhere, whose pid means nothing here).
  const { rows: [where] } = await database.pool.query<{ addr: string | null }>('SELECT host(inet_server_addr()) AS addr');
  const local = (where?.addr ?? null) === null || ['127.0.0.1', '::1'].includes(where!.addr!);
  if (!local || !existsSync(`/proc/${frozen}/comm`) || !readFileSync(`/proc/${frozen}/comm`, 'utf8').startsWith('postgres')) {
    t.comment('skipped: the database server runs elsewhere, its backend cannot be frozen from here');
    return;
  }
  const thaw = () => {
    try {
      process.kill(frozen, 'SIGCONT');
    } catch {
      // Gone already: it was told to terminate once it ran again.
    }
  };
  process.kill(frozen, 'SIGSTOP');
  t.teardown(thaw);

  const started = performance.now();
  await moveAll(committing, games);
  // More announcements while the first one hangs: they must not wait behind it forever.
  const versions = await moveAll(committing, games);
  await everyWatcherWithin(t, watchers, versions, started, timeoutMs + 1000, 'past the stuck query');
  const warned = lines.filter((line) => line.level === 40 && /did not answer in time/.test(line.msg));
  t.equal(warned.length, 1, 'the incident is warned of once');
  // The other instance may hear the NOTIFY before the query's answer is back here.
  const recovered = () => lines.some((line) => line.level === 30 && /answers again/.test(line.msg));
  for (let i = 0; i < 50 && !recovered(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  t.ok(recovered(), 'and its end is said');
  await lock.query('COMMIT');
  await blocked;

  thaw();
  const later = performance.now();
  await everyWatcherWithin(t, watchers, await moveAll(committing, games), later, 1000, 'afterwards');
  for (const inbox of watchers.flat()) inbox.socket.close();
});
