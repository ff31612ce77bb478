// `npm run bench:race -- [--url http://127.0.0.1:3000] [--tables 50] [--players 8] [--actions 20] [--games 1] [--warmup 0] [--timeout 300]`
// Porca Miseria races over WebSockets against a running server (it starts nothing):
// `--tables` games at once, every player on its own socket (`/games/:id/live?token=`,
// a LiveGame of the TypeScript client in clients/typescript),
// playing the greedy bot of src/bots as soon as an update makes it pending: reveal,
// grab, slap, pass, all sent over the socket. Each game ends by itself after
// `--actions` revealed cards (the game's `maxActions`), or sooner when its cards run
// out (about 60 grabs). `--games` rounds are played one after another, each on new
// tables, and the first `--warmup` of them are not counted: one game at one table is
// too few grabs for a p99, and over in a fifth of a second while this process is still
// compiling its own code. Prints one JSON line: commands
// and accepted commands per second, the ack latency of every command, and two
// latencies of every accepted grab and slap until every player of that table has the
// update containing it: `raceLatencyMs` from its arrival at the server (the receivedAt
// the event records, whole milliseconds, so up to 1 ms too long) and `sentToAllMs`
// from the moment this process sent it. Server and bench share the machine's clock.
// It gives up after --timeout seconds (exit code 1, `unfinished` says how many tables).
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { createRestClient, LiveError, LiveGame, type Update } from '@spielwerk/client';
import { botsFor, seededRng, type AnyBot, type Rng } from '../src/bots/index.ts';
import { parseOptions, roundedPercentiles } from './lib.ts';

const values = parseOptions(
  import.meta.url,
  {
    url: { type: 'string', default: 'http://127.0.0.1:3000' },
    tables: { type: 'string', default: '50' },
    players: { type: 'string', default: '8' },
    actions: { type: 'string', default: '20' },
    games: { type: 'string', default: '1' },
    warmup: { type: 'string', default: '0' },
    timeout: { type: 'string', default: '300' },
  },
  ['tables', 'players', 'actions', 'games', 'warmup', 'timeout'],
);
const baseUrl = new URL(values.url).origin;
const { tables, players, actions, games, warmup } = values;
if (!Number.isInteger(games) || games < 1 || warmup >= games) {
  console.error(`--games takes a whole number ≥ 1 and --warmup fewer than that, not ${games} and ${warmup}`);
  process.exit(2);
}
const bot: AnyBot = botsFor('porca-miseria')!.greedy!;
// One request per table, before the race: the platform's fetch is fast enough.
const rest = createRestClient({ baseUrl });

interface Sent {
  readonly type: string;
  readonly at: number;
  ackAt?: number;
  /** The version the accepted command produced; absent when it was refused. */
  version?: number;
  refusal?: string;
}
interface Player {
  readonly seat: number;
  readonly live: LiveGame<'porca-miseria'>;
  readonly rng: Rng;
  /** [version, arrival] of every update, in arrival (= version) order. */
  readonly arrivals: [number, number][];
  latest: Update<'porca-miseria'> | null;
  actedOn: number;
  inFlight: boolean;
}
interface Table {
  readonly id: string;
  readonly players: Player[];
  readonly sent: Map<string, Sent>;
  /** seq → receivedAt (epoch ms) of every grab and slap seen. */
  readonly raced: Map<number, number>;
  finished: boolean;
}

let onFinished = () => {};
/** Off while the tables are being opened, so every table starts at the same moment. */
let racing = false;

function act(table: Table, player: Player): void {
  const update = player.latest;
  if (!racing || player.inFlight || update === null || update.status !== 'running') return;
  if (update.legalCommands.length === 0 || player.actedOn === update.version) return;
  const chosen = bot.choose({ view: update.view, seat: player.seat, legal: update.legalCommands }, player.rng);
  // A bot answers with one of the commands it was offered.
  const command = update.legalCommands.find((offered) => offered === chosen);
  if (command === undefined) throw new Error(`the bot chose ${JSON.stringify(chosen)}, which it was not offered`);
  const sent: Sent = { type: command.type, at: performance.now() };
  table.sent.set(`${player.seat}:${table.sent.size}`, sent);
  player.actedOn = update.version;
  player.inFlight = true;
  player.live.send(command).then(
    (ack) => {
      sent.ackAt = performance.now();
      sent.version = ack.version;
    },
    (error: unknown) => {
      sent.ackAt = performance.now();
      sent.refusal = error instanceof LiveError ? error.problem.code : String(error);
    },
  ).finally(() => {
    player.inFlight = false;
    act(table, player);
  });
}

function receive(table: Table, player: Player, update: Update<'porca-miseria'>): void {
  player.arrivals.push([update.version, performance.now()]);
  for (const { seq, event } of update.events) {
    if (event.type === 'TargetGrabbed' || event.type === 'HandSlapped') table.raced.set(seq, event.receivedAt);
  }
  player.latest = update;
  if (update.status === 'finished' && !table.finished) {
    table.finished = true;
    onFinished();
  }
  act(table, player);
}

/** A player's socket; resolves once its first update (the game so far) has come. */
function connect(table: Table, seat: number, token: string): Promise<Player> {
  // Unchecked: the client's schema check would take CPU from the server it shares the machine with.
  const live = new LiveGame({ baseUrl, gameId: table.id, gameType: 'porca-miseria', token, connect: (url) => new WebSocket(url, { perMessageDeflate: false }), validate: false });
  const player: Player = { seat, live, rng: seededRng(`${table.id}:${seat}`), arrivals: [], latest: null, actedOn: -1, inFlight: false };
  return new Promise((resolve, reject) => {
    void (async () => {
      try {
        for await (const update of live) {
          receive(table, player, update);
          resolve(player);
        }
      } catch (error) {
        reject(error);
      }
    })();
  });
}

async function openTable(round: number, n: number): Promise<Table> {
  const created = await rest.POST('/games', {
    body: { type: 'porca-miseria', seats: Array.from({ length: players }, () => ({})), seed: `bench-race-${round}-${n}`, options: { maxActions: actions } },
  });
  if (created.data === undefined) throw new Error(`/games: ${created.response.status} ${JSON.stringify(created.error)}`);
  const table: Table = { id: created.data.game.id, players: [], sent: new Map(), raced: new Map(), finished: false };
  for (const { seat, token } of created.data.seats) table.players.push(await connect(table, seat, token ?? ''));
  return table;
}

/** When every player of the table has seen `version` (updates arrive in version order). */
function allSeen(table: Table, version: number): number | null {
  let last = 0;
  for (const player of table.players) {
    const hit = player.arrivals.find(([v]) => v >= version);
    if (hit === undefined) return null;
    last = Math.max(last, hit[1]);
  }
  return last;
}

/** One game at each table, all at once; resolves with the tables once every game has
 * ended, or with the tables and how many were unfinished when `deadline` passed. */
async function playRound(round: number, deadline: number): Promise<{ played: Table[]; seconds: number; unfinished: string | null }> {
  racing = false;
  const played = await Promise.all(Array.from({ length: tables }, (_, n) => openTable(round, n)));
  racing = true;
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const done = new Promise<void>((resolve, reject) => {
    let finished = played.filter((table) => table.finished).length;
    onFinished = () => {
      if (++finished === tables) resolve();
    };
    if (finished === tables) resolve();
    timer = setTimeout(() => reject(new Error(`${tables - finished} tables still running after ${values.timeout} s`)), Math.max(0, deadline - performance.now()));
  });
  // Every socket already holds its first update; the starting players begin.
  for (const table of played) for (const player of table.players) act(table, player);
  let unfinished: string | null = null;
  await done.catch((error: Error) => (unfinished = error.message));
  clearTimeout(timer);
  const seconds = (performance.now() - started) / 1000;
  for (const table of played) for (const player of table.players) player.live.close();
  return { played, seconds, unfinished };
}

const deadline = performance.now() + values.timeout * 1000;
const all: Table[] = [];
let elapsed = 0;
let unfinished: string | null = null;
for (let round = 0; round < games && unfinished === null; round++) {
  const result = await playRound(round, deadline);
  unfinished = result.unfinished;
  if (round < warmup) continue;
  all.push(...result.played);
  elapsed += result.seconds;
}

const sent = all.flatMap((table) => [...table.sent.values()].map((s) => ({ table, s })));
const fanOut = sent.flatMap(({ table, s }) => {
  if ((s.type !== 'grab' && s.type !== 'slap') || s.version === undefined) return [];
  const seen = allSeen(table, s.version);
  return seen === null ? [] : [seen - s.at];
});
const fromArrival = all.flatMap((table) =>
  [...table.raced].flatMap(([seq, receivedAt]) => {
    const seen = allSeen(table, seq);
    return seen === null ? [] : [performance.timeOrigin + seen - receivedAt];
  }),
);
const acked = sent.filter(({ s }) => s.ackAt !== undefined);
const accepted = acked.filter(({ s }) => s.version !== undefined).length;
console.log(
  JSON.stringify({
    tables,
    players,
    actionsPerTable: actions,
    games: all.length / tables,
    seconds: Math.round(elapsed * 100) / 100,
    commands: sent.length,
    accepted,
    refused: acked.reduce<Record<string, number>>((counts, { s }) => {
      if (s.refusal !== undefined) counts[s.refusal] = (counts[s.refusal] ?? 0) + 1;
      return counts;
    }, {}),
    commandsPerSecond: Math.round(sent.length / elapsed),
    // The fair rate between versions of the server: how many lost races the bots send
    // depends on how often updates come, the games played do not.
    acceptedPerSecond: Math.round(accepted / elapsed),
    raceLatencyMs: roundedPercentiles(fromArrival, 3),
    sentToAllMs: roundedPercentiles(fanOut, 3),
    ackLatencyMs: roundedPercentiles(acked.map(({ s }) => s.ackAt! - s.at), 3),
    unfinished,
    loadavg: os.loadavg().map((x) => Math.round(x * 100) / 100),
    cpus: os.cpus().length,
  }),
);
process.exit(unfinished === null ? 0 : 1);
