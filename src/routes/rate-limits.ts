// Per-client rate limits (@fastify/rate-limit) on what costs the most: creating games
// and sending commands. A client is the organizer's API key when the request carries
// one (resolved before the limits run, routes/organizer-key.ts), else its address: an
// organizer running many tables from one host is counted by its key, and anonymous
// clients behind one address share that address's allowance.
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';

export interface RateLimits {
  /** Games one client may create per minute; 0: no limit. */
  readonly gamesPerMinute: number;
  /** Commands one client may send per second over HTTP; 0: no limit. */
  readonly commandsPerSecond: number;
  /** Registrations through a join link (and its lookups) per address a minute; 0 or absent: no limit. */
  readonly joinsPerMinute?: number;
}

/** Who a limit counts for. */
export const clientKey = (request: FastifyRequest): string => (request.organizer === null ? `address:${request.ip}` : `key:${request.organizer.keyId}`);

/** The error the plugin throws past the limit: errorHandler answers it with a 429
 * problem (`request/rate-limited`); the plugin has set Retry-After already. */
export class RateLimited extends Error {
  readonly statusCode = 429;
  readonly code = 'FST_ERR_RATE_LIMITED';
}

export async function registerRateLimits(app: FastifyInstance): Promise<void> {
  await app.register(fastifyRateLimit, {
    global: false,
    keyGenerator: clientKey,
    errorResponseBuilder: (_request, context) => new RateLimited(`too many requests: at most ${context.max} in ${context.after}; retry after the Retry-After seconds`),
  });
}

/** A route's `config` for a limit of `max` per `windowMs`; none for 0. */
export const limitOf = (max: number | undefined, windowMs: number): FastifyContextConfig => (max !== undefined && max > 0 ? { rateLimit: { max, timeWindow: windowMs } } : {});
