// `npm run bench:audience -- [--spectators 10000] [--commands 50] [--settle 30] [--database-url postgresql://…] [--timeout 300]`
// A big audience: one Pechvogel game watched by --spectators WebSocket spectators.
// Prints one JSON line: the server's RSS before and after the sockets open, 2 s after
// the last and again once they have been idle --settle seconds (V8 gives back the heap
// that opening them took only after a while of idleness), what one idle socket costs
// and what 100,000 would then take; then, for --commands commands sent one after another over
// HTTP by the pending seat, the time from sending each until the last spectator has
// the update of its version (p50, p90, p99, max) and the command's own answer time.
// It starts its own server (`node dist/server.js`, built first as `npm start` builds it)
// on an embedded Postgres, or in a scratch database on --database-url's server that it
// drops at the end. The spectators live in this one process, which shares the machine
// with the server: its reading of 10,000 messages per command is inside the figures.
// Each socket needs a file descriptor in both processes (check `ulimit -n`). Bounded:
// it gives up after --timeout seconds (default 300) with exit code 124.
import { Pool } from 'undici';
import WebSocket from 'ws';
import type { Command, GameEvent } from '../src/domain/contract.ts';
import { pechvogel } from '../src/domain/pechvogel/index.ts';
import { giveUpAfter, jsonRequest, liveUrl, parseOptions, roundedPercentiles } from './lib.ts';
import { build, scratchDatabase, startServer } from './server-process.ts';

const values = parseOptions(
  import.meta.url,
  {
    spectators: { type: 'string', default: '10000' },
    commands: { type: 'string', default: '50' },
    settle: { type: 'string', default: '30' },
    'database-url': { type: 'string' },
    timeout: { type: 'string', default: '300' },
  },
  ['spectators', 'commands', 'settle', 'timeout'],
);
const spectatorCount = values.spectators;
const commandCount = values.commands;
const watchdog = giveUpAfter(values.timeout);

const database = await scratchDatabase(values['database-url']);
build();
const server = await startServer(database.url);
const http = new Pool(server.base, { connections: 1 });
const sockets: WebSocket[] = [];
try {
  const request = async (method: 'GET' | 'POST', path: string, body?: unknown, token?: string) => {
    const response = await http.request({ path, ...jsonRequest(method, body, token) });
    const json = (await response.body.json()) as any;
    if (response.statusCode >= 300) throw new Error(`${method} ${path}: ${response.statusCode} ${JSON.stringify(json)}`);
    return json;
  };
  const created = await request('POST', '/games', { type: 'pechvogel', seats: [{}, {}], seed: 'bench-audience' });
  const id: string = created.game.id;
  const tokens: string[] = created.seats.map((s: { token: string }) => s.token);
  await new Promise((r) => setTimeout(r, 1000));
  const rssBefore = server.rssMib();

  // A command is one commit, so one update per spectator, beyond the version it was
  // sent at; the version is read from the update's head without parsing the rest (a
  // push is `{"type":"update","version":N,…`).
  let sentAt = Infinity;
  let missing = 0;
  let allArrived: () => void = () => {};
  const connectStarted = performance.now();
  for (let opened = 0; opened < spectatorCount; ) {
    const wave = Array.from({ length: Math.min(200, spectatorCount - opened) }, () => {
      const socket = new WebSocket(liveUrl(server.base, id));
      sockets.push(socket);
      return new Promise<void>((resolve, reject) => {
        let first = true;
        socket.on('message', (raw: Buffer) => {
          if (first) {
            first = false;
            return resolve();
          }
          const version = Number(/"version":(\d+)/.exec(raw.toString('latin1', 0, 64))?.[1]);
          if (version > sentAt && --missing === 0) allArrived();
        });
        socket.once('error', reject);
      });
    });
    await Promise.all(wave);
    opened += wave.length;
  }
  const connectSeconds = (performance.now() - connectStarted) / 1000;
  await new Promise((r) => setTimeout(r, 2000));
  const rssWith = server.rssMib();
  await new Promise((r) => setTimeout(r, values.settle * 1000));
  const rssIdle = server.rssMib();

  // The seats play Pechvogel as bench.ts plays it: the pending seat passes when it may.
  const setup = { options: pechvogel.optionsSchema.parse({}), seats: 2 };
  const log = await request('GET', `/games/${id}/events?limit=1000`);
  let state = log.events.reduce((s: unknown, e: { event: GameEvent }) => pechvogel.evolve(s as never, e.event as never), pechvogel.initialState(setup));
  let version: number = log.version;
  const toLast: number[] = [];
  const answered: number[] = [];
  for (let i = 0; i < commandCount && pechvogel.result(state) === null; i++) {
    const seat = pechvogel.pending(state).seats[0]!;
    const legal = pechvogel.legalCommands(state, seat) as Command[];
    const command = legal.find((c) => c.type === 'pass') ?? legal[0]!;
    const arrived = new Promise<void>((resolve) => (allArrived = resolve));
    missing = spectatorCount;
    sentAt = version;
    const started = performance.now();
    const answer = await request('POST', `/games/${id}/commands`, { command, expectedVersion: version }, tokens[seat]);
    answered.push(performance.now() - started);
    await arrived;
    toLast.push(performance.now() - started);
    for (const { event } of answer.events) state = pechvogel.evolve(state, event);
    version = answer.version;
  }
  const perSocketKib = (rss: number) => Math.round(((rss - rssBefore) * 1024 / spectatorCount) * 100) / 100;
  const { n: commands, ...lastSpectatorMs } = roundedPercentiles(toLast, 2);
  const { n: _n, ...answerMs } = roundedPercentiles(answered, 2);
  console.log(JSON.stringify({
    ok: true, spectators: spectatorCount, connect_s: Math.round(connectSeconds * 10) / 10,
    server_rss_mib: { before: rssBefore, with_spectators: rssWith, idle: rssIdle },
    rss_kib_per_socket: { at_2s: perSocketKib(rssWith), idle: perSocketKib(rssIdle) },
    rss_mib_for_100000_idle: Math.round(rssBefore + (perSocketKib(rssIdle) * 100_000) / 1024),
    commands, command_to_last_spectator_ms: lastSpectatorMs, command_answer_ms: answerMs,
  }));
} finally {
  for (const socket of sockets) socket.terminate();
  await http.close();
  await server.stop();
  await database.drop();
  clearTimeout(watchdog);
}
