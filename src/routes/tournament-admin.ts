// What an organizer does to a tournament under way besides pairing and registering:
// change its format (the way out of a blocked round), end it. Each needs a key with
// `tournaments:run` of the tournament's organizer, takes an Idempotency-Key and
// answers what it caused.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { formatSchema } from '../domain/tournament/format.ts';
import { IdempotencyHeaders } from './schemas.ts';
import { organizerSecurity, Outlook, Reason, runner, TournamentParams, tournamentErrors } from './tournament-schemas.ts';

export const tournamentAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { tournaments } = app.services;

  app.post('/tournaments/:id/format', {
    schema: {
      operationId: 'changeTournamentFormat',
      tags: ['tournaments'],
      summary: 'Change the format for the rounds to come',
      description:
        'Table sizes, byes, the number of rounds (not fewer than were paired; as many as were played ends the tournament), a knockout\'s advance and placement; not the kind. The way out of a blocked round: the server tries it again at once. The answer says what the next round will look like (`outlook`). Needs tournaments:run. Writes `FormatChanged`.',
      params: TournamentParams,
      headers: IdempotencyHeaders,
      body: z.strictObject({ format: formatSchema }),
      security: organizerSecurity,
      response: { 200: z.object({ format: z.unknown(), outlook: Outlook, finished: z.boolean().describe('Fewer rounds made the round played the last') }), ...tournamentErrors },
    },
    handler: async (request) => tournaments.changeFormat(runner(request), request.params.id, request.body.format, request.headers['idempotency-key']),
  });

  app.post('/tournaments/:id/end', {
    schema: {
      operationId: 'endTournament',
      tags: ['tournaments'],
      summary: 'End the tournament now',
      description:
        'Once no table is playing (adjudicate a stuck one first: `tournament/round-in-progress` otherwise), the standings as they are become the final ones: `StandingsChanged`, then `TournamentFinished` with `endedBy: "organizer"` and the reason. Ends a blocked tournament too. Needs tournaments:run.',
      params: TournamentParams,
      headers: IdempotencyHeaders,
      body: z.strictObject({ reason: Reason }),
      security: organizerSecurity,
      response: { 200: z.object({ finished: z.literal(true), round: z.number().int().describe('The last round played') }), ...tournamentErrors },
    },
    handler: async (request) => tournaments.end(runner(request), request.params.id, request.body.reason, request.headers['idempotency-key']),
  });
};
