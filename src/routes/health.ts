import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { httpCodes, Problem, problem, sendProblem, shuttingDown } from './problem.ts';

/** What a route without parameters can still answer: 400 `request/not-websocket` to an
 * upgrade request, 503 `server/shutting-down` once the server closes. */
export const bareRouteFailures = { 400: Problem, 503: Problem } as const;

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/health', {
    schema: { operationId: 'getHealth', tags: ['operations'], summary: 'The process is up', description: 'Answers as long as the process runs; it does not touch the database.', security: [], response: { 200: z.object({ status: z.literal('ok') }), ...bareRouteFailures } },
    handler: async () => ({ status: 'ok' as const }),
  });

  app.get('/ready', {
    schema: {
      operationId: 'getReadiness',
      tags: ['operations'],
      summary: 'The database is reachable and the server is not shutting down',
      description: 'For load balancers: 503 `server/database-unavailable` while the database cannot be reached. On SIGTERM this answers 503 `server/shutting-down` at once, while requests are still served for the grace period (SHUTDOWN_GRACE_MS), so that a load balancer can stop sending traffic first.',
      security: [],
      response: { 200: z.object({ status: z.literal('ready') }), ...bareRouteFailures },
    },
    handler: async (_request, reply) => {
      if (app.lifecycle.draining) return sendProblem(reply, shuttingDown());
      try {
        await app.services.store.ping();
        return { status: 'ready' as const };
      } catch (error) {
        app.log.warn({ err: error }, 'readiness check failed');
        return sendProblem(reply, problem(503, httpCodes.databaseUnavailable, 'the database cannot be reached'));
      }
    },
  });
};
