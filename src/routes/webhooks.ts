// Webhooks over HTTP: an organizer's key with `tournaments:run` registers, lists and
// deletes the organizer's webhooks, reads each one's delivery log and retries a failed
// delivery. The signing secret is in the creation's answer only.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ServiceError, serviceCodes } from '../errors.ts';
import { TournamentEvent } from '../tournaments/log.ts';
import { defaultWebhookEvents, MAX_WEBHOOKS } from '../webhooks/webhooks.ts';
import { organizerSecurity, runner, tournamentErrors } from './tournament-schemas.ts';

const eventTypes = TournamentEvent.options.map((o) => o.shape.type.value) as [string, ...string[]];
const Webhook = z
  .object({ id: z.string(), url: z.string(), events: z.array(z.string()).readonly(), tournament: z.string().nullable().describe('Only this tournament; null: all of the organizer\'s'), createdAt: z.string() })
  .meta({ id: 'Webhook' });
const Delivery = z
  .object({
    id: z.string().describe('Also the `id` of the delivered JSON and its Spielwerk-Delivery header'),
    tournament: z.string(),
    seq: z.number().int().describe("The event's seq in the tournament's log"),
    type: z.string(),
    status: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.number().int(),
    nextAttemptAt: z.string().nullable().describe('When it is tried (again), while pending'),
    createdAt: z.string(),
    deliveredAt: z.string().nullable(),
    log: z.array(z.object({ at: z.string(), status: z.number().int().nullable().describe("The receiver's HTTP status; null when none came"), error: z.string().nullable(), ms: z.number() })).readonly(),
  })
  .meta({ id: 'WebhookDelivery' });
const WebhookParams = z.object({ webhook: z.uuid() });

/** The organizer a webhook belongs to: the admin key has none. */
function owner(request: Parameters<typeof runner>[0]): string {
  const organizerId = runner(request);
  if (organizerId === null) throw new ServiceError(serviceCodes.keyRequired, "a webhook belongs to an organizer: use an organizer's key");
  return organizerId;
}

export const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const { webhooks } = app.services;

  app.post('/webhooks', {
    schema: {
      operationId: 'createWebhook',
      tags: ['webhooks'],
      summary: "Register a URL for the organizer's tournament events",
      description: [
        `Each event of the organizer's tournaments (or of \`tournament\`) whose type is in \`events\` (default ${defaultWebhookEvents.join(', ')}) is POSTed to \`url\` as JSON: \`{id, type, tournament: {id, name}, seq, at, event}\`, \`event\` as in GET /tournaments/{id}/events.`,
        'Headers: `Spielwerk-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the secret>`, `Spielwerk-Timestamp`, `Spielwerk-Event`, `Spielwerk-Delivery` (the id: a retry sends the same one). Check the signature on the body as it arrived and refuse old timestamps.',
        'A 2xx answer within 5 seconds delivers it; otherwise it is tried again after 10 s, 30 s, 1.5 min, … (at most 8 attempts, then `failed`). Deliveries are written with their events, so a restart loses none, and one instance sends each. Order them by `seq`.',
        `Only public http(s) addresses: loopback, private and special ranges are \`webhook/url-refused\` (unless the server runs with WEBHOOK_ALLOW_PRIVATE). At most ${MAX_WEBHOOKS} an organizer. Needs tournaments:run; the secret is in this answer only.`,
      ].join('\n\n'),
      body: z.strictObject({
        url: z.url().max(2000),
        events: z.array(z.enum(eventTypes)).min(1).max(eventTypes.length).default([...defaultWebhookEvents]),
        tournament: z.uuid().nullable().default(null),
      }),
      security: organizerSecurity,
      response: { 201: z.object({ webhook: Webhook, secret: z.string().describe('The HMAC-SHA256 key of the signatures. Shown once') }), ...tournamentErrors },
    },
    handler: async (request, reply) => reply.code(201).send(await webhooks.create(owner(request), { url: request.body.url, events: request.body.events, tournamentId: request.body.tournament })),
  });

  app.get('/webhooks', {
    schema: { operationId: 'listWebhooks', tags: ['webhooks'], summary: "The organizer's webhooks (never their secrets)", description: 'Needs tournaments:run.', security: organizerSecurity, response: { 200: z.object({ webhooks: z.array(Webhook) }), ...tournamentErrors } },
    handler: async (request) => ({ webhooks: await webhooks.list(owner(request)) }),
  });

  app.delete('/webhooks/:webhook', {
    schema: { operationId: 'deleteWebhook', tags: ['webhooks'], summary: 'Delete a webhook and its delivery log', description: 'Nothing more is delivered to it. Needs tournaments:run.', params: WebhookParams, security: organizerSecurity, response: { 200: z.object({ deleted: z.string() }), ...tournamentErrors } },
    handler: async (request) => webhooks.delete(owner(request), request.params.webhook),
  });

  app.get('/webhooks/:webhook/deliveries', {
    schema: {
      operationId: 'listWebhookDeliveries',
      tags: ['webhooks'],
      summary: "A webhook's delivery log, newest first",
      description: 'Each delivery with its status and every attempt (time, HTTP status or error, duration). Needs tournaments:run.',
      params: WebhookParams,
      querystring: z.object({ status: z.enum(['pending', 'delivered', 'failed']).optional(), limit: z.coerce.number().int().min(1).max(500).default(100) }),
      security: organizerSecurity,
      response: { 200: z.object({ deliveries: z.array(Delivery) }), ...tournamentErrors },
    },
    handler: async (request) => ({ deliveries: await webhooks.deliveries(owner(request), request.params.webhook, request.query.status, request.query.limit) }),
  });

  app.post('/webhooks/:webhook/deliveries/:delivery/retry', {
    schema: {
      operationId: 'retryWebhookDelivery',
      tags: ['webhooks'],
      summary: 'Try a failed delivery once more, now',
      description: 'Needs tournaments:run.',
      params: WebhookParams.extend({ delivery: z.uuid() }),
      security: organizerSecurity,
      response: { 200: z.object({ delivery: z.string(), status: z.literal('pending') }), ...tournamentErrors },
    },
    handler: async (request) => {
      const answer = await webhooks.retry(owner(request), request.params.webhook, request.params.delivery);
      app.services.dispatcher.wake();
      return answer;
    },
  });
};
