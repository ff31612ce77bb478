// Resolves an organizer's API key on every request into `request.organizer` (null
// without one), before anything else runs: a per-key rate limit registered after this
// plugin can count by `request.organizer?.keyId`. Seat and tournament tokens pass
// through untouched; only bearer tokens shaped like keys (`sw_…`) are looked up, and a
// bad one is refused rather than ignored.
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { looksLikeKey } from '../organizers/keys.ts';
import type { OrganizerPrincipal, Organizers } from '../organizers/organizers.ts';

declare module 'fastify' {
  interface FastifyRequest {
    organizer: OrganizerPrincipal | null;
  }
}

const BEARER = /^Bearer\s+(sw_\S+)$/i;

export function presentedKey(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header === undefined ? null : BEARER.exec(header);
  return match !== null && looksLikeKey(match[1]!) ? match[1] : undefined;
}

export const organizerKeyPlugin = fp<{ organizers: Organizers }>(async (app, { organizers }) => {
  app.decorateRequest('organizer', null);
  app.addHook('onRequest', async (request) => {
    const key = presentedKey(request);
    request.organizer = key === undefined ? null : await organizers.resolve(key);
  });
});
