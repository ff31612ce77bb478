// The failover test's load, through the balancer: games of Pechvogel played over HTTP
// (half of them with a server-side bot in one seat, whose moves, like the deadlines'
// timeouts, the server owes across failovers), every command sent with expectedVersion
// and an Idempotency-Key and retried with the same key until it is answered (after
// Retry-After when the answer is a 503), and one live spectator per game (the client
// kit's LiveGame, which reconnects with after=N). It keeps what the ledger checks
// afterwards: every acknowledged command with the versions its answer gave, every event
// each spectator was pushed, and every answer that is a fault: a 5xx other than 503, a
// 503 without Retry-After, a refusal that play does not explain, a game that stalls.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { bearer, createRestClient, LiveError, LiveGame, type RestClient, type RestResponse } from '@spielwerk/client';
import { poolTransport, type PoolTransport } from '@spielwerk/client/node';
import { pechvogel } from '../../src/domain/pechvogel/index.ts';

type PechvogelEvent = Parameters<typeof pechvogel.evolve>[1];
type PechvogelState = ReturnType<typeof pechvogel.initialState>;

export interface Acked {
  readonly gameId: string;
  readonly key: string;
  /** The versions the command's events took: from..to. */
  readonly from: number;
  readonly to: number;
  /** When the attempt that was answered was sent, and when its answer came (ms, Date.now()). */
  readonly sentAt: number;
  readonly ackedAt: number;
  readonly attempts: number;
}

/** What one game's spectator was pushed, in the order it came. */
export interface Watched {
  readonly gameId: string;
  readonly seqs: number[];
  readonly types: string[];
  /** The version the spectator must reach: its player's last, then the log's last once the server settled. */
  playedTo: number;
  /** Resolves once the spectator has been pushed `version`. */
  reached(version: number, timeoutMs: number): Promise<boolean>;
  /** Cuts the spectator's socket, as a network drop would: it reconnects with after=N. */
  drop(): void;
  close(): void;
}

/** Answers by status and code, counted, for the report. */
export type Tally = Map<string, number>;

/** A command is given up (and counted as a fault) when not answered within this. */
const GIVE_UP_MS = 60_000;
const NETWORK_RETRY_MS = 200;
/** A game the server owes a move (a bot's, a deadline's) for this long has stalled. */
const STALLED_MS = 30_000;

export class Load {
  readonly acked: Acked[] = [];
  readonly watched: Watched[] = [];
  readonly answers: Tally = new Map();
  readonly faults: string[] = [];
  /** Retries of commands, reads and creations (after a 503 or a network error). */
  retries = 0;
  /** When each 5xx answer or network error came (Date.now() ms). */
  readonly failures: number[] = [];
  /** Spectators' sockets opened again with after=N > 0 (a reconnect). */
  spectatorReconnects = 0;
  gamesCreated = 0;
  private running = false;
  private players: Promise<void>[] = [];
  private readonly transport: PoolTransport;
  private readonly rest: RestClient;

  constructor(private readonly baseUrl: string) {
    this.transport = poolTransport(baseUrl, { connections: 64, timeoutMs: 30_000 });
    this.rest = createRestClient({ baseUrl, transport: this.transport });
  }

  start(games: number): void {
    this.running = true;
    this.players = Array.from({ length: games }, (_, slot) =>
      this.play(slot).catch((error: unknown) => {
        this.fault(`player ${slot} stopped: ${String(error)}`);
      }),
    );
  }

  /** Stops starting commands; each player's command under way is answered first. */
  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.players);
  }

  async close(): Promise<void> {
    for (const game of this.watched) game.close();
    await this.transport.close();
  }

  /** When the first command sent at or after `since` was acknowledged (Date.now() ms). */
  async firstAckSince(since: number, timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      let first: number | undefined;
      for (let i = this.acked.length - 1; i >= 0 && this.acked[i]!.ackedAt >= since; i--) {
        const { sentAt, ackedAt } = this.acked[i]!;
        if (sentAt >= since && (first === undefined || ackedAt < first)) first = ackedAt;
      }
      if (first !== undefined) return first;
      if (Date.now() > deadline) throw new Error(`no command was acknowledged within ${timeoutMs} ms`);
      await sleep(20);
    }
  }

  /** The end of an outage that began at `since`: the first acknowledgement of a command
   * sent after the last failure (a 5xx or a network error) before `until`. */
  recoveredAt(since: number, until: number): number | null {
    const failed = this.failures.filter((at) => at >= since && at <= until);
    const from = failed.length === 0 ? since : Math.max(...failed);
    const acks = this.acked.filter((a) => a.sentAt >= from).map((a) => a.ackedAt);
    return acks.length === 0 ? null : Math.min(...acks);
  }

  private fault(message: string): void {
    this.faults.push(message);
    console.error(`FAULT ${message}`);
  }

  private count(status: number, code: string): void {
    if (status === 0 || status >= 500) this.failures.push(Date.now());
    const key = `${status} ${code}`;
    this.answers.set(key, (this.answers.get(key) ?? 0) + 1);
  }

  /** Games one after another in this slot until stopped; every other slot seats a
   * server-side bot too, which must go on playing across failovers. */
  private async play(slot: number): Promise<void> {
    const seats = slot % 2 === 0 ? [{}, {}, {}] : [{}, {}, { bot: 'greedy' as const }];
    for (let round = 0; this.running; round++) {
      const created = await this.answered('creating a game', () => this.rest.POST('/games', { body: { type: 'pechvogel', seats, seed: `failover-${slot}-${round}`, botThinkMs: 0 } }));
      if (created === null) continue;
      this.gamesCreated++;
      const id = created.game.id;
      const tokens = created.seats.map((s) => s.token ?? '');
      // Every player looks at the game first, as a client opening it does: a game whose
      // people have not all arrived waits for them, bots and deadlines included.
      for (const token of tokens.filter((t) => t !== '')) {
        await this.answered('opening a game', () => this.rest.GET('/games/{id}', { params: { path: { id } }, headers: bearer(token) }));
      }
      const watched = this.watch(id);
      let version = 0;
      let state: PechvogelState = pechvogel.initialState({ options: pechvogel.optionsSchema.parse({}), seats: 3 });
      /** Reads the events after `version`: the server's own commands (a deadline's timeout) move games too. */
      const catchUp = async (): Promise<boolean> => {
        const page = await this.answered('reading events', () => this.rest.GET('/games/{id}/events', { params: { path: { id }, query: { after: version, limit: 1000 } } }));
        if (page === null) return false;
        for (const { seq, event } of page.events) if (seq > version) state = pechvogel.evolve(state, event as PechvogelEvent);
        version = Math.max(version, page.version);
        return true;
      };
      if (!(await catchUp())) continue;
      let movedAt = Date.now();
      while (this.running && pechvogel.result(state) === null) {
        const seat = pechvogel.pending(state).seats.find((s) => tokens[s] !== '');
        if (seat === undefined) {
          // Waiting for the server: its bot, or a deadline's timeout.
          if (Date.now() - movedAt > STALLED_MS) {
            this.fault(`game ${id} stalled at version ${version}, waiting for the server (${JSON.stringify(pechvogel.pending(state))})`);
            break;
          }
          await sleep(100);
          const before = version;
          if (!(await catchUp())) break;
          if (version > before) movedAt = Date.now();
          continue;
        }
        movedAt = Date.now();
        const legal = pechvogel.legalCommands(state, seat);
        const command = legal.find((c) => c.type === 'pass') ?? legal[0]!;
        const outcome = await this.command(id, tokens[seat]!, command, version);
        if (outcome === 'moved') {
          if (!(await catchUp())) break;
          continue;
        }
        if (outcome === null) break;
        for (const { event } of outcome.events) state = pechvogel.evolve(state, event as PechvogelEvent);
        version = outcome.version;
      }
      watched.playedTo = version;
    }
  }

  /** One command, retried with its key until answered. 'moved': the game moved under
   * it (a deadline fired), so it does not apply at this version; null: given up. */
  private async command(gameId: string, token: string, command: object, expectedVersion: number) {
    const key = randomUUID();
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      const sentAt = Date.now();
      let reply;
      try {
        reply = await this.rest.POST('/games/{id}/commands/pechvogel', {
          params: { path: { id: gameId } },
          headers: { ...bearer(token), 'idempotency-key': key },
          body: { command: command as never, expectedVersion },
        });
      } catch (error) {
        reply = null;
        this.count(0, `network: ${(error as { code?: string }).code ?? String(error)}`);
      }
      if (reply !== null && reply.data !== undefined) {
        const { version, events } = reply.data;
        const from = version - events.length + 1;
        this.count(200, 'ok');
        this.acked.push({ gameId, key, from, to: version, sentAt, ackedAt: Date.now(), attempts: attempt });
        return reply.data;
      }
      if (reply !== null) {
        const { status } = reply.response;
        const code = reply.error?.code ?? 'not-json';
        this.count(status, code);
        // Someone else moved first: a deadline's timeout, or the bot reacting at once.
        if (status === 409 && (code === 'command/stale-version' || code === 'command/conflict')) return 'moved' as const;
        if (status === 422 && code.endsWith('/too-late')) return 'moved' as const;
        if (status !== 503) {
          this.fault(`command ${key} on game ${gameId} at version ${expectedVersion}: ${status} ${code} ${reply.error?.detail ?? ''}`);
          if (status < 500) return null;
        }
      }
      if (Date.now() - started > GIVE_UP_MS) {
        this.fault(`command ${key} on game ${gameId} not answered within ${GIVE_UP_MS} ms`);
        return null;
      }
      this.retries++;
      await sleep(reply === null ? NETWORK_RETRY_MS : this.retryAfterMs(reply.response));
    }
  }

  /** Retry-After in ms; a 503 without it is a fault (and retried after a second). */
  private retryAfterMs(response: { status: number; headers: { get(name: string): string | null } }): number {
    const header = response.headers.get('retry-after');
    const seconds = header === null ? NaN : Number(header);
    if (response.status === 503 && !(seconds >= 0)) {
      this.fault(`a 503 without Retry-After (${header})`);
      return 1000;
    }
    return Number.isFinite(seconds) ? seconds * 1000 : 1000;
  }

  /** A read or a creation, retried until it succeeds; null once the load is stopping. */
  private async answered<T>(what: string, request: () => Promise<{ data?: T; error?: { code?: string; detail?: string }; response: RestResponse }>): Promise<T | null> {
    for (;;) {
      let wait = NETWORK_RETRY_MS;
      try {
        const { data, error, response } = await request();
        if (data !== undefined) return data;
        this.count(response.status, error?.code ?? 'not-json');
        if (response.status !== 503) {
          this.fault(`${what}: ${response.status} ${error?.code} ${error?.detail ?? ''}`);
          if (response.status < 500) return null;
        }
        wait = this.retryAfterMs(response);
      } catch (error) {
        this.count(0, `network: ${(error as { code?: string }).code ?? String(error)}`);
      }
      if (!this.running) return null;
      this.retries++;
      await sleep(wait);
    }
  }

  /** Cuts every spectator's socket, so that each reconnects during the failover. */
  dropSpectators(): void {
    for (const watched of this.watched) watched.drop();
  }

  private dial(url: string): WebSocket {
    if (new URL(url).searchParams.get('after') !== '0') this.spectatorReconnects++;
    return new WebSocket(url);
  }

  /** The game's spectator: records every event pushed, checks each update continues the
   * last, and reconnects (after=N) whatever ends its socket, but a refusal to watch. */
  private watch(gameId: string): Watched {
    const seqs: number[] = [];
    const types: string[] = [];
    const waiters = new Set<() => void>();
    let closed = false;
    let live: LiveGame<'pechvogel'> | null = null;
    let socket: WebSocket | null = null;
    const follow = async () => {
      while (!closed) {
        live = new LiveGame({ baseUrl: this.baseUrl, gameId, gameType: 'pechvogel', after: seqs.at(-1) ?? 0, backoff: { firstMs: 100, maxMs: 1000 }, connect: (url) => (socket = this.dial(url)) });
        try {
          for await (const update of live) {
            for (const { seq, event } of update.events) {
              const last = seqs.at(-1) ?? 0;
              if (seq !== last + 1) this.fault(`the spectator of game ${gameId} was pushed version ${seq} after ${last}`);
              seqs.push(seq);
              types.push(event.type);
            }
            for (const wake of waiters) wake();
            // A finished game moves no more: its socket is not kept open.
            if (update.status === 'finished') watched.close();
          }
        } catch (error) {
          if (closed) return;
          const code = error instanceof LiveError ? `${error.problem.status} ${error.problem.code}` : String(error);
          this.fault(`the spectator of game ${gameId} was refused: ${code}`);
          await sleep(1000);
        }
      }
    };
    void follow();
    const watched: Watched = {
      gameId,
      seqs,
      types,
      playedTo: 0,
      reached: async (version, timeoutMs) => {
        const deadline = Date.now() + timeoutMs;
        while ((seqs.at(-1) ?? 0) < version && Date.now() < deadline) {
          await new Promise<void>((resolve) => {
            const wake = () => {
              waiters.delete(wake);
              resolve();
            };
            waiters.add(wake);
            setTimeout(wake, 200);
          });
        }
        return (seqs.at(-1) ?? 0) >= version;
      },
      drop: () => {
        if (!closed) socket?.terminate();
      },
      close: () => {
        closed = true;
        live?.close();
      },
    };
    this.watched.push(watched);
    return watched;
  }
}
