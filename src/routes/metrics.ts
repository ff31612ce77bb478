// GET /metrics: the Prometheus text format of src/observability/metrics.ts.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const metricsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/metrics', {
    schema: { operationId: 'getMetrics', security: [],
      tags: ['operations'],
      summary: 'Prometheus metrics of this instance',
      // No response schema: the text goes out as it is, not through the JSON serializer.
      description: 'The Prometheus text exposition format (text/plain; version=0.0.4); each metric is described in docs/operations.md.',
    },
    handler: async (_request, reply) => {
      const { registry } = app.services.metrics;
      reply.type(registry.contentType);
      return registry.metrics();
    },
  });
};
