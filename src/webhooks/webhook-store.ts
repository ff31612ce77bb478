// The webhooks' tables: an organizer's receivers, and the deliveries to them. A
// delivery is written in the transaction that appends its tournament event (the
// outbox: nothing delivered is lost at a restart, nothing is delivered that did not
// commit), claimed by one instance at a time for a lease, and settled with a line in
// its attempt log.
import type pg from 'pg';

export interface WebhookRow {
  readonly id: string;
  readonly organizerId: string;
  readonly url: string;
  readonly secret: string;
  readonly events: readonly string[];
  readonly tournamentId: string | null;
  readonly createdAt: Date;
}

export interface Attempt {
  readonly at: string;
  /** The receiver's HTTP status; null when none came (the error says why). */
  readonly status: number | null;
  readonly error: string | null;
  readonly ms: number;
}

export interface DeliveryRow {
  readonly id: string;
  readonly webhookId: string;
  readonly tournamentId: string;
  readonly seq: number;
  readonly type: string;
  readonly status: 'pending' | 'delivered' | 'failed';
  readonly attempts: number;
  readonly nextAttemptAt: Date;
  readonly log: readonly Attempt[];
  readonly createdAt: Date;
  readonly deliveredAt: Date | null;
}

/** A delivery claimed for one attempt, with what sending it needs. */
export interface Claimed {
  readonly id: string;
  readonly type: string;
  readonly payload: Record<string, unknown>;
  readonly attempts: number;
  readonly url: string;
  readonly secret: string;
}

const webhookColumns = `id::text, organizer_id::text AS "organizerId", url, secret, events, tournament_id::text AS "tournamentId", created_at AS "createdAt"`;
const deliveryColumns = `id::text, webhook_id::text AS "webhookId", tournament_id::text AS "tournamentId", seq, type, status, attempts, next_attempt_at AS "nextAttemptAt", log, created_at AS "createdAt", delivered_at AS "deliveredAt"`;

export class WebhookStore {
  constructor(private readonly pool: pg.Pool) {}

  async insert(row: WebhookRow): Promise<void> {
    await this.pool.query(`INSERT INTO webhook (id, organizer_id, url, secret, events, tournament_id, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
      row.id, row.organizerId, row.url, row.secret, row.events, row.tournamentId, row.createdAt,
    ]);
  }

  async count(organizerId: string): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook WHERE organizer_id = $1::uuid`, [organizerId]);
    return rows[0]!.n;
  }

  async list(organizerId: string): Promise<WebhookRow[]> {
    const { rows } = await this.pool.query<WebhookRow>(`SELECT ${webhookColumns} FROM webhook WHERE organizer_id = $1::uuid ORDER BY created_at, id`, [organizerId]);
    return rows;
  }

  async find(organizerId: string, id: string): Promise<WebhookRow | null> {
    const { rows } = await this.pool.query<WebhookRow>(`SELECT ${webhookColumns} FROM webhook WHERE organizer_id = $1::uuid AND id = $2::uuid`, [organizerId, id]);
    return rows[0] ?? null;
  }

  /** Deletes the webhook and its deliveries; false when there was none. */
  async delete(organizerId: string, id: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(`DELETE FROM webhook WHERE organizer_id = $1::uuid AND id = $2::uuid`, [organizerId, id]);
    return rowCount === 1;
  }

  /** In the append's transaction: a delivery per event and webhook of the tournament's
   * organizer that takes its type (and, if it names one, is for this tournament). */
  async enqueue(client: pg.ClientBase, tournamentId: string, firstSeq: number, events: readonly { type: string }[], at: Date): Promise<void> {
    await client.query(
      `INSERT INTO webhook_delivery (id, webhook_id, tournament_id, seq, type, payload, status, next_attempt_at, created_at)
       SELECT gen_random_uuid(), w.id, t.id, $2::int + e.ord::int - 1, e.ev->>'type',
              jsonb_build_object('type', e.ev->>'type', 'tournament', jsonb_build_object('id', t.id, 'name', t.name), 'seq', $2::int + e.ord::int - 1, 'at', $3::timestamptz, 'event', e.ev),
              'pending', $3, $3
         FROM tournament t
         JOIN webhook w ON w.organizer_id = t.organizer_id AND (w.tournament_id IS NULL OR w.tournament_id = t.id)
         CROSS JOIN jsonb_array_elements($4::jsonb) WITH ORDINALITY AS e(ev, ord)
        WHERE t.id = $1::uuid AND e.ev->>'type' = ANY (w.events)`,
      [tournamentId, firstSeq, at, JSON.stringify(events)],
    );
  }

  /** Claims up to `limit` deliveries due at `now` for `leaseMs`: another instance skips
   * them, and takes them up again only if this one has not settled them by then. */
  async claim(now: Date, leaseMs: number, limit: number): Promise<Claimed[]> {
    const { rows } = await this.pool.query<Claimed>(
      `UPDATE webhook_delivery d SET attempts = d.attempts + 1, next_attempt_at = $1::timestamptz + make_interval(secs => $2::float8 / 1000)
         FROM (SELECT id FROM webhook_delivery WHERE status = 'pending' AND next_attempt_at <= $1 ORDER BY next_attempt_at, seq LIMIT $3 FOR UPDATE SKIP LOCKED) c, webhook w
        WHERE d.id = c.id AND w.id = d.webhook_id
        RETURNING d.id::text, d.type, d.payload, d.attempts, w.url, w.secret`,
      [now, leaseMs, limit],
    );
    return rows;
  }

  /** Settles a claimed attempt: delivered, failed for good, or due again at `retryAt`.
   * A claim that outlived its lease (and was claimed again) settles nothing. */
  async settle(id: string, attempts: number, attempt: Attempt, outcome: { status: 'delivered' | 'failed' } | { status: 'pending'; retryAt: Date }): Promise<void> {
    await this.pool.query(
      `UPDATE webhook_delivery SET status = $3, log = log || $4::jsonb,
              next_attempt_at = COALESCE($5, next_attempt_at), delivered_at = CASE WHEN $3 = 'delivered' THEN $6::timestamptz ELSE delivered_at END
        WHERE id = $1::uuid AND attempts = $2 AND status = 'pending'`,
      [id, attempts, outcome.status, JSON.stringify([attempt]), outcome.status === 'pending' ? outcome.retryAt : null, attempt.at],
    );
  }

  async deliveries(webhookId: string, status: DeliveryRow['status'] | undefined, limit: number): Promise<DeliveryRow[]> {
    const { rows } = await this.pool.query<DeliveryRow>(
      `SELECT ${deliveryColumns} FROM webhook_delivery WHERE webhook_id = $1::uuid AND ($2::text IS NULL OR status = $2) ORDER BY created_at DESC, seq DESC LIMIT $3`,
      [webhookId, status ?? null, limit],
    );
    return rows;
  }

  /** Makes a failed delivery due again now; false when it is not one of the webhook's failed ones. */
  async retry(webhookId: string, id: string, now: Date): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE webhook_delivery SET status = 'pending', next_attempt_at = $3 WHERE webhook_id = $1::uuid AND id = $2::uuid AND status = 'failed'`,
      [webhookId, id, now],
    );
    return rowCount === 1;
  }
}
