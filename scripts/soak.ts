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
import { botsFor, seededRng, type AnyBot, type Rng } from '../src/bots/index.ts';
import { pick } from '../src/bots/rng.ts';
import type { Command } from '../src/domain/contract.ts';
import { findGame } from '../src/domain/games.ts';
import { fetchJson, liveUrl, parseOptions, percentiles, type Reply } from './lib.ts';

const args = parseOptions(import.meta.url, {
  url: { type: 'string', default: 'http://127.0.0.1:3000' },
  seconds: { type: 'string', default: '30' },
  games: { type: 'string' },
  parallel: { type: 'string', default: '24' },
  'game-limit': { type: 'string', default: '120' },
  seed: { type: 'string', default: 'soak' },
});
const base = args.url.replace(/\/$/, '');
const seconds = Number(args.seconds);
const maxGames = args.games === undefined ? Infinity : Number(args.games);
const parallel = Number(args.parallel);
const gameLimitMs = Number(args['game-limit']) * 1000;
if (![seconds, maxGames, parallel, gameLimitMs].every((n) => n > 0)) {
  console.error('--seconds, --games, --parallel and --game-limit must be positive numbers');
  process.exit(2);
}

/** Short windows so the server's deadlines keep games moving. */
const tables: Readonly<Record<string, { readonly maxSeats: number; readonly options: Record<string, unknown> }>> = {
  pechvogel: { maxSeats: 5, options: { reactionSeconds: 1 } },
  'fackel-und-keule': { maxSeats: 5, options: {} },
  mistkaefer: { maxSeats: 4, options: {} },
  'porca-miseria': { maxSeats: 6, options: { windowMs: 500, revealMs: 500, maxActions: 60 } },
};
const types = Object.keys(tables);

interface Snapshot {
  version: number;
  status: string;
  view: unknown;
  pending: { seats: number[] };
  legalCommands: Command[];
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

const http = (method: 'GET' | 'POST', path: string, body?: unknown, token?: string): Promise<Reply> => fetchJson(base, method, path, body, token);

interface Seat {
  readonly id: string;
  readonly seat: number | null;
  readonly token?: string;
  readonly bot?: AnyBot;
  readonly rng: Rng;
  readonly transport: Transport;
}

/** One client: watches the game and, with a bot, plays its seat (without one it only
 * watches, for games played by server bots). Resolves when the game is over or failed. */
function client({ id, seat, token, bot, rng, transport }: Seat): Promise<void> {
  const who = `game ${id} ${seat === null ? 'spectator' : `seat ${seat}`}`;
  return new Promise((resolve) => {
    const socket = new WebSocket(liveUrl(base, id, token));
    const acks = new Map<string, (message: any) => void>();
    let latest: Snapshot | null = null;
    let actedAt = -1;
    let busy = false;
    let done = false;
    let sent = 0;
    const finish = (failure?: string): void => {
      if (done) return;
      done = true;
      clearTimeout(limit);
      if (failure !== undefined) error(`${who}: ${failure}`);
      socket.close(1000);
      resolve();
    };
    const limit = setTimeout(() => finish(`not over after ${gameLimitMs} ms (version ${latest?.version}, pending ${JSON.stringify(latest?.pending)})`), gameLimitMs);

    const see = (snapshot: Snapshot): void => {
      if (latest === null || snapshot.version > latest.version) latest = snapshot;
    };

    const send = async (command: Command, expectedVersion: number): Promise<Reply> => {
      if (transport === 'http') return http('POST', `/games/${id}/commands`, { command, expectedVersion }, token);
      const ackId = String(++sent);
      const answer = new Promise<any>((r) => acks.set(ackId, r));
      socket.send(JSON.stringify({ type: 'command', id: ackId, command, expectedVersion }));
      const message = await answer;
      return message.type === 'ack' ? { status: 200, json: message } : { status: message.problem.status, json: message.problem };
    };

    const act = (): void => {
      if (done || busy || latest === null) return;
      if (latest.status === 'finished') return finish();
      if (bot === undefined || seat === null || latest.version <= actedAt) return;
      if (!latest.pending.seats.includes(seat) || latest.legalCommands.length === 0) return;
      const at = latest;
      actedAt = at.version;
      const command = bot.choose({ seat, legal: at.legalCommands, view: at.view }, rng);
      busy = true;
      const started = performance.now();
      send(command, at.version)
        .then(({ status, json }) => {
          stats.latency[transport].push(performance.now() - started);
          if (status === 200) {
            stats.accepted++;
            see(json as Snapshot);
          } else {
            const kind = expected(status, json.code);
            if (kind === 'lost') stats.lostRaces++;
            else if (kind === 'late') stats.late++;
            else error(`${who} at version ${at.version} sent ${JSON.stringify(command)} over ${transport}: ${status} ${json.code} ${json.detail}`);
          }
        })
        .catch((failure: unknown) => finish(`sending over ${transport} failed: ${String(failure)}`))
        .finally(() => {
          busy = false;
          act();
        });
    };

    socket.on('message', (raw: Buffer) => {
      const message = JSON.parse(raw.toString());
      if (message.type === 'update') see(message);
      else if ((message.type === 'ack' || message.type === 'error') && acks.has(message.id)) {
        acks.get(message.id)!(message);
        acks.delete(message.id);
        return;
      } else if (message.type === 'error') return finish(`the socket was refused: ${JSON.stringify(message.problem)}`);
      act();
    });
    socket.on('close', (code: number) => finish(`the socket closed with ${code} before the game was over`));
    socket.on('error', (failure: Error) => finish(`socket error: ${failure.message}`));
  });
}

async function playGame(n: number): Promise<void> {
  const type = types[n % types.length]!;
  const rng = seededRng(`${args.seed}:${n}`);
  const game = findGame(type)!;
  const { maxSeats, options } = tables[type]!;
  const seatCount = game.players.min + rng.below(Math.min(maxSeats, game.players.max) - game.players.min + 1);
  const bots = botsFor(type)!;
  const botNames = Object.keys(bots);
  const transport: Transport = rng.below(2) === 0 ? 'http' : 'ws';
  // One game in eight is played by server bots alone, one in eight seats one of them.
  const mix = rng.below(8);
  const serverBot = (seat: number): boolean => mix === 0 || (mix === 1 && seat === 0);
  const seats = Array.from({ length: seatCount }, (_, seat) => (serverBot(seat) ? { bot: pick(rng, botNames) } : { name: `soak-${seat}` }));

  const created = await http('POST', '/games', { type, seats, options, seed: `${args.seed}:${n}` });
  if (created.status !== 201) return error(`creating ${type}: ${created.status} ${created.json.code} ${created.json.detail}`);
  const id: string = created.json.game.id;
  const tokens: (string | null)[] = created.json.seats.map((s: { token: string | null }) => s.token);
  const clients: Seat[] = tokens.flatMap((token, seat) =>
    token === null ? [] : [{ id, seat, token, bot: bots[pick(rng, botNames)]!, rng: seededRng(`${args.seed}:${n}:${seat}`), transport }],
  );
  if (clients.length === 0) clients.push({ id, seat: null, rng, transport });
  await Promise.all(clients.map(client));

  const final = await http('GET', `/games/${id}`);
  if (final.status !== 200) return error(`game ${id}: reading it failed with ${final.status}`);
  if (final.json.status !== 'finished') return error(`game ${id} (${type}) is ${final.json.status} at version ${final.json.version}`);
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
  console.log(`soak against ${base}: ${secondsTaken.toFixed(1)} s, ${stats.started} games started, ${stats.finished} finished (${types.map((t) => `${t} ${stats.byType[t]}`).join(', ')})`);
  console.log(`commands accepted: ${stats.accepted} (${(stats.accepted / secondsTaken).toFixed(1)}/s); lost races ${stats.lostRaces}, too late ${stats.late}`);
  console.log('latency per command (client round trip):');
  console.log(line('http', stats.latency.http));
  console.log(line('ws', stats.latency.ws));
  console.log(line('all', [...stats.latency.http, ...stats.latency.ws]));
  console.log(`errors: ${stats.errors.length}`);
  for (const message of stats.errors.slice(0, 20)) console.log(`  ${message}`);
}

const health = await http('GET', '/ready').catch((failure: unknown) => ({ status: 0, json: { detail: String(failure) } }));
if (health.status !== 200) {
  console.error(`no ready server at ${base}: ${health.status} ${health.json.detail ?? ''}`);
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
report(performance.now() - started);
process.exit(stats.errors.length === 0 ? 0 : 1);
