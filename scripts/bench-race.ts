// `npm run bench:race -- [--url http://127.0.0.1:3000] [--tables 50] [--players 8] [--actions 20]`
// Porca Miseria races over WebSockets against a running server (it starts nothing):
// `--tables` games at once, every player on its own socket (`/games/:id/live?token=`),
// playing the greedy bot of src/bots as soon as an update makes it pending: reveal,
// grab, slap, pass, all sent over the socket. Each game ends by itself after
// `--actions` revealed cards (the game's `maxActions`). Prints one JSON line: commands
// and accepted commands per second, the ack latency of every command, and two
// latencies of every accepted grab and slap until every player of that table has the
// update containing it: `raceLatencyMs` from its arrival at the server (the receivedAt
// the event records, whole milliseconds, so up to 1 ms too long) and `sentToAllMs`
// from the moment this process sent it. Server and bench share the machine's clock.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { botsFor, seededRng, type AnyBot, type Rng } from '../src/bots/index.ts';
import type { Command } from '../src/domain/contract.ts';
import { fetchJson, liveUrl, opened, parseOptions, roundedPercentiles } from './lib.ts';

const values = parseOptions(import.meta.url, {
  url: { type: 'string', default: 'http://127.0.0.1:3000' },
  tables: { type: 'string', default: '50' },
  players: { type: 'string', default: '8' },
  actions: { type: 'string', default: '20' },
  timeout: { type: 'string', default: '300', description: 'give up after this many seconds' },
});
const base = new URL(values.url);
const tables = Number(values.tables);
const players = Number(values.players);
const actions = Number(values.actions);
const bot: AnyBot = botsFor('porca-miseria')!.greedy!;

interface Update {
  readonly type: 'update';
  readonly version: number;
  readonly status: string;
  readonly view: unknown;
  readonly legalCommands: readonly Command[];
}
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
  readonly socket: WebSocket;
  readonly rng: Rng;
  /** [version, arrival] of every update, in arrival (= version) order. */
  readonly arrivals: [number, number][];
  latest: Update | null;
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
  const command = bot.choose({ view: update.view, seat: player.seat, legal: update.legalCommands }, player.rng);
  const id = `${player.seat}:${table.sent.size}`;
  player.actedOn = update.version;
  player.inFlight = true;
  table.sent.set(id, { type: command.type, at: performance.now() });
  player.socket.send(JSON.stringify({ type: 'command', id, command }));
}

function receive(table: Table, player: Player, raw: WebSocket.RawData): void {
  const now = performance.now();
  const message = JSON.parse(raw.toString());
  if (message.type === 'update') {
    player.arrivals.push([message.version, now]);
    for (const { seq, event } of message.events) {
      if (event.type === 'TargetGrabbed' || event.type === 'HandSlapped') table.raced.set(seq, event.receivedAt);
    }
    player.latest = message;
    if (message.status === 'finished' && !table.finished) {
      table.finished = true;
      onFinished();
    }
  } else {
    const sent = table.sent.get(message.id);
    if (sent !== undefined) {
      sent.ackAt = now;
      if (message.type === 'ack') sent.version = message.version;
      else sent.refusal = message.problem?.code;
    }
    player.inFlight = false;
  }
  act(table, player);
}

async function connect(table: Table, seat: number, token: string): Promise<Player> {
  const socket = new WebSocket(liveUrl(base, table.id, token), { perMessageDeflate: false });
  const player: Player = { seat, socket, rng: seededRng(`${table.id}:${seat}`), arrivals: [], latest: null, actedOn: -1, inFlight: false };
  socket.on('message', (raw) => receive(table, player, raw));
  await opened(socket);
  return player;
}

async function openTable(n: number): Promise<Table> {
  const created = await fetchJson(base, 'POST', '/games', {
    type: 'porca-miseria',
    seats: Array.from({ length: players }, () => ({})),
    seed: `bench-race-${n}`,
    options: { maxActions: actions },
  });
  if (created.status !== 201) throw new Error(`/games: ${created.status} ${JSON.stringify(created.json)}`);
  const table: Table = { id: created.json.game.id, players: [], sent: new Map(), raced: new Map(), finished: false };
  for (const { seat, token } of created.json.seats as { seat: number; token: string }[]) table.players.push(await connect(table, seat, token));
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

const all = await Promise.all(Array.from({ length: tables }, (_, n) => openTable(n)));
racing = true;
const started = performance.now();
const done = new Promise<void>((resolve, reject) => {
  let finished = all.filter((table) => table.finished).length;
  onFinished = () => {
    if (++finished === tables) resolve();
  };
  if (finished === tables) resolve();
  setTimeout(() => reject(new Error(`${tables - finished} tables still running after ${values.timeout} s`)), Number(values.timeout) * 1000).unref();
});
// Every socket already holds its first update; the starting players begin.
for (const table of all) for (const player of table.players) act(table, player);
let unfinished: string | null = null;
await done.catch((error: Error) => (unfinished = error.message));
const elapsed = (performance.now() - started) / 1000;
for (const table of all) for (const player of table.players) player.socket.close();

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
