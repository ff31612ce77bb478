// Webhooks: an organizer registers URLs that receive their tournaments' events (rounds
// paired, tables finished, standings changed, tournaments blocked and finished, or the
// types they choose) as signed JSON. This folder owns the webhook tables, the address
// checks, the signing and the dispatcher; it may import src/lib and src/errors.ts. The
// tournaments' store writes the deliveries with their events through the hook app.ts
// wires to `enqueue`.
import { randomBytes, randomUUID } from 'node:crypto';
import { ServiceError, serviceCodes } from '../errors.ts';
import { urlRefusal } from './address-guard.ts';
import type { DeliveryRow, WebhookRow, WebhookStore } from './webhook-store.ts';

/** What a webhook receives unless it names other types. */
export const defaultWebhookEvents = ['RoundPaired', 'TableFinished', 'StandingsChanged', 'TournamentBlocked', 'TournamentFinished'] as const;

/** Webhooks one organizer may have. */
export const MAX_WEBHOOKS = 20;

export interface NewWebhook {
  readonly url: string;
  readonly events: readonly string[];
  readonly tournamentId: string | null;
}

export const webhookView = (w: WebhookRow) => ({ id: w.id, url: w.url, events: w.events, tournament: w.tournamentId, createdAt: w.createdAt.toISOString() });

export const deliveryView = (d: DeliveryRow) => ({
  id: d.id,
  tournament: d.tournamentId,
  seq: d.seq,
  type: d.type,
  status: d.status,
  attempts: d.attempts,
  nextAttemptAt: d.status === 'pending' ? d.nextAttemptAt.toISOString() : null,
  createdAt: d.createdAt.toISOString(),
  deliveredAt: d.deliveredAt?.toISOString() ?? null,
  log: d.log,
});

export class Webhooks {
  constructor(
    private readonly store: WebhookStore,
    private readonly clock: () => number,
    private readonly allowPrivate: boolean,
  ) {}

  /** Registers a webhook; its signing secret is in the answer, once. */
  async create(organizerId: string, request: NewWebhook) {
    const refused = await urlRefusal(request.url, this.allowPrivate);
    if (refused !== null) throw new ServiceError(serviceCodes.webhookUrlRefused, `${refused}: the server delivers only to public http(s) addresses`);
    if ((await this.store.count(organizerId)) >= MAX_WEBHOOKS) throw new ServiceError(serviceCodes.webhookLimit, `an organizer has at most ${MAX_WEBHOOKS} webhooks: delete one first`);
    const row: WebhookRow = { id: randomUUID(), organizerId, url: request.url, secret: `whsec_${randomBytes(24).toString('base64url')}`, events: [...new Set(request.events)], tournamentId: request.tournamentId, createdAt: new Date(this.clock()) };
    await this.store.insert(row);
    return { webhook: webhookView(row), secret: row.secret };
  }

  async list(organizerId: string) {
    return (await this.store.list(organizerId)).map(webhookView);
  }

  async delete(organizerId: string, id: string) {
    if (!(await this.store.delete(organizerId, id))) throw notFound(id);
    return { deleted: id };
  }

  async deliveries(organizerId: string, id: string, status: DeliveryRow['status'] | undefined, limit: number) {
    await this.webhook(organizerId, id);
    return (await this.store.deliveries(id, status, limit)).map(deliveryView);
  }

  /** A failed delivery is tried once more, now. */
  async retry(organizerId: string, id: string, deliveryId: string) {
    await this.webhook(organizerId, id);
    if (!(await this.store.retry(id, deliveryId, new Date(this.clock())))) throw new ServiceError(serviceCodes.webhookNotFound, `webhook ${id} has no failed delivery ${deliveryId}`);
    return { delivery: deliveryId, status: 'pending' as const };
  }

  private async webhook(organizerId: string, id: string): Promise<WebhookRow> {
    const found = await this.store.find(organizerId, id);
    if (found === null) throw notFound(id);
    return found;
  }
}

const notFound = (id: string) => new ServiceError(serviceCodes.webhookNotFound, `no webhook ${id}`);
