// "Game moved" notifications between server instances over Postgres LISTEN/NOTIFY.
// A notification says only which game reached which version; listeners read the
// events themselves, so a lost or merged notification costs latency, never data.
// The other kind says a game's seats changed beside its log (a seat handed to a bot,
// see seatsChangedNotice): versions do not show that, and an instance that appended
// last trusts its copy of the game, seats and tokens included, until then.
// Announcements are sent after commit and batched: every announcement made in one
// turn of the event loop goes out in one round trip (an append that goes alone carries
// its own, see EventStore.appendOne). Each names the instance that sent it, which
// ignores its own: it has told its watchers already, from memory, and the database's
// clock at sending, so the receiver can tell how long the news took.
//
// Nothing is dropped while the connection is lost: announcements made meanwhile, or
// whose round trip failed, wait and go out on the next connection; after every
// reconnect the listener's `reconnected` catches up what this instance may have missed
// hearing. A query that does not answer within `timeoutMs` counts as a lost connection
// (a warning, once per incident), so a stuck connection never holds later
// announcements back.
import type { Logger } from '../lib/logger.ts';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { applicationName } from '../lib/application-name.ts';

export const NOTIFY_CHANNEL = 'spielwerk_game';

/** The sending database's clock in ms, as the payload carries it. */
export const NOTIFY_CLOCK_SQL = `floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint`;

/** `sentAt`: the database's clock when the announcement was sent (ms since the epoch). */
export type GameMoved = (gameId: string, version: number, sentAt: number | null) => void;

/** What a notifier tells its instance. */
export interface NotifierListener {
  readonly moved: GameMoved;
  /** Another instance changed the game's seats. */
  readonly seatsChanged: (gameId: string) => void;
  /** Called after a reconnect: notifications may have been missed meanwhile. */
  readonly reconnected: () => void;
}

/** SQL that tells every other instance that the seats of the game `gameId` changed;
 * `instance` is the one that changed them, which forgets its copy itself (both are SQL
 * expressions). Run in the transaction of the change: Postgres delivers it at commit,
 * or not at all. */
export const seatsChangedNotice = (gameId: string, instance: string): string =>
  `pg_notify('${NOTIFY_CHANNEL}', ${gameId} || ':${SEATS_CHANGED}:' || ${instance} || ':' || ${NOTIFY_CLOCK_SQL})`;

/** In a payload's version place: the seats changed (an older instance reads it as no new version). */
const SEATS_CHANGED = 'seats';

export interface NotifierOptions {
  /** How long LISTEN, an announcement or a connect may take before the connection counts as lost. */
  readonly timeoutMs?: number;
  /** The wait before the first attempt to reconnect; it doubles up to 2 s while attempts fail. */
  readonly retryMs?: number;
}

class TimedOut extends Error {}

export class Notifier {
  /** Signs this instance's announcements. */
  readonly instance = randomUUID();
  /** The listener's name in pg_stat_activity: the instance's first 8 digits tell instances of one process apart. */
  readonly applicationName = applicationName(`listener ${this.instance.slice(0, 8)}`);
  private client: pg.Client | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  private retryMs: number;
  private readonly outgoing = new Map<string, number>();
  private flushing = false;
  /** When the current incident (a query that did not answer in time) began. */
  private stuckSince: number | null = null;
  private readonly timeoutMs: number;
  private readonly firstRetryMs: number;

  constructor(
    private readonly url: string,
    private readonly listener: NotifierListener,
    private readonly log: Logger,
    options: NotifierOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 2000;
    this.retryMs = this.firstRetryMs = options.retryMs ?? 100;
  }

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, application_name: this.applicationName, connectionTimeoutMillis: this.timeoutMs });
    client.on('notification', (message) => {
      const [gameId, version, sender, sentAt] = (message.payload ?? '').split(':');
      if (!gameId || !version || sender === this.instance) return;
      if (version === SEATS_CHANGED) this.listener.seatsChanged(gameId);
      else this.listener.moved(gameId, Number(version), sentAt ? Number(sentAt) : null);
    });
    client.on('error', (error) => {
      if (this.client !== client) return;
      this.log.warn({ err: error }, 'notification connection lost; reconnecting');
      this.reconnectSoon();
    });
    try {
      await client.connect();
      await this.timed(client.query(`LISTEN ${NOTIFY_CHANNEL}`));
    } catch (error) {
      void client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryMs = this.firstRetryMs;
    this.scheduleFlush();
  }

  /** Tells every other instance that a game reached `version`. */
  announce(gameId: string, version: number): void {
    if (this.closed) return;
    this.keep(gameId, version);
    this.scheduleFlush();
  }

  private keep(gameId: string, version: number): void {
    this.outgoing.set(gameId, Math.max(version, this.outgoing.get(gameId) ?? 0));
  }

  private scheduleFlush(): void {
    if (this.flushing || this.outgoing.size === 0 || this.client === null) return;
    this.flushing = true;
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    const client = this.client;
    if (client === null) {
      // Lost since the flush was scheduled: start() flushes once connected again.
      this.flushing = false;
      return;
    }
    const sending = [...this.outgoing];
    this.outgoing.clear();
    try {
      const payloads = sending.map(([gameId, version]) => `${gameId}:${version}:${this.instance}`);
      await this.timed(client.query(`SELECT pg_notify('${NOTIFY_CHANNEL}', p || ':' || ${NOTIFY_CLOCK_SQL}) FROM unnest($1::text[]) AS p`, [payloads]));
      if (this.stuckSince !== null) {
        this.log.info({ stuckMs: Date.now() - this.stuckSince }, 'the notification connection answers again');
        this.stuckSince = null;
      }
    } catch (error) {
      // Kept for the next connection (a newer version announced meanwhile wins).
      for (const [gameId, version] of sending) this.keep(gameId, version);
      if (error instanceof TimedOut) this.stuck();
      else this.log.warn({ err: error }, 'announcing new versions failed; they go out again once the connection is back');
      if (this.client === client) this.reconnectSoon();
    } finally {
      this.flushing = false;
      this.scheduleFlush();
    }
  }

  /** A query did not answer: warned once per incident, then the connection is replaced. */
  private stuck(): void {
    if (this.stuckSince !== null) return;
    this.stuckSince = Date.now();
    this.log.warn({ timeoutMs: this.timeoutMs }, 'the notification connection did not answer in time; reconnecting');
  }

  private timed<T>(query: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new TimedOut(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    return Promise.race([query, timeout]).finally(() => clearTimeout(timer));
  }

  private reconnectSoon(): void {
    if (this.closed || this.retry !== null) return;
    void this.client?.end().catch(() => undefined);
    this.client = null;
    const wait = this.retryMs;
    this.retryMs = Math.min(2000, this.retryMs * 2);
    this.retry = setTimeout(() => {
      this.retry = null;
      this.start().then(this.listener.reconnected, (error: unknown) => {
        if (error instanceof TimedOut) this.stuck();
        this.reconnectSoon();
      });
    }, wait);
  }

  async stop(): Promise<void> {
    this.closed = true;
    if (this.retry !== null) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}
