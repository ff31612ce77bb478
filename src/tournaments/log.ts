// A tournament's append-only log and the state it folds to. Like a game, a tournament
// is its events: who registered, how each round was paired, how each table finished,
// who withdrew or did not show. Everything else (the tournament row, the player and
// table lookups, standings, ratings) is derived from them and can be rebuilt.
import { z } from 'zod';
import { formatSchema, type Format } from '../domain/tournament/format.ts';
import type { TableResult } from '../domain/tournament/results.ts';
import { pointsSchemeSchema, tieBreakNames, type Standing } from '../domain/tournament/standings.ts';

export const Settings = z
  .strictObject({
    /** auto: the next round is paired as soon as the last table of a round finishes. */
    advance: z.enum(['auto', 'organizer']).default('auto'),
    /** Seconds a paired table waits for a player's first command; then the seat is
     * played by a bot, and with `forfeit` the player also ranks last at that table. */
    noShow: z.strictObject({ afterSeconds: z.int().min(1).max(86_400), action: z.enum(['bot', 'forfeit']) }).optional(),
    /** The game's options, the same at every table. */
    options: z.unknown().optional(),
    points: pointsSchemeSchema.optional(),
    tieBreaks: z.array(z.enum(tieBreakNames)).max(4).optional(),
    /** Update the players' ratings with every finished table. */
    rated: z.boolean().default(true),
  })
  .meta({ id: 'TournamentSettings' });
export type Settings = z.infer<typeof Settings>;

export const PlayerEntry = z
  .strictObject({
    name: z.string().min(1).max(100),
    externalId: z.string().min(1).max(100).optional().describe('Your id for the player; ratings follow it across tournaments'),
    seed: z.number().min(-1000).max(1000).optional().describe('A known strength on the rating scale (mu, 25 for a newcomer): higher is stronger'),
    bot: z.string().max(40).optional().describe("A server-side bot of the game (e.g. greedy) instead of a person"),
  })
  .meta({ id: 'TournamentPlayerEntry' });
export type PlayerEntry = z.infer<typeof PlayerEntry>;

export const Player = PlayerEntry.extend({ id: z.string() });
export type Player = Readonly<z.infer<typeof Player>>;

const PairedTable = z.object({ gameId: z.string(), players: z.array(z.string()).readonly().describe('Player ids in seat order: seat 0 starts') });
export type PairedTable = z.infer<typeof PairedTable>;

const TableResultSchema: z.ZodType<TableResult> = z.object({
  tableId: z.string().describe('The game id'),
  round: z.int(),
  players: z.array(z.string()).readonly().describe('Player ids in seat order'),
  ranks: z.array(z.int()).readonly().describe('Rank per player, same order: 1 = first, ties share a rank'),
  scores: z.array(z.number()).readonly().describe('In-game score per player, same order'),
  forfeited: z.array(z.string()).readonly().optional().describe('Players who forfeited (no-show, withdrawn mid-game): they rank last'),
});

const StandingSchema: z.ZodType<Standing> = z.object({
  player: z.string(),
  rank: z.int(),
  points: z.number(),
  played: z.int(),
  wins: z.int(),
  byes: z.int(),
  // Every tie-break by name (a record keyed by an enum would document no properties).
  tieBreaks: z.object({ score: z.number(), 'opponents-points': z.number(), 'head-to-head': z.number(), wins: z.number() }),
});

/** The tournament's log, event by event: what GET /tournaments/{id}/events pages and
 * the live feed (/tournaments/{id}/live) pushes, and what the AsyncAPI document shows. */
export const TournamentEvent = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('TournamentCreated'), name: z.string(), gameType: z.string(), format: formatSchema, settings: Settings, seed: z.string(), organizerId: z.string() }),
    /** The player's token hash is kept beside the log (tournament_player), not in it: the log is public. */
    z.object({ type: z.literal('PlayerRegistered'), player: Player }),
    z.object({
      type: z.literal('RoundPaired'),
      round: z.int(),
      tables: z.array(PairedTable).readonly(),
      byes: z.array(z.string()).readonly(),
      repeats: z.int().describe('Pairs seated together who had met before'),
      tableDeadline: z.string().nullable(),
    }),
    z.object({ type: z.literal('RoundScheduled'), round: z.int(), at: z.string() }),
    z.object({ type: z.literal('TableFinished'), round: z.int(), gameId: z.string(), result: TableResultSchema }),
    z.object({ type: z.literal('StandingsChanged'), round: z.int(), standings: z.array(StandingSchema).readonly() }),
    z.object({ type: z.literal('SeatTakenOver'), round: z.int(), gameId: z.string(), player: z.string(), reason: z.enum(['no-show', 'withdrew']), forfeited: z.boolean() }),
    z.object({ type: z.literal('PlayerWithdrew'), player: z.string(), afterRound: z.int() }),
    z.object({ type: z.literal('TournamentFinished'), round: z.int() }),
  ])
  .meta({ id: 'TournamentEvent' });
export type TournamentEvent = z.infer<typeof TournamentEvent>;

export interface Round {
  readonly round: number;
  readonly tables: readonly PairedTable[];
  readonly byes: readonly string[];
  readonly repeats: number;
  readonly tableDeadline: string | null;
}

export type TournamentStatus = 'registering' | 'running' | 'finished';

export interface TournamentState {
  readonly id: string;
  readonly version: number;
  readonly name: string;
  readonly gameType: string;
  readonly format: Format;
  readonly settings: Settings;
  readonly seed: string;
  readonly organizerId: string;
  readonly players: readonly Player[];
  readonly withdrawn: ReadonlySet<string>;
  readonly rounds: readonly Round[];
  /** By game id. */
  readonly results: ReadonlyMap<string, TableResult>;
  /** Players forfeited per game id (no-shows with `forfeit`, withdrawals mid-game). */
  readonly forfeits: ReadonlyMap<string, readonly string[]>;
  /** Seats already handed to a bot, as `gameId:player`. */
  readonly takenOver: ReadonlySet<string>;
  readonly scheduled: { readonly round: number; readonly at: string } | null;
  readonly status: TournamentStatus;
}

/** The state after the log's first event, which must be TournamentCreated. */
function created(id: string, event: TournamentEvent): TournamentState {
  if (event.type !== 'TournamentCreated') throw new Error(`tournament ${id} does not start with TournamentCreated`);
  const { name, gameType, format, settings, seed, organizerId } = event;
  return {
    id, version: 1, name, gameType, format, settings, seed, organizerId,
    players: [], withdrawn: new Set(), rounds: [], results: new Map(), forfeits: new Map(), takenOver: new Set(), scheduled: null, status: 'registering',
  };
}

export function evolve(state: TournamentState, event: TournamentEvent): TournamentState {
  const next = { ...state, version: state.version + 1 };
  switch (event.type) {
    case 'TournamentCreated':
      throw new Error(`tournament ${state.id} was created twice`);
    case 'PlayerRegistered':
      return { ...next, players: [...state.players, event.player] };
    case 'RoundPaired':
      return { ...next, status: 'running', scheduled: null, rounds: [...state.rounds, { round: event.round, tables: event.tables, byes: event.byes, repeats: event.repeats, tableDeadline: event.tableDeadline }] };
    case 'RoundScheduled':
      return { ...next, scheduled: { round: event.round, at: event.at } };
    case 'TableFinished':
      return { ...next, results: new Map(state.results).set(event.gameId, event.result) };
    case 'StandingsChanged':
      return next;
    case 'SeatTakenOver': {
      const takenOver = new Set(state.takenOver).add(`${event.gameId}:${event.player}`);
      if (!event.forfeited) return { ...next, takenOver };
      const forfeits = new Map(state.forfeits).set(event.gameId, [...(state.forfeits.get(event.gameId) ?? []), event.player]);
      return { ...next, takenOver, forfeits };
    }
    case 'PlayerWithdrew':
      return { ...next, withdrawn: new Set(state.withdrawn).add(event.player) };
    case 'TournamentFinished':
      return { ...next, status: 'finished', scheduled: null };
  }
}

export function fold(id: string, events: readonly TournamentEvent[]): TournamentState {
  const [first, ...rest] = events;
  if (first === undefined) throw new Error(`tournament ${id} has no events`);
  return rest.reduce(evolve, created(id, first));
}

export const currentRound = (state: TournamentState): Round | undefined => state.rounds.at(-1);

/** Whether every table of the round has its result. */
export const roundComplete = (state: TournamentState, round: Round): boolean => round.tables.every((t) => state.results.has(t.gameId));

export const activePlayers = (state: TournamentState): Player[] => state.players.filter((p) => !state.withdrawn.has(p.id));

export const allResults = (state: TournamentState): TableResult[] => [...state.results.values()];

export const allByes = (state: TournamentState): { round: number; player: string }[] =>
  state.rounds.flatMap((r) => r.byes.map((player) => ({ round: r.round, player })));

/** The table a player sits at in the current round, if it is still playing. */
export function currentTable(state: TournamentState, player: string): { round: number; gameId: string; seat: number } | null {
  const round = currentRound(state);
  if (round === undefined) return null;
  for (const table of round.tables) {
    const seat = table.players.indexOf(player);
    if (seat >= 0 && !state.results.has(table.gameId)) return { round: round.round, gameId: table.gameId, seat };
  }
  return null;
}
