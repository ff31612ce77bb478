// `npm run bench:cold -- [--games 20] [--events 10000] [--database-url postgresql://…] [--timeout 600]`
// Long games loaded cold: how long the first read and the first command of a game of
// about 10,000 events take right after a server restart, with the state snapshots the
// server keeps (state/state-snapshots.ts) and without them (the whole log folded).
// Prints one JSON line.
//
// It builds the games itself, in-process: Porca Miseria at 3 seats with maxActions
// 10,000 (its longest games), random legal commands drawn with the server's own chance, until
// each game has at least --events events and is still running; game i stops a few
// events further than the previous one, so the events after the last snapshot vary
// from 0 to a snapshot's worth, as in a server that saved them every 200 events. The
// game's clock starts an hour ahead, so no deadline passes while it is measured (the
// server would fire it). The logs are written with the store's own append; the
// snapshot each game would have is saved as the server saves one.
// Then, for each mode (with snapshots, without), the script restarts the server
// (`node dist/server.js`, built first as `npm start` builds it) and, game after game,
// times GET /games/{id} as seat 0, the GET again as the seat it names pending, and
// that seat's first legal command; restarts again and times a command as the first thing the game
// gets. Each time is one request on a keep-alive connection opened beforehand.
// Without --database-url it runs on an embedded Postgres of its own; with it, in a
// scratch database it creates on that server and drops at the end. Bounded: it gives
// up after --timeout seconds (default 600) with exit code 124.
import { randomUUID } from 'node:crypto';
import { Pool } from 'undici';
import { hashToken, newToken, sha256 } from '../src/access/tokens.ts';
import { pick, seededRng } from '../src/bots/rng.ts';
import { serverChance } from '../src/domain/chance.ts';
import { isViolation, type Actor, type Command, type GameEvent } from '../src/domain/contract.ts';
import { findGame, type AnyGame } from '../src/domain/games.ts';
import { createClients } from '../src/db/client.ts';
import { EventStore } from '../src/events/store.ts';
import { foldOn } from '../src/state/latest-states.ts';
import { SNAPSHOT_EVERY } from '../src/state/state-snapshots.ts';
import { giveUpAfter, jsonRequest, parseOptions, roundedPercentiles } from './lib.ts';
import { build, scratchDatabase, startServer, type RunningServer } from './server-process.ts';

const values = parseOptions(
  import.meta.url,
  {
    games: { type: 'string', default: '20' },
    events: { type: 'string', default: '10000' },
    'database-url': { type: 'string' },
    timeout: { type: 'string', default: '600' },
  },
  ['games', 'events', 'timeout'],
);
const gameCount = values.games;
const targetEvents = values.events;
const watchdog = giveUpAfter(values.timeout);

// ---- the games ---------------------------------------------------------------------

// The module the server plays (with its lifecycle wrapper), so the states and
// snapshots stored here are the ones it would store.
const game: AnyGame = findGame('porca-miseria')!;
// At 3 seats random play runs 14,000 to 67,000 events before the stack runs out; at 8,
// a few hundred.
const seats = 3;
const options = game.optionsSchema.parse({ maxActions: 10_000, revealMs: 120_000, windowMs: 120_000 });

interface LongGame {
  readonly seed: string;
  readonly events: GameEvent[];
  readonly deadline: number | undefined;
}

/** Plays random legal commands until the game has `target` events and someone may act. */
function longGame(seed: string, target: number, startAt: number): LongGame | null {
  const setup = { options, seats };
  const rng = seededRng(`${seed}:bench-cold`);
  let now = startAt;
  let state = game.initialState(setup);
  const events: GameEvent[] = game.setup(state, { now, chance: serverChance(seed, 0) });
  state = foldOn(game, state, events.map((event) => ({ event })));
  const apply = (actor: Actor, command: Command) => {
    const decided = game.decide(state, command, { actor, now, chance: serverChance(seed, events.length) });
    if (isViolation(decided)) throw new Error(`${seed}: ${JSON.stringify(command)}: ${decided.code}`);
    events.push(...decided);
    state = foldOn(game, state, decided.map((event) => ({ event })));
  };
  for (;;) {
    if (game.result(state) !== null) return null;
    const { seats: pending, deadline } = game.pending(state);
    if (events.length >= target && pending.length > 0) return { seed, events, deadline };
    if (deadline !== undefined && (pending.length === 0 || now >= deadline)) {
      now = Math.max(now, deadline);
      apply({ kind: 'system' }, { type: 'timeout' });
      continue;
    }
    const seat = pick(rng, pending);
    apply({ kind: 'seat', seat }, pick(rng, game.legalCommands(state, seat)));
    now += 10;
  }
}

/** Stores the game as the service would have: its record, its log, its snapshot. */
async function store(events: EventStore, played: LongGame): Promise<{ id: string; tokens: string[] }> {
  const id = randomUUID();
  const now = new Date();
  const tokens = Array.from({ length: seats }, () => newToken());
  const opening = played.events.slice(0, 1);
  await events.createGame(
    {
      id, type: game.type, rulesVersion: game.rulesVersion, options, seatCount: seats, chanceMode: 'server', seed: played.seed,
      seedHash: sha256(played.seed), seedNonce: null, seedChosenBy: 'creator', botThinkMs: 0, refereeTokenHash: hashToken(newToken()), createdAt: now, organizerId: null, tournament: null,
      seats: tokens.map((token, seat) => ({ seat, name: `p${seat}`, tokenHash: hashToken(token), joinedAt: now, bot: null })),
    },
    { events: opening, status: 'running', deadline: null },
  );
  const deadline = played.deadline === undefined ? null : new Date(played.deadline);
  for (let from = opening.length; from < played.events.length; from += 1000) {
    const chunk = played.events.slice(from, from + 1000);
    const outcome = await events.append({
      gameId: id, expectedVersion: from, events: chunk, actor: 'bench', at: now, commandId: null,
      status: 'running', deadline, idempotency: null,
    });
    if (outcome !== 'appended') throw new Error(`storing ${id}: ${outcome}`);
  }
  return { id, tokens };
}

/** Saves, for each game, the snapshot a server saving one every SNAPSHOT_EVERY events
 * would hold: at the last multiple at or below the generated log's length. */
async function saveSnapshots(events: EventStore, stored: readonly { id: string; played: LongGame }[]): Promise<void> {
  for (const { id, played } of stored) {
    const at = Math.floor(played.events.length / SNAPSHOT_EVERY) * SNAPSHOT_EVERY;
    const state = foldOn(game, game.initialState({ options, seats }), played.events.slice(0, at).map((event) => ({ event })));
    await events.saveSnapshot(id, { version: at, rulesVersion: game.rulesVersion, state });
  }
}

// ---- the server ----------------------------------------------------------------------

async function timed(http: Pool, method: 'GET' | 'POST', url: string, body: unknown, token: string) {
  const started = performance.now();
  const response = await http.request({ path: url, ...jsonRequest(method, body, token) });
  const json = (await response.body.json()) as { version: number; pending: { seats: number[] }; legalCommands: Command[] };
  const ms = performance.now() - started;
  if (response.statusCode !== 200) throw new Error(`${method} ${url}: ${response.statusCode} ${JSON.stringify(json)}`);
  return { ms, json };
}

// ---- the run --------------------------------------------------------------------------

const database = await scratchDatabase(values['database-url']);
const clients = createClients(database.url, { poolSize: 2 });
try {
  const eventStore = new EventStore(clients.prisma, clients.pool);
  const buildStarted = performance.now();
  const stored: { id: string; tokens: string[]; played: LongGame }[] = [];
  const startAt = Date.now() + 3_600_000;
  for (let i = 0, seed = 0; stored.length < gameCount; seed++) {
    // Game i goes a little further each time, so that its last snapshot lags by 0 to
    // SNAPSHOT_EVERY - 1 events.
    const played = longGame(`bench-cold-${seed}`, targetEvents + ((i * 37) % SNAPSHOT_EVERY), startAt);
    if (played === null) {
      if (seed > 10 * gameCount) throw new Error(`no game of ${targetEvents} events in ${seed} tries`);
      continue;
    }
    stored.push({ ...(await store(eventStore, played)), played });
    i++;
  }
  const buildSeconds = Math.round((performance.now() - buildStarted) / 100) / 10;
  build();
  const restarts: number[] = [];

  const started = async () => {
    const server = await startServer(database.url);
    restarts.push(server.startMs);
    const http = new Pool(server.base, { connections: 1 });
    // The keep-alive connection every timed request then uses.
    await (await http.request({ path: '/health', method: 'GET' })).body.text();
    return { server, http };
  };
  const stopped = async ({ server, http }: { server: RunningServer; http: Pool }) => {
    await http.close();
    await server.stop();
  };
  const measure = async (withSnapshots: boolean) => {
    const reset = async () => {
      await clients.pool.query('DELETE FROM state_snapshot');
      if (withSnapshots) await saveSnapshots(eventStore, stored);
    };
    const folded = async () => {
      const { rows } = await clients.pool.query<{ folded: number }>('SELECT g.version - coalesce(s.version, 0) AS folded FROM game g LEFT JOIN state_snapshot s ON s.game_id = g.id');
      return rows.map((r) => r.folded);
    };
    await reset();
    const eventsFolded = await folded();
    let up = await started();
    const firstGet: number[] = [];
    const secondGet: number[] = [];
    const commandAfterGet: number[] = [];
    for (const { id, tokens } of stored) {
      // The first read as seat 0; the second as the seat it says is pending.
      const first = await timed(up.http, 'GET', `/games/${id}`, undefined, tokens[0]!);
      firstGet.push(first.ms);
      const seat = first.json.pending.seats[0]!;
      const second = await timed(up.http, 'GET', `/games/${id}`, undefined, tokens[seat]!);
      secondGet.push(second.ms);
      const command = { command: second.json.legalCommands[0], expectedVersion: second.json.version };
      commandAfterGet.push((await timed(up.http, 'POST', `/games/${id}/commands`, command, tokens[seat]!)).ms);
    }
    // What each game's next command is, read before the restart that makes it cold.
    const next: { id: string; token: string; body: unknown }[] = [];
    for (const { id, tokens } of stored) {
      const spectator = await up.http.request({ path: `/games/${id}`, method: 'GET' });
      const seat = ((await spectator.body.json()) as { pending: { seats: number[] } }).pending.seats[0]!;
      const view = await timed(up.http, 'GET', `/games/${id}`, undefined, tokens[seat]!);
      next.push({ id, token: tokens[seat]!, body: { command: view.json.legalCommands[0], expectedVersion: view.json.version } });
    }
    await stopped(up);
    await reset();
    up = await started();
    const coldCommand: number[] = [];
    for (const { id, token, body } of next) coldCommand.push((await timed(up.http, 'POST', `/games/${id}/commands`, body, token)).ms);
    await stopped(up);
    const ms = (samples: number[]) => {
      const { n: _n, p99: _p99, ...rest } = roundedPercentiles(samples, 2);
      return rest;
    };
    const { n: _n, p99: _p99, ...foldedEvents } = roundedPercentiles(eventsFolded, 0);
    return { events_folded: foldedEvents, first_get_ms: ms(firstGet), second_get_ms: ms(secondGet), command_after_get_ms: ms(commandAfterGet), cold_command_ms: ms(coldCommand) };
  };

  const withSnapshots = await measure(true);
  const withoutSnapshots = await measure(false);
  const lengths = stored.map((s) => s.played.events.length);
  const { n: _n, p99: _p99, ...eventsPerGame } = roundedPercentiles(lengths, 0);
  console.log(JSON.stringify({
    ok: true, game: `${game.type}, ${seats} seats`, games: stored.length, events_per_game: { min: Math.min(...lengths), ...eventsPerGame },
    snapshot_every: SNAPSHOT_EVERY, build_s: buildSeconds, server_start_ms: roundedPercentiles(restarts, 0),
    with_snapshots: withSnapshots, without_snapshots: withoutSnapshots,
  }));
} finally {
  await clients.close();
  await database.drop();
  clearTimeout(watchdog);
}
