// `npm run soak:liveness -- [--games 2000] [--tournaments 50] [--parallel 32]
//                            [--stall-ms 2000] [--game-limit 300] [--seed liveness]
//                            [--drop-wakeups 0]`
// No game waits on the server (issue 25): bot games of all four types and tournaments
// played on TWO instances of the service (two apps in this process, each with its own
// pool, caches, bots, deadline timers and sweeper, on one database, hearing each other
// through LISTEN/NOTIFY as separate processes do), each request sent to either one.
// Plain games: tables of bots only, and tables where seat 0 is a person this script
// plays over the API, who plays to the end, resigns mid-game, or goes silent mid-game
// under a turn clock (the server's timeout ends it). Tournaments (Swiss, 2 rounds,
// advance auto, no-shows forfeited after 2 s): one person never plays (no-show: a bot
// takes the seat over), another is withdrawn mid-game (a bot takes over), the rest
// bots. Every game's log is then replayed: after each version, whenever a server bot
// was pending (since the version, or since it took the seat over) or a deadline had
// passed, the time until the next event is a wait on the server. Reports the longest
// such wait, the waits over 5 s (must be 0), the sweeper's interventions over both
// instances (spielwerk_stalled_games_total) and every error logged; exits 1 on a stall
// over 5 s, an unfinished game or tournament, a 5xx or an error line. --drop-wakeups p
// loses that share of the bots' wake-ups on purpose (as the stale cache of issue 25
// did): then only the sweeper moves those games on, and it must within 5 s.
// Database: an embedded Postgres of its own (as npm test's; under npm test, the suite's), dropped at the end.
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { buildApp, type App } from '../src/app.ts';
import { pick, seededRng, type Rng } from '../src/bots/rng.ts';
import { createClients } from '../src/db/client.ts';
import { findGame } from '../src/domain/games.ts';
import { defaultSweeperOptions } from '../src/jobs/stalled-games.ts';
import { ADMIN_URL_ENV, PREFIX_ENV, TEMPLATE_ENV, databaseUrl, startTestServer, withAdmin } from '../test/helpers/test-server.ts';
import { parseOptions } from './lib.ts';

const args = parseOptions(
  import.meta.url,
  {
    games: { type: 'string', default: '2000' },
    tournaments: { type: 'string', default: '50' },
    parallel: { type: 'string', default: '32' },
    'stall-ms': { type: 'string', default: String(defaultSweeperOptions.stallMs) },
    'game-limit': { type: 'string', default: '300' },
    seed: { type: 'string', default: 'liveness' },
    'drop-wakeups': { type: 'string', default: '0' },
  },
  ['games', 'tournaments', 'parallel', 'stall-ms', 'game-limit', 'drop-wakeups'],
);
const STALL_LIMIT_MS = 5000;
const types = ['pechvogel', 'fackel-und-keule', 'mistkaefer', 'porca-miseria'] as const;
type GameType = (typeof types)[number];
/** Seats of a plain game, and a tournament's table size, by type. */
const seatsOf: Record<GameType, number> = { pechvogel: 4, 'fackel-und-keule': 4, mistkaefer: 3, 'porca-miseria': 5 };
const tableOf: Record<GameType, { min: number; max: number }> = { pechvogel: { min: 3, max: 4 }, 'fackel-und-keule': { min: 3, max: 4 }, mistkaefer: { min: 3, max: 4 }, 'porca-miseria': { min: 4, max: 5 } };
/** Short windows, so that deadlines keep coming. */
const fastOptions: Record<GameType, Record<string, unknown>> = { pechvogel: { reactionSeconds: 1 }, 'fackel-und-keule': {}, mistkaefer: {}, 'porca-miseria': { windowMs: 500, revealMs: 500, maxActions: 60 } };
/** Games with a turn clock (lifecycle's turnSeconds), where a person may go silent. */
const turnClock = new Set<GameType>(['pechvogel', 'mistkaefer']);
const adminKey = `sw_soak_${'x'.repeat(40)}`;

const stats = {
  games: { started: 0, finished: 0, allBots: 0, withPerson: 0, resigned: 0, silent: 0 },
  droppedWakeups: 0,
  tournaments: { started: 0, finished: 0, tables: 0, noShowTakeovers: 0, withdrawTakeovers: 0, withdrawals: 0 },
  commands: { accepted: 0, lost: 0 },
  waits: { measured: 0, overLimit: 0, maxMs: 0, max: null as null | { gameId: string; gameType: string; version: number; why: string } },
  errors: [] as string[],
  errorCount: 0,
};
const error = (message: string): void => {
  stats.errorCount++;
  if (stats.errors.length < 20) stats.errors.push(message);
};

// ——— two instances on one database ———
// Under `npm test` on the suite's Postgres and template (test/helpers/database.ts), else its own.
const [sharedAdmin, sharedTemplate, sharedPrefix] = [ADMIN_URL_ENV, TEMPLATE_ENV, PREFIX_ENV].map((name) => process.env[name]);
const server =
  sharedAdmin && sharedTemplate && sharedPrefix ? { adminUrl: sharedAdmin, template: sharedTemplate, prefix: sharedPrefix, stop: async () => {} } : await startTestServer();
const database = `${server.prefix}soak_liveness_${process.pid}`;
await withAdmin(server.adminUrl, (client) => client.query(`CREATE DATABASE ${client.escapeIdentifier(database)} TEMPLATE ${client.escapeIdentifier(server.template)}`));
const url = databaseUrl(server.adminUrl, database);
/** Warn and error lines of both instances: stalls moved on are counted from the metrics, the rest are faults. */
const logged = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n')) {
      if (line === '') continue;
      const { level, msg, err } = JSON.parse(line) as { level: number; msg: string; err?: { message?: string } };
      if (level >= 50) error(`logged: ${msg}${err?.message === undefined ? '' : `: ${err.message}`}`);
    }
    done();
  },
});
const stallMs = args['stall-ms'];
const clientsOf = [createClients(url, { poolSize: 10 }), createClients(url, { poolSize: 10 })];
const apps: App[] = [];
for (const clients of clientsOf) {
  const app = await buildApp({ prisma: clients.prisma, pool: clients.pool, notifyUrl: url, adminKey, logger: pino({ level: 'warn' }, logged), tournamentPollMs: 500, sweeper: { stallMs, everyMs: Math.min(1000, stallMs) } });
  await app.ready();
  apps.push(app);
  const { bots } = app.services;
  const kick = bots.kick.bind(bots);
  const drop = seededRng(`${args.seed}:drop:${apps.length}`);
  // Wake-ups lost on purpose: a commit's and a takeover's alike go through kick().
  bots.kick = (gameId: string) => {
    if (drop.below(1_000_000) < args['drop-wakeups'] * 1_000_000) stats.droppedWakeups++;
    else kick(gameId);
  };
}
let turn = 0;
/** Either instance, in turn. */
const any = (): App => apps[turn++ % apps.length]!;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function call(method: 'GET' | 'POST', path: string, token?: string, payload?: unknown): Promise<{ status: number; body: any }> {
  const response = await any().inject({ method, url: path, headers: token === undefined ? {} : bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  if (response.statusCode >= 500) error(`${method} ${path.replace(/[0-9a-f-]{36}/g, ':id')}: ${response.statusCode} ${response.body.slice(0, 200)}`);
  return { status: response.statusCode, body: response.json() };
}

// ——— waiting for games and tournaments to end, one query for all ———
const watched = new Map<string, { table: 'game' | 'tournament'; resolve: (over: boolean) => void; until: number }>();
const limitMs = args['game-limit'] * 1000;
let watching = true;
const watcher = (async () => {
  const pool = clientsOf[0]!.pool;
  while (watching) {
    await sleep(200);
    if (watched.size === 0) continue;
    const ids = [...watched.keys()];
    const { rows } = await pool
      .query<{ id: string }>(
        `SELECT id::text FROM game WHERE id = ANY($1::uuid[]) AND status = 'finished' UNION ALL SELECT id::text FROM tournament WHERE id = ANY($1::uuid[]) AND status = 'finished'`,
        [ids],
      )
      .catch((e: unknown) => {
        error(`looking for finished games: ${e instanceof Error ? e.message : String(e)}`);
        return { rows: [] };
      });
    for (const { id } of rows) {
      watched.get(id)?.resolve(true);
      watched.delete(id);
    }
    for (const [id, w] of watched) {
      if (Date.now() <= w.until) continue;
      error(`${w.table} ${id} did not finish within ${args['game-limit']} s`);
      w.resolve(false);
      watched.delete(id);
    }
  }
})();
/** Settles once the game or tournament is over (true), or when --game-limit ran out (false). */
const finished = (id: string, table: 'game' | 'tournament'): Promise<boolean> => new Promise((resolve) => watched.set(id, { table, resolve, until: Date.now() + limitMs }));

// ——— a person at the table, over the API ———
/** Plays the seat of `token` with random legal commands (never resigning by chance)
 * until the game ends or `stopAfter` commands were sent. */
async function playSeat(gameId: string, token: string, rng: Rng, stopAfter = Infinity): Promise<'over' | 'stopped'> {
  let sent = 0;
  for (;;) {
    const { status, body } = await call('GET', `/games/${gameId}`, token);
    if (status !== 200) return 'stopped';
    if (body.status !== 'running') return 'over';
    if (sent >= stopAfter) return 'stopped';
    const legal = (body.legalCommands as { type: string }[]).filter((c) => c.type !== 'resign');
    if (legal.length === 0) {
      await sleep(100);
      continue;
    }
    const answer = await call('POST', `/games/${gameId}/commands`, token, { command: pick(rng, legal), expectedVersion: body.version });
    if (answer.status === 200) {
      stats.commands.accepted++;
      sent++;
    } else if (answer.status === 409 || answer.status === 422) stats.commands.lost++;
    else if (answer.status === 403) return 'stopped';
    else error(`a command answered ${answer.status}: ${answer.body.code}`);
  }
}

// ——— replaying a finished game's log for waits on the server ———
async function measure(gameId: string): Promise<void> {
  const store = apps[0]!.services.store;
  const record = await store.loadGame(gameId);
  if (record === null) return error(`no game ${gameId}`);
  const game = findGame(record.type)!;
  const events = await store.readEvents(gameId, 0);
  // When each bot seat got its bot: at creation, or when it took a seat over.
  const botSince = new Map<number, number>();
  record.seats.forEach((s, seat) => s.bot !== null && botSince.set(seat, 0));
  const { rows } = await clientsOf[0]!.pool.query<{ seat: number; at: Date }>(
    `SELECT array_position(t.players, e.data->>'player') - 1 AS seat, e.at FROM tournament_event e JOIN tournament_table t ON t.game_id = $1::uuid
      WHERE e.tournament_id = t.tournament_id AND e.type = 'SeatTakenOver' AND e.data->>'gameId' = $1::text`,
    [gameId],
  );
  for (const { seat, at } of rows) botSince.set(seat, at.getTime());
  let state = game.initialState({ options: record.options, seats: record.seatCount });
  // A game still running (past --game-limit) has waited since its last event until now.
  const last = record.status === 'finished' ? events.length - 1 : events.length;
  for (let i = 0; i < last; i++) {
    state = game.evolve(state, events[i]!.event);
    const at = events[i]!.at.getTime();
    const next = events[i + 1]?.at.getTime() ?? Date.now();
    if (next === at) continue;
    const pending = game.pending(state);
    const owed: { since: number; why: string }[] = [];
    for (const seat of pending.seats) {
      const since = botSince.get(seat);
      if (since !== undefined) owed.push({ since: Math.max(at, since), why: `bot at seat ${seat}` });
    }
    if (pending.deadline !== undefined) owed.push({ since: pending.deadline, why: 'deadline' });
    if (owed.length === 0) continue;
    const first = owed.reduce((a, b) => (b.since < a.since ? b : a));
    const waited = next - first.since;
    stats.waits.measured++;
    if (waited > STALL_LIMIT_MS) stats.waits.overLimit++;
    if (waited > stats.waits.maxMs) {
      stats.waits.maxMs = waited;
      stats.waits.max = { gameId, gameType: record.type, version: events[i]!.seq, why: first.why };
    }
  }
}

// ——— plain games ———
async function plainGame(n: number): Promise<void> {
  const type = types[Math.floor(n / 2) % types.length]!;
  const rng = seededRng(`${args.seed}:game:${n}`);
  // Half the tables are bots only; at the others seat 0 plays to the end, resigns
  // mid-game, or (under a turn clock) goes silent mid-game.
  const withPerson = n % 2 === 1;
  const mode = !withPerson ? 'bots' : (['plays', 'resigns', 'silent'] as const)[Math.floor(n / 8) % (turnClock.has(type) ? 3 : 2)]!;
  const seats = Array.from({ length: seatsOf[type] }, (_, i) => (withPerson && i === 0 ? { name: `Person ${n}` } : { bot: i % 2 === 0 ? 'greedy' : 'random' }));
  const options = { ...fastOptions[type], ...(turnClock.has(type) && withPerson ? { turnSeconds: 2 } : {}) };
  const created = await call('POST', '/games', undefined, { type, seats, options, seed: `${args.seed}:${n}`, botThinkMs: 0 });
  if (created.status !== 201) return error(`creating a ${type} game: ${created.status} ${created.body.code}`);
  stats.games.started++;
  stats.games[withPerson ? 'withPerson' : 'allBots']++;
  const id: string = created.body.game.id;
  const done = finished(id, 'game');
  if (withPerson) {
    const token: string = created.body.seats[0].token;
    const stopAfter = mode === 'plays' ? Infinity : 1 + rng.below(8);
    const outcome = await playSeat(id, token, rng, stopAfter);
    if (outcome === 'stopped' && mode === 'resigns') {
      const resigned = await call('POST', `/games/${id}/commands`, token, { command: { type: 'resign' } });
      if (resigned.status === 200) stats.games.resigned++;
    } else if (outcome === 'stopped') stats.games.silent++;
  }
  if (await done) stats.games.finished++;
  await measure(id);
}

// ——— tournaments ———
let organizerKey = '';
async function tournament(n: number): Promise<void> {
  const type = types[n % types.length]!;
  const rng = seededRng(`${args.seed}:tournament:${n}`);
  const size = tableOf[type];
  const players = [{ name: `No-show ${n}` }, { name: `Withdrawn ${n}` }, ...Array.from({ length: size.max * 2 - 2 }, (_, i) => ({ name: `Bot ${i + 1}`, bot: i % 2 === 0 ? 'greedy' : 'random' }))];
  const created = await call('POST', '/tournaments', organizerKey, {
    name: `Liveness ${n}`,
    gameType: type,
    format: { kind: 'swiss', rounds: 2, tableSize: size, byes: true },
    settings: { options: fastOptions[type], advance: 'auto', noShow: { afterSeconds: 2, action: 'forfeit' } },
    players,
  });
  if (created.status !== 201) return error(`creating a ${type} tournament: ${created.status} ${created.body.code} ${created.body.detail ?? ''}`);
  stats.tournaments.started++;
  const id: string = created.body.tournament.id;
  const withdrawnToken: string = created.body.players[1].token;
  const done = finished(id, 'tournament');
  const paired = await call('POST', `/tournaments/${id}/rounds`, organizerKey, {});
  if (paired.status !== 200 && paired.status !== 201) return error(`pairing round 1: ${paired.status} ${paired.body.code}`);
  // The second person plays a few moves of round 1, then is withdrawn mid-game.
  const me = await call('GET', '/tournaments/me', withdrawnToken);
  const gameId: string | undefined = me.body.table?.gameId;
  if (gameId !== undefined) await playSeat(gameId, withdrawnToken, rng, 1 + rng.below(4));
  const withdrawn = await call('POST', `/tournaments/${id}/players/p2/withdraw`, organizerKey, {});
  if (withdrawn.status === 200) stats.tournaments.withdrawals++;
  else error(`withdrawing: ${withdrawn.status} ${withdrawn.body.code}`);
  if (await done) stats.tournaments.finished++;
  const summary = await call('GET', `/tournaments/${id}`);
  const tables: string[] = summary.body.rounds.flatMap((r: { tables: { gameId: string }[] }) => r.tables.map((t) => t.gameId));
  stats.tournaments.tables += tables.length;
  const { rows } = await clientsOf[0]!.pool.query<{ reason: string; count: number }>(
    `SELECT data->>'reason' AS reason, count(*)::int AS count FROM tournament_event WHERE tournament_id = $1::uuid AND type = 'SeatTakenOver' GROUP BY 1`,
    [id],
  );
  for (const { reason, count } of rows) stats.tournaments[reason === 'no-show' ? 'noShowTakeovers' : 'withdrawTakeovers'] += count;
  for (const table of tables) await measure(table);
}

/** Runs `job(0..count-1)`, `parallel` at a time. */
async function pool(count: number, parallel: number, job: (n: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, count) }, async () => {
      while (next < count) {
        const n = next++;
        await job(n).catch((e: unknown) => error(e instanceof Error ? e.message : String(e)));
      }
    }),
  );
}

const started = performance.now();
const organizer = await call('POST', '/organizers', adminKey, { name: 'Liveness', key: { name: 'soak', scopes: ['games:create', 'tournaments:run', 'results:read'] } });
organizerKey = organizer.body.key;
const progress = setInterval(() => process.stderr.write(`games ${stats.games.finished}/${args.games}, tournaments ${stats.tournaments.finished}/${args.tournaments}, longest wait ${stats.waits.maxMs} ms\n`), 10_000);
await Promise.all([pool(args.games, args.parallel, plainGame), pool(args.tournaments, Math.max(1, Math.ceil(args.parallel / 6)), tournament)]);
clearInterval(progress);
const elapsedS = (performance.now() - started) / 1000;

/** spielwerk_stalled_games_total of both instances, by reason. */
const interventions: Record<string, number> = {};
for (const app of apps) {
  for (const { labels, value } of (await app.services.metrics.registry.getSingleMetric('spielwerk_stalled_games_total')!.get()).values) {
    const reason = String(labels.reason);
    interventions[reason] = (interventions[reason] ?? 0) + value;
  }
}
watching = false;
await watcher;
await Promise.all(apps.map((app) => app.close()));
await Promise.all(clientsOf.map((c) => c.close()));
await withAdmin(server.adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(database)} WITH (FORCE)`));
await server.stop();

const report = {
  benchmark: 'soak:liveness',
  instances: apps.length,
  stallMs,
  elapsedS: Math.round(elapsedS),
  games: stats.games,
  tournaments: stats.tournaments,
  botGames: stats.games.finished + stats.tournaments.tables,
  droppedWakeups: stats.droppedWakeups,
  commands: stats.commands,
  waitsOnServer: stats.waits.measured,
  stallsOver5s: stats.waits.overLimit,
  maxWaitMs: stats.waits.maxMs,
  maxWait: stats.waits.max,
  sweeperInterventions: interventions,
  errors: stats.errorCount,
  firstErrors: stats.errors,
};
console.log(JSON.stringify(report));
const ok = report.stallsOver5s === 0 && report.errors === 0 && stats.games.finished === args.games && stats.tournaments.finished === args.tournaments;
process.exit(ok ? 0 : 1);
