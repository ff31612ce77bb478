// "Game moved" notifications between server instances over Postgres LISTEN/NOTIFY.
// A notification says only which game reached which version; listeners read the
// events themselves, so a lost or merged notification costs latency, never data.
// Announcements are sent after commit and batched: every announcement made in one
// turn of the event loop goes out in one round trip (an append that goes alone carries
// its own, see EventStore.appendOne). Each names the instance that sent it, which
// ignores its own: it has told its watchers already, from memory.
import type { Logger } from '../lib/logger.ts';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { applicationName } from '../lib/application-name.ts';

export const NOTIFY_CHANNEL = 'spielwerk_game';

export type GameMoved = (gameId: string, version: number) => void;

export class Notifier {
  /** Signs this instance's announcements. */
  readonly instance = randomUUID();
  private client: pg.Client | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  private readonly outgoing = new Map<string, number>();
  private flushing = false;

  constructor(
    private readonly url: string,
    private readonly onMoved: GameMoved,
    private readonly log: Logger,
    /** Called after a reconnect: notifications may have been missed meanwhile. */
    private readonly onReconnect: () => void = () => {},
  ) {}

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, application_name: applicationName('listener') });
    client.on('notification', (message) => {
      const [gameId, version, sender] = (message.payload ?? '').split(':');
      if (gameId && version && sender !== this.instance) this.onMoved(gameId, Number(version));
    });
    client.on('error', (error) => {
      this.log.warn({ err: error }, 'notification connection lost; reconnecting');
      this.reconnectSoon();
    });
    await client.connect();
    await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
    this.client = client;
  }

  /** Tells every other instance that a game reached `version`. */
  announce(gameId: string, version: number): void {
    if (this.closed) return;
    this.outgoing.set(gameId, Math.max(version, this.outgoing.get(gameId) ?? 0));
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.flushing || this.outgoing.size === 0) return;
    this.flushing = true;
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    const payloads = [...this.outgoing].map(([gameId, version]) => `${gameId}:${version}:${this.instance}`);
    this.outgoing.clear();
    try {
      await this.client?.query(`SELECT pg_notify('${NOTIFY_CHANNEL}', p) FROM unnest($1::text[]) AS p`, [payloads]);
    } catch (error) {
      this.log.warn({ err: error }, 'announcing new versions failed; watchers elsewhere catch up at their next check');
    } finally {
      this.flushing = false;
      this.scheduleFlush();
    }
  }

  private reconnectSoon(): void {
    if (this.closed || this.retry !== null) return;
    void this.client?.end().catch(() => undefined);
    this.client = null;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.start().then(this.onReconnect, () => this.reconnectSoon());
    }, 500);
  }

  async stop(): Promise<void> {
    this.closed = true;
    if (this.retry !== null) clearTimeout(this.retry);
    await this.client?.end().catch(() => undefined);
    this.client = null;
  }
}
