// `npm run bench -- [--url http://127.0.0.1:3000] [--games 50] [--seconds 20] [--warmup 3]`
// Drives a running server with many Pechvogel games at once over HTTP, each watched
// by a WebSocket spectator, and prints one JSON line: commands per second, command
// latency and push latency (command sent → watcher has that version) percentiles.
// It starts nothing itself. It speaks through the TypeScript client (clients/typescript):
// REST over its undici pool transport, the spectator as a LiveGame. Clients fold the
// public events they are sent to know every seat's legal commands without extra reads
// (Pechvogel hides nothing).
import WebSocket from 'ws';
import { bearer, createRestClient, LiveGame } from '@spielwerk/client';
import { poolTransport } from '@spielwerk/client/node';
import { pechvogel } from '../src/domain/pechvogel/index.ts';
import { parseOptions, roundedPercentiles } from './lib.ts';

/** The API's events of a Pechvogel game include the chance party's (a supplied game's);
 * a game with server chance, as here, has only Pechvogel's own. */
type PechvogelEvent = Parameters<typeof pechvogel.evolve>[1];

const values = parseOptions(
  import.meta.url,
  {
    url: { type: 'string', default: process.env.SPIELWERK_URL ?? 'http://127.0.0.1:3000' },
    games: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '3' },
  },
  ['games', 'seconds', 'warmup'],
);
const baseUrl = new URL(values.url).origin;
const concurrentGames = values.games;
// The pool transport rather than the global fetch: the load generator shares the two
// cores with the server and Postgres, and fetch's Request and Response objects cost
// about as much per request as the server's whole handling of a command.
const transport = poolTransport(baseUrl, { connections: concurrentGames });
const rest = createRestClient({ baseUrl, transport });

const commandLatencies: number[] = [];
const pushLatencies: number[] = [];
let errors = 0;
let measuring = false;
let running = true;

/** One game from creation to the end, then the next, until time is up. */
async function playGames(worker: number): Promise<void> {
  for (let round = 0; running; round++) {
    const created = await rest.POST('/games', { body: { type: 'pechvogel', seats: [{}, {}, {}], seed: `bench-${worker}-${round}` } });
    if (created.data === undefined) throw new Error(`create: ${created.response.status} ${JSON.stringify(created.error)}`);
    const id = created.data.game.id;
    const tokens = created.data.seats.map((s) => s.token ?? '');
    const sentAt = new Map<number, number>();
    // Unchecked: the client's schema check would take CPU from the server it shares the machine with.
    const watcher = new LiveGame({ baseUrl, gameId: id, gameType: 'pechvogel', connect: (url) => new WebSocket(url), validate: false });
    const watching = (async () => {
      for await (const update of watcher) {
        const at = performance.now();
        for (const { seq } of update.events) {
          const sent = sentAt.get(seq);
          if (sent !== undefined && measuring) pushLatencies.push(at - sent);
          sentAt.delete(seq);
        }
      }
    })();

    const log = await rest.GET('/games/{id}/events', { params: { path: { id }, query: { limit: 1000 } } });
    if (log.data === undefined) throw new Error(`events: ${log.response.status} ${JSON.stringify(log.error)}`);
    let version = log.data.version;
    const setup = { options: pechvogel.optionsSchema.parse({}), seats: 3 };
    let state = pechvogel.initialState(setup);
    for (const { event } of log.data.events) state = pechvogel.evolve(state, event as PechvogelEvent);
    while (running && pechvogel.result(state) === null) {
      const seat = pechvogel.pending(state).seats[0];
      if (seat === undefined) throw new Error('nobody pending in a Pechvogel game without deadlines passing');
      const legal = pechvogel.legalCommands(state, seat);
      // Opponents let throws stand; the player takes the first option: games stay short and varied.
      const choice = legal.find((c) => c.type === 'pass') ?? legal[0]!;
      if (choice.type === 'timeout') throw new Error("a seat is never offered the server's timeout");
      const started = performance.now();
      for (let seq = version + 1; seq <= version + 8; seq++) sentAt.set(seq, started);
      const answer = await rest.POST('/games/{id}/commands/pechvogel', {
        params: { path: { id } },
        headers: bearer(tokens[seat]!),
        body: { command: choice, expectedVersion: version },
      });
      const took = performance.now() - started;
      if (answer.data === undefined || answer.data.gameType !== 'pechvogel') {
        errors++;
        break;
      }
      if (measuring) commandLatencies.push(took);
      for (const { event } of answer.data.events) state = pechvogel.evolve(state, event as PechvogelEvent);
      version = answer.data.version;
    }
    watcher.close();
    await watching;
  }
}

const workers = Array.from({ length: concurrentGames }, (_, i) => playGames(i).catch((error) => { errors++; console.error(error); }));
await new Promise((r) => setTimeout(r, values.warmup * 1000));
measuring = true;
const start = performance.now();
const cpuAtStart = process.cpuUsage();
await new Promise((r) => setTimeout(r, values.seconds * 1000));
measuring = false;
const elapsed = (performance.now() - start) / 1000;
const cpu = process.cpuUsage(cpuAtStart);
running = false;
await Promise.all(workers);
await transport.close();

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
    // This process's own CPU per command in the window (user + system, µs): what the
    // load generator takes from the cores it shares with the server.
    loadgenCpuUsPerCommand: Math.round((cpu.user + cpu.system) / Math.max(1, commandCount)),
    errors,
  }),
);
