// GET /games/{id}/race-log: who was first, for disputes (docs/realtime.md).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bearer } from './games.ts';
import { Problem } from './problem.ts';
import { RaceLog } from './race-log-schema.ts';
import { GameParams } from './schemas.ts';

export const raceLogRoutes: FastifyPluginAsyncZod = async (app) => {
  const { reads } = app.services;
  app.get('/games/:id/race-log', {
    schema: {
      operationId: 'getRaceLog',
      tags: ['games'],
      summary: 'Every race command received, accepted or refused, in the order decided',
      description:
        "Porca Miseria's grabs and slaps and Pechvogel's frustrate and reduce, each with its seat, the server's receive time and, when refused, the refusal's code. A refusal is recorded here before or together with its game's next append, and within about 10 ms when none follows. Nothing in it is hidden in these games, so seats, the referee and spectators may read it.",
      params: GameParams,
      security: [{ bearer: [] }, {}],
      response: { 200: RaceLog, 400: Problem, 403: Problem, 404: Problem, 429: Problem },
    },
    handler: async (request) => reads.raceLog(request.params.id, bearer(request)),
  });
};
