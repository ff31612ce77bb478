// Listens for "game moved" notifications from every instance (pg_notify at commit).
// A notification says only which game reached which version; listeners read the
// events themselves, so a lost or merged notification costs latency, never data.
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { NOTIFY_CHANNEL } from './store.ts';

export type GameMoved = (gameId: string, version: number) => void;

export class Notifier {
  private client: pg.Client | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly url: string,
    private readonly onMoved: GameMoved,
    private readonly log: FastifyBaseLogger,
    /** Called after a reconnect: notifications may have been missed meanwhile. */
    private readonly onReconnect: () => void = () => {},
  ) {}

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (message) => {
      const [gameId, version] = (message.payload ?? '').split(':');
      if (gameId && version) this.onMoved(gameId, Number(version));
    });
    client.on('error', (error) => {
      this.log.warn({ err: error }, 'notification connection lost; reconnecting');
      this.reconnectSoon();
    });
    await client.connect();
    await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
    this.client = client;
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
