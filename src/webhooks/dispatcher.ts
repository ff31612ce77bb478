// Sends the deliveries due: claims them (one instance each, for a lease), POSTs each
// as JSON with its signature and timestamp, and settles it: delivered on a 2xx,
// otherwise due again after a backoff that grows with each attempt, failed for good
// after the last. Woken at once when this instance appends something to deliver, and
// by a poll for the rest (other instances' appends, retries, claims whose lease ran out).
import http from 'node:http';
import https from 'node:https';
import type { Logger } from '../lib/logger.ts';
import { guardedLookup, isPrivateAddress } from './address-guard.ts';
import { signatureHeader, signatureValue } from './signing.ts';
import type { Claimed, WebhookStore } from './webhook-store.ts';

export interface DispatcherOptions {
  /** Deliver to loopback and private addresses too (WEBHOOK_ALLOW_PRIVATE). */
  readonly allowPrivate: boolean;
  /** How often the dispatcher looks for due deliveries by itself; 0: only when woken. */
  readonly pollMs: number;
  /** How long a claim keeps other instances off a delivery. */
  readonly leaseMs: number;
  /** How long the receiver has to answer. */
  readonly timeoutMs: number;
  /** Attempts before a delivery is failed for good. */
  readonly maxAttempts: number;
  /** The wait before attempt n + 1 after attempt n failed. */
  readonly backoffMs: (attempt: number) => number;
}

/** 10 s, 30 s, 1.5 min, 4.5 min, … (tripling), at most an hour: 8 attempts span about 3 hours. */
export const defaultBackoff = (attempt: number): number => Math.min(3_600_000, 10_000 * 3 ** (attempt - 1));

export const defaultDispatcherOptions: DispatcherOptions = { allowPrivate: false, pollMs: 1000, leaseMs: 30_000, timeoutMs: 5000, maxAttempts: 8, backoffMs: defaultBackoff };

const BATCH = 20;

export class WebhookDispatcher {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly store: WebhookStore,
    private readonly clock: () => number,
    private readonly log: Logger,
    private readonly options: DispatcherOptions,
  ) {}

  start(): void {
    this.stopped = false;
    if (this.options.pollMs > 0) {
      this.timer = setInterval(() => this.wake(), this.options.pollMs);
      this.timer.unref();
    }
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearInterval(this.timer);
    await this.running;
  }

  /** Looks for due deliveries now (again after the current pass, if one is under way). */
  wake(): void {
    if (this.stopped) return;
    if (this.running !== null) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .catch((error: unknown) => this.log.warn({ err: error }, 'delivering webhooks failed'))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Settles once no pass is under way (tests). */
  async idle(): Promise<void> {
    while (this.running !== null) await this.running;
  }

  /** Delivers what is due, a batch at a time, until nothing is. */
  private async pass(): Promise<void> {
    while (!this.stopped) {
      const claimed = await this.store.claim(new Date(this.clock()), this.options.leaseMs, BATCH);
      if (claimed.length === 0) return;
      await Promise.all(claimed.map((delivery) => this.deliver(delivery)));
    }
  }

  private async deliver(delivery: Claimed): Promise<void> {
    const started = this.clock();
    const body = JSON.stringify({ id: delivery.id, ...delivery.payload });
    const timestamp = Math.floor(started / 1000);
    const { status, error } = await this.post(delivery.url, body, {
      'content-type': 'application/json',
      'user-agent': 'Spielwerk-Webhooks/1',
      'spielwerk-delivery': delivery.id,
      'spielwerk-event': delivery.type,
      'spielwerk-timestamp': String(timestamp),
      [signatureHeader]: signatureValue(delivery.secret, timestamp, body),
    });
    const attempt = { at: new Date(started).toISOString(), status, error, ms: Math.max(0, this.clock() - started) };
    const delivered = status !== null && status >= 200 && status < 300;
    const outcome = delivered
      ? ({ status: 'delivered' } as const)
      : delivery.attempts >= this.options.maxAttempts
        ? ({ status: 'failed' } as const)
        : ({ status: 'pending', retryAt: new Date(started + this.options.backoffMs(delivery.attempts)) } as const);
    await this.store.settle(delivery.id, delivery.attempts, attempt, outcome);
    if (!delivered) this.log.info({ delivery: delivery.id, attempt: delivery.attempts, status, error, outcome: outcome.status }, 'a webhook delivery failed');
  }

  /** POSTs `body`; the status, or why none came. Redirects are not followed. */
  private post(raw: string, body: string, headers: Record<string, string>): Promise<{ status: number | null; error: string | null }> {
    return new Promise((resolve) => {
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        return resolve({ status: null, error: 'not a URL' });
      }
      const host = url.hostname.replace(/^\[|\]$/g, '');
      // A literal address is connected to without a lookup, so it is checked here.
      if (!this.options.allowPrivate && /^[\d.]+$|:/.test(host) && isPrivateAddress(host)) return resolve({ status: null, error: `${host} is a private address` });
      const request = (url.protocol === 'https:' ? https : http).request(url, {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        timeout: this.options.timeoutMs,
        ...(this.options.allowPrivate ? {} : { lookup: guardedLookup }),
      });
      request.on('response', (response) => {
        // The answer's body is read and dropped: only its status counts.
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? null, error: null }));
        response.on('error', (error) => resolve({ status: response.statusCode ?? null, error: error.message }));
      });
      request.on('timeout', () => request.destroy(new Error(`no answer within ${this.options.timeoutMs} ms`)));
      request.on('error', (error) => resolve({ status: null, error: error.message.slice(0, 300) }));
      request.end(body);
    });
  }
}
