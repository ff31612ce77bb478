// `npm run bench -- [--url http://127.0.0.1:3000] [--games 50] [--seconds 20]`
// Drives a running server with many Pechvogel games at once over HTTP, each watched
// by a WebSocket spectator, and prints one JSON line: commands per second, command
// latency and push latency (command sent → watcher has that version) percentiles.
// It starts nothing itself. Clients fold the public events they are sent to know
// every seat's legal commands without extra reads (Pechvogel hides nothing).
import { Pool } from 'undici';
import WebSocket from 'ws';
import type { Command, GameEvent } from '../src/domain/contract.ts';
import { pechvogel } from '../src/domain/pechvogel/index.ts';
import { jsonRequest, liveUrl, opened, parseOptions, type Reply, roundedPercentiles } from './lib.ts';

const values = parseOptions(import.meta.url, {
  url: { type: 'string', default: process.env.SPIELWERK_URL ?? 'http://127.0.0.1:3000' },
  games: { type: 'string', default: '50' },
  seconds: { type: 'string', default: '20' },
  warmup: { type: 'string', default: '3' },
});
const base = new URL(values.url);
const concurrentGames = Number(values.games);
// undici rather than node:http: the load generator shares the two cores with the
// server and Postgres, and node:http's client cost about as much per request as the
// server's whole handling of a command.
const pool = new Pool(base.origin, { connections: concurrentGames });

async function request(method: 'GET' | 'POST', path: string, body?: unknown, token?: string): Promise<Reply> {
  const response = await pool.request({ path, ...jsonRequest(method, body, token) });
  return { status: response.statusCode, json: await response.body.json() };
}

const commandLatencies: number[] = [];
const pushLatencies: number[] = [];
let errors = 0;
let measuring = false;
let running = true;

/** One game from creation to the end, then the next, until time is up. */
async function playGames(worker: number): Promise<void> {
  for (let round = 0; running; round++) {
    const created = await request('POST', '/games', { type: 'pechvogel', seats: [{}, {}, {}], seed: `bench-${worker}-${round}` });
    if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.json)}`);
    const id: string = created.json.game.id;
    const tokens: string[] = created.json.seats.map((s: { token: string }) => s.token);
    const sentAt = new Map<number, number>();
    const watcher = new WebSocket(liveUrl(base, id));
    watcher.on('message', (raw) => {
      const update = JSON.parse(raw.toString());
      const at = performance.now();
      for (const { seq } of update.events ?? []) {
        const sent = sentAt.get(seq);
        if (sent !== undefined && measuring) pushLatencies.push(at - sent);
        sentAt.delete(seq);
      }
    });
    await opened(watcher);

    const log = await request('GET', `/games/${id}/events?limit=1000`);
    let version: number = log.json.version;
    const setup = { options: pechvogel.optionsSchema.parse({}), seats: 3 };
    let state = log.json.events.reduce((s: unknown, e: { event: GameEvent }) => pechvogel.evolve(s as never, e.event as never), pechvogel.initialState(setup));
    while (running && pechvogel.result(state) === null) {
      const seat = pechvogel.pending(state).seats[0];
      if (seat === undefined) throw new Error('nobody pending in a Pechvogel game without deadlines passing');
      const legal = pechvogel.legalCommands(state, seat) as Command[];
      // Opponents let throws stand; the player takes the first option: games stay short and varied.
      const choice = legal.find((c) => c.type === 'pass') ?? legal[0]!;
      const started = performance.now();
      for (let seq = version + 1; seq <= version + 8; seq++) sentAt.set(seq, started);
      const answer = await request('POST', `/games/${id}/commands`, { command: choice, expectedVersion: version }, tokens[seat]);
      const took = performance.now() - started;
      if (answer.status !== 200) {
        errors++;
        break;
      }
      if (measuring) commandLatencies.push(took);
      for (const { event } of answer.json.events) state = pechvogel.evolve(state, event);
      version = answer.json.version;
    }
    watcher.close();
  }
}

const workers = Array.from({ length: concurrentGames }, (_, i) => playGames(i).catch((error) => { errors++; console.error(error); }));
await new Promise((r) => setTimeout(r, Number(values.warmup) * 1000));
measuring = true;
const start = performance.now();
await new Promise((r) => setTimeout(r, Number(values.seconds) * 1000));
measuring = false;
const elapsed = (performance.now() - start) / 1000;
running = false;
await Promise.all(workers);
await pool.close();

const { n: commandCount, ...commandMs } = roundedPercentiles(commandLatencies, 2);
const { n: pushCount, ...pushMs } = roundedPercentiles(pushLatencies, 2);
console.log(
  JSON.stringify({
    games: concurrentGames,
    seconds: Number(elapsed.toFixed(1)),
    commands: commandCount,
    commandsPerSecond: Math.round(commandCount / elapsed),
    commandMs,
    pushes: pushCount,
    pushMs,
    errors,
  }),
);
