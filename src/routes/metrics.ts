// GET /metrics: the Prometheus text format of src/observability/metrics.ts.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bareRouteFailures } from './health.ts';

export const metricsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/metrics', {
    schema: { operationId: 'getMetrics', security: [],
      tags: ['operations'],
      summary: 'Prometheus metrics of this instance',
      description: 'The Prometheus text exposition format (text/plain; version=0.0.4); each metric is described in docs/operations.md.',
      // Text, sent as it is (a string with a text type does not go through the JSON serializer).
      response: { 200: { content: { 'text/plain': { schema: z.string().describe('Prometheus text exposition format 0.0.4') } } }, ...bareRouteFailures },
    },
    handler: async (_request, reply) => {
      const { registry } = app.services.metrics;
      reply.type(registry.contentType);
      return registry.metrics();
    },
  });
};
