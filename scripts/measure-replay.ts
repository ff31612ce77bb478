// `npm run measure:replay -- [--events 30000] [--max-events 45000] [--rounds 3] [--database-url postgresql://…] [--timeout 600]`
// The replay of a long finished game, in one piece (JSON) and streamed (NDJSON), plain
// and gzipped: time to the first byte, total time, bytes, the server's peak resident
// memory above what it used before, and meanwhile another client's latency (one
// GET /games/{id} after another on its own connection), against the same client with
// no replay under way. Prints one JSON line.
//
// The game is played in-process (Porca Miseria at 3 seats, random bots, maxActions
// 10,000: seeds are tried until one runs to between --events and --max-events events) and written with
// the store's own appends; the server is `node dist/server.js` (built first, as `npm
// start` builds it). One replay is read before measuring, so every round finds the
// game's latest state in memory and measures the replay itself. Without
// --database-url it runs on an embedded Postgres of its own; with it, in a scratch
// database it creates there and drops at the end. Gives up after --timeout seconds
// (exit code 124).
import { randomUUID } from 'node:crypto';
import { Pool } from 'undici';
import { hashToken, newToken, sha256 } from '../src/access/tokens.ts';
import { botsFor, play } from '../src/bots/index.ts';
import { findGame, type AnyGame } from '../src/domain/games.ts';
import { createClients } from '../src/db/client.ts';
import { EventStore } from '../src/events/store.ts';
import { giveUpAfter, parseOptions, roundedPercentiles } from './lib.ts';
import { build, scratchDatabase, startServer, type RunningServer } from './server-process.ts';

const values = parseOptions(import.meta.url, {
  events: { type: 'string', default: '30000' },
  'max-events': { type: 'string', default: '45000' },
  rounds: { type: 'string', default: '3' },
  'database-url': { type: 'string' },
  timeout: { type: 'string', default: '600' },
});
const targetEvents = Number(values.events);
const maxEvents = Number(values['max-events']);
const rounds = Number(values.rounds);
const watchdog = giveUpAfter(Number(values.timeout));

// The module the server plays (with its lifecycle wrapper).
const game: AnyGame = findGame('porca-miseria')!;
const seats = 3;
const options = { maxActions: 10_000 };

/** A finished game of `targetEvents` to `maxEvents` events, and the seed that played it. */
function longFinishedGame() {
  const random = botsFor(game.type)!.random!;
  for (let seed = 0; seed < 200; seed++) {
    const played = play(game, { bots: Array.from({ length: seats }, () => random), seed: `measure-replay-${seed}`, options });
    if (played.result !== null && played.events.length >= targetEvents && played.events.length <= maxEvents) return { seed: `measure-replay-${seed}`, played };
  }
  throw new Error(`no game of ${targetEvents} to ${maxEvents} events in 200 seeds`);
}

async function storeFinished(store: EventStore, seed: string, events: readonly { type: string }[], setupOptions: unknown): Promise<string> {
  const id = randomUUID();
  const now = new Date();
  await store.createGame(
    {
      id, type: game.type, rulesVersion: game.rulesVersion, options: setupOptions, seatCount: seats, chanceMode: 'server', seed,
      seedHash: sha256(seed), seedNonce: null, seedChosenBy: 'creator', botThinkMs: 0, refereeTokenHash: hashToken(newToken()), createdAt: now, organizerId: null, tournament: null,
      seats: Array.from({ length: seats }, (_, seat) => ({ seat, name: `p${seat}`, tokenHash: hashToken(newToken()), joinedAt: now, bot: 'random' })),
    },
    { events: events.slice(0, 1), status: 'running', deadline: null },
  );
  for (let from = 1; from < events.length; from += 1000) {
    const chunk = events.slice(from, from + 1000);
    const last = from + chunk.length === events.length;
    const outcome = await store.append({
      gameId: id, expectedVersion: from, events: chunk, actor: 'measure', at: now, commandId: null,
      status: last ? 'finished' : 'running', deadline: null, idempotency: null,
    });
    if (outcome !== 'appended') throw new Error(`storing ${id}: ${outcome}`);
  }
  return id;
}

/** One GET after another until `stop` says so: each request's latency in ms. */
async function probe(http: Pool, path: string, stop: () => boolean): Promise<number[]> {
  const samples: number[] = [];
  while (!stop()) {
    const started = performance.now();
    const response = await http.request({ path, method: 'GET' });
    await response.body.text();
    samples.push(performance.now() - started);
  }
  return samples;
}

interface Mode {
  readonly name: string;
  readonly headers: Record<string, string>;
}
const modes: Mode[] = [
  { name: 'json', headers: {} },
  { name: 'ndjson', headers: { accept: 'application/x-ndjson' } },
  { name: 'json-gzip', headers: { 'accept-encoding': 'gzip' } },
  { name: 'ndjson-gzip', headers: { accept: 'application/x-ndjson', 'accept-encoding': 'gzip' } },
];

async function readReplay(http: Pool, id: string, mode: Mode) {
  const started = performance.now();
  const response = await http.request({ path: `/games/${id}/replay`, method: 'GET', headers: mode.headers });
  if (response.statusCode !== 200) throw new Error(`${mode.name}: ${response.statusCode} ${await response.body.text()}`);
  let firstByte: number | null = null;
  let bytes = 0;
  for await (const chunk of response.body) {
    firstByte ??= performance.now() - started;
    bytes += (chunk as Buffer).length;
  }
  return { ttfbMs: firstByte ?? 0, totalMs: performance.now() - started, bytes };
}

const database = await scratchDatabase(values['database-url']);
const clients = createClients(database.url, { poolSize: 2 });
let server: RunningServer | null = null;
try {
  const generated = performance.now();
  const { seed, played } = longFinishedGame();
  const store = new EventStore(clients.prisma, clients.pool);
  const id = await storeFinished(store, seed, played.events, game.optionsSchema.parse(options));
  const generateSeconds = Math.round((performance.now() - generated) / 100) / 10;

  build();
  server = await startServer(database.url);
  const replays = new Pool(server.base, { connections: 1 });
  const other = new Pool(server.base, { connections: 1 });
  const created = await other.request({ path: '/games', method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'pechvogel', seats: [{}, {}] }) });
  const otherId = ((await created.body.json()) as { game: { id: string } }).game.id;
  const otherPath = `/games/${otherId}`;

  await readReplay(replays, id, modes[0]!);
  // The other client alone, for as long as a round of replays takes.
  const idleUntil = performance.now() + 3000;
  const idle = await probe(other, otherPath, () => performance.now() > idleUntil);

  const results: Record<string, unknown> = {};
  for (const mode of modes) {
    const reads: Awaited<ReturnType<typeof readReplay>>[] = [];
    const during: number[] = [];
    const peaks: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const before = server.rssMib();
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, server!.rssMib())), 20);
      let done = false;
      const probing = probe(other, otherPath, () => done);
      reads.push(await readReplay(replays, id, mode));
      done = true;
      during.push(...(await probing));
      clearInterval(sampler);
      peaks.push(Math.round((peak - before) * 10) / 10);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    results[mode.name] = {
      ttfbMs: Math.round(median(reads.map((r) => r.ttfbMs))),
      totalMs: Math.round(median(reads.map((r) => r.totalMs))),
      bytes: reads[0]!.bytes,
      peakRssAboveMib: median(peaks),
      otherClientMs: roundedPercentiles(during, 1),
    };
  }
  await replays.close();
  await other.close();
  const ratio = (a: string, b: string, key: 'ttfbMs' | 'totalMs') =>
    Math.round(((results[a] as Record<string, number>)[key]! / (results[b] as Record<string, number>)[key]!) * 100) / 100;
  console.log(
    JSON.stringify({
      ok: true,
      events: played.events.length,
      generateSeconds,
      rounds,
      otherClientIdleMs: roundedPercentiles(idle, 1),
      ...results,
      ndjsonVsJson: { ttfb: ratio('ndjson', 'json', 'ttfbMs'), total: ratio('ndjson', 'json', 'totalMs') },
    }),
  );
} finally {
  await server?.stop();
  await clients.close();
  await database.drop();
  clearTimeout(watchdog);
}
