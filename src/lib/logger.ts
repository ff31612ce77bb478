// The logging the service's own parts need: Fastify's pino logger fits it, and so does
// any pino logger, so nothing below the routes has to know about Fastify.
import type { BaseLogger } from 'pino';

export type Logger = Pick<BaseLogger, 'debug' | 'info' | 'warn' | 'error'>;
