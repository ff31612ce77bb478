// What an organizer does to a tournament under way besides pairing and registering:
// change its format (the way out of a blocked round), end it, run its check-in,
// adjudicate a table or correct its result. Each needs a key with `tournaments:run` of
// the tournament's organizer, takes an Idempotency-Key and answers what it caused.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { formatSchema } from '../domain/tournament/format.ts';
import { IdempotencyHeaders } from './schemas.ts';
import { organizerSecurity, Outlook, Reason, runner, TableResult, TournamentParams, tournamentErrors } from './tournament-schemas.ts';

const TableParams = TournamentParams.extend({ gameId: z.uuid() });
const Verdict = z
  .strictObject({
    ranks: z.array(z.int().min(1).max(100)).min(1).max(100).describe('Rank per seat, in seat order: 1 = first, ties share a rank'),
    scores: z.array(z.number().min(-1e9).max(1e9)).min(1).max(100).optional().describe('Score per seat; absent: 0 each when ending a table, unchanged when correcting one'),
    reason: Reason,
  })
  .meta({ id: 'TableVerdict' });
const CheckInWindow = z.object({ open: z.boolean(), closesAt: z.string().nullable() });
export const CheckedIn = z.object({ player: z.string(), checkedIn: z.literal(true), absent: z.null() }).meta({ id: 'CheckedIn' });

export const tournamentAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { tournaments, checkIns, adjudications } = app.services;

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

  app.post('/tournaments/:id/check-in/open', {
    schema: {
      operationId: 'openCheckIn',
      tags: ['tournaments'],
      summary: 'Open check-in before round 1',
      description:
        'From now on round 1 pairs only the players who checked in (POST /tournaments/me/check-in with their token, or the organizer for them); bots need not. Those who have not are left out of round 1 (`PlayerAbsent` "not-checked-in", shown by GET /tournaments/me) and come back by checking in later. `closesAt`: no check-in after it (absent players still come back). Refused once round 1 is paired. Needs tournaments:run.',
      params: TournamentParams,
      headers: IdempotencyHeaders,
      body: z.strictObject({ closesAt: z.iso.datetime({ offset: true }).nullable().default(null) }).default({ closesAt: null }),
      security: organizerSecurity,
      response: { 200: z.object({ checkIn: CheckInWindow, outlook: Outlook }), ...tournamentErrors },
    },
    handler: async (request) => checkIns.open(runner(request), request.params.id, request.body.closesAt, request.headers['idempotency-key']),
  });

  app.post('/tournaments/:id/check-in/close', {
    schema: {
      operationId: 'closeCheckIn',
      tags: ['tournaments'],
      summary: 'Close check-in',
      description: 'Players may no longer check in for round 1 (absent players still come back by checking in). Round 1 closes it too. Needs tournaments:run.',
      params: TournamentParams,
      headers: IdempotencyHeaders,
      security: organizerSecurity,
      response: { 200: z.object({ checkIn: CheckInWindow.nullable() }), ...tournamentErrors },
    },
    handler: async (request) => checkIns.close(runner(request), request.params.id, request.headers['idempotency-key']),
  });

  app.post('/tournaments/:id/players/:player/check-in', {
    schema: {
      operationId: 'checkInPlayer',
      tags: ['tournaments'],
      summary: 'Check a player in (at the desk)',
      description: 'Any time before the end: before round 1 the player is paired in it, later an absent player is paired again from the next round. Needs tournaments:run.',
      params: TournamentParams.extend({ player: z.string().max(100) }),
      headers: IdempotencyHeaders,
      security: organizerSecurity,
      response: { 200: CheckedIn, ...tournamentErrors },
    },
    handler: async (request) => checkIns.byOrganizer(runner(request), request.params.id, request.params.player, request.headers['idempotency-key']),
  });

  app.post('/tournaments/:id/tables/:gameId/adjudicate', {
    schema: {
      operationId: 'adjudicateTable',
      tags: ['tournaments'],
      summary: 'End a table still playing with a result',
      description:
        "For a stuck or disputed table: the game ends with this result and the reason (`GameAdjudicated` in its log, `ending.kind: \"adjudicated\"` in its views), and the tournament records it at once (`TableFinished` with `adjudicated`); standings, ratings, the feed and webhooks follow as for any table. A table that is over is corrected instead (`tournament/table-finished`). A result that does not fit the game (a rank per seat, someone first) is `lifecycle/invalid-result`. Needs tournaments:run.",
      params: TableParams,
      headers: IdempotencyHeaders,
      body: Verdict,
      security: organizerSecurity,
      response: { 200: z.object({ gameId: z.string(), round: z.number().int(), result: TableResult, reason: z.string() }), ...tournamentErrors },
    },
    handler: async (request) => adjudications.adjudicate(runner(request), request.params.id, request.params.gameId, request.body, request.headers['idempotency-key']),
  });

  app.post('/tournaments/:id/tables/:gameId/correct', {
    schema: {
      operationId: 'correctTable',
      tags: ['tournaments'],
      summary: "Correct a finished table's result",
      description:
        "The game's log gets `GameAdjudicated` with `correction: true` (its result is this one from now on), the tournament's `TableCorrected` (the result before and after, the reason) and `StandingsChanged`; the organizer's ratings of the game are folded again from all their tables. A table still playing is adjudicated instead (`tournament/table-running`); a knockout's table only until its next round is paired (`tournament/round-already-paired`). A finished game's reads are cached; a tournament's tables are never marked immutable, as a correction changes them. Needs tournaments:run.",
      params: TableParams,
      headers: IdempotencyHeaders,
      body: Verdict,
      security: organizerSecurity,
      response: { 200: z.object({ gameId: z.string(), round: z.number().int(), result: TableResult, previous: TableResult, reason: z.string() }), ...tournamentErrors },
    },
    handler: async (request) => adjudications.correct(runner(request), request.params.id, request.params.gameId, request.body, request.headers['idempotency-key']),
  });
};
