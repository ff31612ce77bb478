// Organizers and their API keys over HTTP. The environment's admin key creates
// organizers (each with a first key); an organizer's key with `keys:manage` creates,
// lists and revokes that organizer's keys. A key's secret is in the answer once.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminScope, Scope } from '../organizers/keys.ts';
import { requireOwnOrganizer, requireScope } from '../organizers/organizers.ts';
import { Problem } from './problem.ts';

const KeyInfo = z
  .object({
    id: z.string().describe('The public part of the key'),
    name: z.string(),
    scopes: z.array(z.string()).readonly(),
    createdAt: z.string(),
    expiresAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
  })
  .meta({ id: 'ApiKeyInfo' });

const NewKey = z
  .object({
    name: z.string().min(1).max(100),
    scopes: z.array(Scope).min(1).max(10),
    expiresAt: z.iso.datetime({ offset: true }).optional().describe('After this the key is refused with auth/key-expired'),
  })
  .strict()
  .meta({ id: 'NewApiKey' });

const CreatedKey = z.object({ key: z.string().describe('The whole key (sw_<id>_<secret>). Shown once: only its hash is kept.'), keyInfo: KeyInfo }).meta({ id: 'CreatedApiKey' });
const OrganizerParams = z.object({ organizerId: z.uuid() });
const errors = { 400: Problem, 401: Problem, 403: Problem, 404: Problem };
const security = [{ apiKey: [] }];

const toRequest = (body: z.infer<typeof NewKey>) => ({ name: body.name, scopes: body.scopes, ...(body.expiresAt === undefined ? {} : { expiresAt: new Date(body.expiresAt) }) });

export const organizerRoutes: FastifyPluginAsyncZod = async (app) => {
  const { organizers } = app.services;

  app.post('/organizers', {
    schema: { operationId: 'createOrganizer', description: 'With the admin key (SPIELWERK_ADMIN_KEY): creates an organizer and its first API key, whose secret is shown only in this answer.',
      tags: ['organizers'],
      summary: 'Create an organizer with its first API key (admin key only)',
      body: z.object({ name: z.string().min(1).max(100), key: NewKey }).strict(),
      security,
      response: { 201: CreatedKey.extend({ organizer: z.object({ id: z.string(), name: z.string() }) }), ...errors },
    },
    handler: async (request, reply) => {
      requireScope(request.organizer, adminScope);
      const created = await organizers.createOrganizer(request.body.name, toRequest(request.body.key));
      return reply.code(201).send(created);
    },
  });

  app.post('/organizers/:organizerId/keys', {
    schema: { operationId: 'createApiKey', description: 'Needs a key of this organizer with scope keys:manage. The new key\'s secret is shown only in this answer; only its SHA-256 is stored.', tags: ['organizers'], summary: 'Create another API key', params: OrganizerParams, body: NewKey, security, response: { 201: CreatedKey, ...errors } },
    handler: async (request, reply) => {
      const caller = manager(request.organizer);
      requireOwnOrganizer(caller, request.params.organizerId);
      return reply.code(201).send(await organizers.createKey(request.params.organizerId, toRequest(request.body)));
    },
  });

  app.get('/organizers/:organizerId/keys', {
    schema: { operationId: 'listApiKeys', description: 'Needs a key of this organizer with scope keys:manage. Lists ids, names, scopes and dates, never a secret.', tags: ['organizers'], summary: "The organizer's API keys (never their secrets)", params: OrganizerParams, security, response: { 200: z.object({ keys: z.array(KeyInfo) }), ...errors } },
    handler: async (request) => {
      requireOwnOrganizer(manager(request.organizer), request.params.organizerId);
      return { keys: await organizers.listKeys(request.params.organizerId) };
    },
  });

  app.delete('/organizers/:organizerId/keys/:keyId', {
    schema: { operationId: 'revokeApiKey', description: 'Needs a key of this organizer with scope keys:manage. A revoked key is refused from then on with auth/key-revoked.',
      tags: ['organizers'],
      summary: 'Revoke an API key (at once and for good)',
      params: OrganizerParams.extend({ keyId: z.string().max(40) }),
      security,
      response: { 200: KeyInfo, ...errors },
    },
    handler: async (request) => {
      requireOwnOrganizer(manager(request.organizer), request.params.organizerId);
      return organizers.revokeKey(request.params.organizerId, request.params.keyId);
    },
  });
};

/** The admin key manages every organizer's keys; an organizer's key needs keys:manage. */
function manager(principal: Parameters<typeof requireScope>[0]) {
  if (principal?.scopes.includes(adminScope)) return principal;
  return requireScope(principal, 'keys:manage');
}
