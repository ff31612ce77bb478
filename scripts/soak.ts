// Usage: npm run soak -- [--url http://127.0.0.1:3000] [--seconds 30] [--games N]
//                        [--parallel 24] [--game-limit 120] [--seed soak]
// Plays many games of all four types at once against a running server (it starts
// nothing). Every seat is a client: it watches its game over a WebSocket and decides
// with a bot (src/bots) from its own view and legal commands as the API returns them;
// each game sends its commands over HTTP or over the WebSocket, some games seat a
// server-side bot or are played by server bots only. Deadlines are the server's to
// fire. New games start for --seconds (or until --games were started); each game must
// end within --game-limit seconds. Reports commands per second, latency percentiles
// and every error: a 5xx, a dropped socket, an unfinished game, or a refusal other
// than a lost race (409 stale/conflict/not-running) or a window closing (*/too-late).
import WebSocket from 'ws';
import { bearer, createRestClient, LiveError, LiveGame, type GameType, type Schemas, type Update } from '@spielwerk/client';
import { poolTransport } from '@spielwerk/client/node';
import { botsFor, seededRng, type AnyBot, type Rng } from '../src/bots/index.ts';
import { pick } from '../src/bots/rng.ts';
import { findGame } from '../src/domain/games.ts';
import { parseOptions, percentiles } from './lib.ts';

/** The bots every game has, by the names a seat asks for them with. */
type SeatBot = Extract<Schemas['CreateGameRequestInput']['seats'][number], { bot: string }>['bot'];
const botNames = ['random', 'greedy'] as const satisfies readonly SeatBot[];

const args = parseOptions(
  import.meta.url,
  {
    url: { type: 'string', default: 'http://127.0.0.1:3000' },
    seconds: { type: 'string', default: '30' },
    games: { type: 'string' },
    parallel: { type: 'string', default: '24' },
    'game-limit': { type: 'string', default: '120' },
    seed: { type: 'string', default: 'soak' },
  },
  ['seconds', 'games', 'parallel', 'game-limit'],
);
const baseUrl = new URL(args.url).origin;
const seconds = args.seconds;
const maxGames = args.games ?? Infinity;
const parallel = args.parallel;
const gameLimitMs = args['game-limit'] * 1000;
if (![seconds, maxGames, parallel, gameLimitMs].every((n) => n > 0)) {
  console.error('--seconds, --games, --parallel and --game-limit must be positive numbers');
  process.exit(2);
}
// Every seat's client shares one pool of keep-alive connections.
const transport = poolTransport(baseUrl, { connections: parallel * 2 });
const rest = createRestClient({ baseUrl, transport });

/** Short windows so the server's deadlines keep games moving. */
const tables: Readonly<Record<GameType, { readonly maxSeats: number; readonly game: Schemas['CreateGameRequestInput'] }>> = {
  pechvogel: { maxSeats: 5, game: { type: 'pechvogel', seats: [], options: { reactionSeconds: 1 } } },
  'fackel-und-keule': { maxSeats: 5, game: { type: 'fackel-und-keule', seats: [] } },
  mistkaefer: { maxSeats: 4, game: { type: 'mistkaefer', seats: [] } },
  'porca-miseria': { maxSeats: 6, game: { type: 'porca-miseria', seats: [], options: { windowMs: 500, revealMs: 500, maxActions: 60 } } },
};
const types: readonly GameType[] = ['pechvogel', 'fackel-und-keule', 'mistkaefer', 'porca-miseria'];

/** What a seat last saw, from an update or its own command's answer. */
interface Snapshot {
  readonly version: number;
  readonly status: string;
  readonly view: unknown;
  readonly pending: { readonly seats: readonly number[] };
  readonly legalCommands: readonly Update['legalCommands'][number][];
}

type Transport = 'http' | 'ws';

const stats = {
  started: 0,
  finished: 0,
  byType: Object.fromEntries(types.map((t) => [t, 0])) as Record<string, number>,
  accepted: 0,
  lostRaces: 0,
  late: 0,
  latency: { http: [] as number[], ws: [] as number[] },
  errors: [] as string[],
};

const error = (message: string): void => {
  stats.errors.push(message);
  console.error(`ERROR ${message}`);
};

/** A refusal that is part of play: someone else moved first, or a window closed. */
const expected = (status: number, code: string): 'lost' | 'late' | null =>
  status === 409 && ['command/stale-version', 'command/conflict', 'game/not-running'].includes(code) ? 'lost' : status === 422 && code.endsWith('/too-late') ? 'late' : null;

interface Seat {
  readonly id: string;
  readonly type: GameType;
  readonly seat: number | null;
  readonly token?: string;
  readonly bot?: AnyBot;
  readonly rng: Rng;
  readonly transport: Transport;
}

/** A command's outcome, whichever way it went: the answer, or the problem. */
type Outcome = { readonly answer: Snapshot } | { readonly problem: Schemas['Problem'] };

/** One client: watches the game and, with a bot, plays its seat (without one it only
 * watches, for games played by server bots). Resolves when the game is over or failed. */
async function client({ id, type, seat, token, bot, rng, transport }: Seat): Promise<void> {
  const who = `game ${id} ${seat === null ? 'spectator' : `seat ${seat}`}`;
  let latest: Snapshot | null = null;
  let actedAt = -1;
  let busy = false;
  let done = false;
  let failure: string | undefined;
  // The client reconnects by itself; a soak counts every drop as an error.
  const live = new LiveGame({
    baseUrl,
    gameId: id,
    gameType: type,
    ...(token === undefined ? {} : { token }),
    connect: (url) => {
      const socket = new WebSocket(url);
      socket.on('close', (code: number) => finish(`the socket closed with ${code} before the game was over`));
      socket.on('error', (cause: Error) => finish(`socket error: ${cause.message}`));
      return socket;
    },
  });
  const finish = (why?: string): void => {
    if (done) return;
    done = true;
    failure = why;
    clearTimeout(limit);
    live.close();
  };
  const limit = setTimeout(() => finish(`not over after ${gameLimitMs} ms (version ${latest?.version}, pending ${JSON.stringify(latest?.pending)})`), gameLimitMs);

  const see = (snapshot: Snapshot): void => {
    if (latest === null || snapshot.version > latest.version) latest = snapshot;
  };

  const send = async (command: Snapshot['legalCommands'][number], expectedVersion: number): Promise<Outcome> => {
    if (transport === 'http') {
      const { data, error: problem } = await rest.POST('/games/{id}/commands', { params: { path: { id } }, headers: bearer(token ?? ''), body: { command, expectedVersion } });
      return data === undefined ? { problem: problem! } : { answer: data };
    }
    try {
      return { answer: await live.send(command, { expectedVersion }) };
    } catch (refusal) {
      if (refusal instanceof LiveError) return { problem: refusal.problem };
      throw refusal;
    }
  };

  const act = (): void => {
    if (done || busy || latest === null) return;
    if (latest.status === 'finished') return finish();
    if (bot === undefined || seat === null || latest.version <= actedAt) return;
    if (!latest.pending.seats.includes(seat) || latest.legalCommands.length === 0) return;
    const at = latest;
    actedAt = at.version;
    const chosen = bot.choose({ seat, legal: at.legalCommands, view: at.view }, rng);
    // A bot answers with one of the commands it was offered.
    const command = at.legalCommands.find((offered) => offered === chosen);
    if (command === undefined) return finish(`the bot chose ${JSON.stringify(chosen)}, which it was not offered`);
    busy = true;
    const started = performance.now();
    send(command, at.version)
      .then((outcome) => {
        stats.latency[transport].push(performance.now() - started);
        if ('answer' in outcome) {
          stats.accepted++;
          see(outcome.answer);
          return;
        }
        const { status, code, detail } = outcome.problem;
        const kind = expected(status, code);
        if (kind === 'lost') stats.lostRaces++;
        else if (kind === 'late') stats.late++;
        else error(`${who} at version ${at.version} sent ${JSON.stringify(command)} over ${transport}: ${status} ${code} ${detail}`);
      })
      .catch((cause: unknown) => finish(`sending over ${transport} failed: ${String(cause)}`))
      .finally(() => {
        busy = false;
        act();
      });
  };

  try {
    for await (const update of live) {
      see(update);
      act();
    }
  } catch (refusal) {
    finish(`the socket was refused: ${refusal instanceof LiveError ? JSON.stringify(refusal.problem) : String(refusal)}`);
  }
  if (failure !== undefined) error(`${who}: ${failure}`);
}

async function playGame(n: number): Promise<void> {
  const type = types[n % types.length]!;
  const rng = seededRng(`${args.seed}:${n}`);
  const game = findGame(type)!;
  const { maxSeats, game: table } = tables[type];
  const seatCount = game.players.min + rng.below(Math.min(maxSeats, game.players.max) - game.players.min + 1);
  const bots = botsFor(type)!;
  const transport: Transport = rng.below(2) === 0 ? 'http' : 'ws';
  // One game in eight is played by server bots alone, one in eight seats one of them.
  const mix = rng.below(8);
  const serverBot = (seat: number): boolean => mix === 0 || (mix === 1 && seat === 0);
  const seats = Array.from({ length: seatCount }, (_, seat) => (serverBot(seat) ? { bot: pick(rng, botNames) } : { name: `soak-${seat}` }));

  // Bots move at once whatever the server's default think time (a soak, not a show).
  const created = await rest.POST('/games', { body: { ...table, seats, seed: `${args.seed}:${n}`, botThinkMs: 0 } });
  if (created.data === undefined) return error(`creating ${type}: ${created.response.status} ${created.error?.code} ${created.error?.detail}`);
  const id = created.data.game.id;
  const clients: Seat[] = created.data.seats.flatMap(({ seat, token }) =>
    token == null ? [] : [{ id, type, seat, token, bot: bots[pick(rng, botNames)]!, rng: seededRng(`${args.seed}:${n}:${seat}`), transport }],
  );
  if (clients.length === 0) clients.push({ id, type, seat: null, rng, transport });
  await Promise.all(clients.map(client));

  const final = await rest.GET('/games/{id}', { params: { path: { id } } });
  if (final.data === undefined) return error(`game ${id}: reading it failed with ${final.response.status}`);
  if (final.data.status !== 'finished') return error(`game ${id} (${type}) is ${final.data.status} at version ${final.data.version}`);
  stats.finished++;
  stats.byType[type]!++;
}

function report(elapsedMs: number): void {
  const line = (name: string, samples: number[]) => {
    const { n, p50, p90, p99, max } = percentiles(samples);
    const ms = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(1));
    return `  ${name.padEnd(5)} n=${String(n).padStart(6)}  p50 ${ms(p50)}  p90 ${ms(p90)}  p99 ${ms(p99)}  max ${ms(max)} ms`;
  };
  const secondsTaken = elapsedMs / 1000;
  console.log(`soak against ${baseUrl}: ${secondsTaken.toFixed(1)} s, ${stats.started} games started, ${stats.finished} finished (${types.map((t) => `${t} ${stats.byType[t]}`).join(', ')})`);
  console.log(`commands accepted: ${stats.accepted} (${(stats.accepted / secondsTaken).toFixed(1)}/s); lost races ${stats.lostRaces}, too late ${stats.late}`);
  console.log('latency per command (client round trip):');
  console.log(line('http', stats.latency.http));
  console.log(line('ws', stats.latency.ws));
  console.log(line('all', [...stats.latency.http, ...stats.latency.ws]));
  console.log(`errors: ${stats.errors.length}`);
  for (const message of stats.errors.slice(0, 20)) console.log(`  ${message}`);
}

const health = await rest.GET('/ready').then(
  ({ response }) => ({ status: response.status, detail: '' }),
  (failure: unknown) => ({ status: 0, detail: String(failure) }),
);
if (health.status !== 200) {
  console.error(`no ready server at ${baseUrl}: ${health.status} ${health.detail}`);
  process.exit(2);
}

const started = performance.now();
let stopping = false;
process.once('SIGINT', () => {
  console.error('SIGINT: no new games; finishing the running ones');
  stopping = true;
});
const running = new Set<Promise<void>>();
const more = (): boolean => !stopping && stats.started < maxGames && performance.now() - started < seconds * 1000;
while (more()) {
  while (running.size < parallel && more()) {
    const game = playGame(stats.started++).catch((failure: unknown) => error(`a game failed: ${String(failure)}`));
    running.add(game);
    void game.finally(() => running.delete(game));
  }
  // Refill a slot as soon as a game ends, but look at the clock at least once a second.
  await Promise.race([...running, new Promise((r) => setTimeout(r, 1000))]);
}
await Promise.all(running);
await transport.close();
report(performance.now() - started);
process.exit(stats.errors.length === 0 ? 0 : 1);
