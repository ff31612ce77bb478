// The shapes of the tournament routes' answers (also the OpenAPI document's
// components), and what every tournament route shares: its parameters, its problems,
// the organizer key it needs.
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ServiceError, serviceCodes } from '../errors.ts';
import { requireScope } from '../organizers/organizers.ts';
import { PlayerEntry, TableResultSchema, type Player as TournamentPlayerEntry, type TournamentState } from '../tournaments/log.ts';
import { playerView } from '../tournaments/views.ts';
import { bearer } from './games.ts';
import { Problem } from './problem.ts';

export const TournamentParams = z.object({ id: z.uuid() });
export const tournamentErrors = { 400: Problem, 401: Problem, 403: Problem, 404: Problem, 409: Problem, 422: Problem };
export const organizerSecurity = [{ apiKey: [] }];
/** The organizer acting, with the scope that runs tournaments (null: the admin key). */
export const runner = (request: { organizer: Parameters<typeof requireScope>[0] }) => requireScope(request.organizer, 'tournaments:run').organizerId;
export const TableResult = TableResultSchema;

/** A player's tournament token, sent as the bearer. */
export function playerToken(request: FastifyRequest): string {
  const token = bearer(request);
  if (token === undefined) throw new ServiceError(serviceCodes.tokenRequired, 'send your tournament token as the bearer');
  return token;
}
export const Reason = z.string().trim().min(1).max(500).describe('Why, in a sentence: kept in the log and shown to everyone');

export const TournamentPlayer = PlayerEntry.extend({
  id: z.string(),
  withdrawn: z.boolean(),
  absent: z.enum(['not-checked-in', 'no-show']).nullable().describe('Why the player is left out of the rounds to come until they check in; null: paired'),
  checkedIn: z.boolean().describe('Checked in (bots always are); matters before round 1 of a tournament that opened check-in'),
}).meta({ id: 'TournamentPlayer' });
export const Table = z.object({ gameId: z.string(), players: z.array(z.string()).readonly(), placement: z.literal(true).optional().describe("A knockout's placement table, beside the final") });
export const Blocked = z
  .object({ round: z.number().int().describe('The round the server could not pair'), reason: z.string().describe('Why, and what the organizer may do') })
  .nullable()
  .describe('Set while the server cannot pair the next round: change the format (POST /tournaments/{id}/format), register players, check absent players in, or end the tournament (POST /tournaments/{id}/end)')
  .meta({ id: 'TournamentBlocked' });
export const Outlook = z
  .object({
    round: z.number().int(),
    players: z.number().int().describe("The players it would pair (a knockout's: those going on, tables still playing counted as full)"),
    tables: z.array(z.number().int()).readonly().describe('Table sizes'),
    byes: z.number().int(),
    blocked: z.string().nullable().describe('Why it could not be paired as things stand; null: it can'),
  })
  .nullable()
  .describe('The next round as it would sit now; null when no round is to come')
  .meta({ id: 'RoundOutlook' });
export const TournamentSummary = z
  .object({
    id: z.string(),
    name: z.string(),
    gameType: z.string(),
    organizerId: z.string(),
    format: z.unknown().describe('The format (see CreateTournament.format)'),
    settings: z.unknown(),
    status: z.enum(['registering', 'running', 'finished']),
    version: z.number().int().describe('Number of events in the tournament log'),
    blocked: Blocked,
    outlook: Outlook,
    checkIn: z.object({ open: z.boolean(), closesAt: z.string().nullable() }).nullable().describe('The check-in window before round 1; null: none was opened (everyone is paired)'),
    registration: z
      .object({ open: z.boolean(), capacity: z.number().int().nullable(), closesAt: z.string().nullable(), approval: z.enum(['automatic', 'manual']) })
      .nullable()
      .describe('Self-registration through a join link; null: never opened. The join code is not shown here (GET /tournaments/{id}/registration, organizer)'),
    players: z.array(TournamentPlayer),
    rounds: z.array(
      z.object({
        round: z.number().int(),
        byes: z.array(z.string()).readonly(),
        repeats: z.number().int().describe('Pairs seated together who had met before'),
        tableDeadline: z.string().nullable(),
        tables: z.array(Table.extend({ finished: z.boolean(), adjudicated: z.string().nullable().describe("The organizer's reason, when they set or corrected the table's result") })),
      }),
    ),
    scheduled: z.object({ round: z.number().int(), at: z.string() }).nullable(),
  })
  .meta({ id: 'TournamentSummary' });

export const MyTournament = z
  .object({
    tournament: z.string(),
    name: z.string().describe("The tournament's name"),
    status: z.enum(['registering', 'running', 'finished']),
    player: TournamentPlayer.nullable().describe('null while a self-registration entry is not a player (see entry)'),
    entry: z.object({ id: z.string(), status: z.enum(['pending', 'approved', 'refused', 'removed']) }).nullable().describe('The self-registration entry the token came from; null for players the organizer registered'),
    table: z.object({ round: z.number().int(), gameId: z.string(), seat: z.number().int() }).nullable().describe('Where to play now; null between rounds, or when not paired'),
    checkIn: z.object({ open: z.boolean(), closesAt: z.string().nullable() }).nullable().describe('The check-in window; null: none was opened'),
  })
  .meta({ id: 'MyTournament' });

export const myView = (
  state: TournamentState,
  player: TournamentPlayerEntry | null,
  table: z.infer<typeof MyTournament>['table'],
  entry: z.infer<typeof MyTournament>['entry'],
): z.infer<typeof MyTournament> => ({
  tournament: state.id,
  name: state.name,
  status: state.status,
  player: player === null ? null : playerView(state, player),
  entry,
  table,
  checkIn: state.checkIn,
});

export const PlayerTokens = z.array(z.object({ player: z.string(), token: z.string().nullable().describe("The player's tournament token (null for a bot). Shown once.") }));
export const RoundAnswer = z
  .object({
    round: z.number().int(),
    scheduled: z.string().nullable(),
    tables: z.array(Table).readonly(),
    leftOut: z.array(z.string()).readonly().describe('Players left out of this round for not checking in (each told by PlayerAbsent and GET /tournaments/me)'),
  })
  .meta({ id: 'RoundPaired' });

export const StandingsView = z
  .object({
    tournament: z.string(),
    round: z.number().int(),
    finished: z.boolean(),
    blocked: Blocked,
    standings: z.array(
      z.object({
        player: z.string(),
        name: z.string(),
        externalId: z.string().nullable(),
        rank: z.number().int(),
        points: z.number(),
        played: z.number().int(),
        wins: z.number().int(),
        byes: z.number().int(),
        tieBreaks: z.record(z.string(), z.number()),
        withdrawn: z.boolean(),
        absent: z.enum(['not-checked-in', 'no-show']).nullable(),
        reached: z.number().int().optional().describe("A knockout's: the last round the player sat at a main table or had a bye (the ranking's first key)"),
        rating: z.object({ mu: z.number(), sigma: z.number(), ordinal: z.number(), tables: z.number().int() }).nullable(),
      }),
    ),
  })
  .meta({ id: 'Standings' });

