// A tournament's append-only log and the state it folds to. Like a game, a tournament
// is its events: who registered, how each round was paired, how each table finished,
// who withdrew or did not show. Everything else (the tournament row, the player and
// table lookups, standings, ratings) is derived from them and can be rebuilt.
import { z } from 'zod';
import type { Format } from '../domain/tournament/format.ts';
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

export interface Player extends PlayerEntry {
  readonly id: string;
}

export interface PairedTable {
  readonly gameId: string;
  readonly players: readonly string[];
}

export type TournamentEvent =
  | { readonly type: 'TournamentCreated'; readonly name: string; readonly gameType: string; readonly format: Format; readonly settings: Settings; readonly seed: string; readonly organizerId: string }
  /** The player's token hash is kept beside the log (tournament_player), not in it: the log is public. */
  | { readonly type: 'PlayerRegistered'; readonly player: Player }
  | { readonly type: 'RoundPaired'; readonly round: number; readonly tables: readonly PairedTable[]; readonly byes: readonly string[]; readonly repeats: number; readonly tableDeadline: string | null }
  | { readonly type: 'RoundScheduled'; readonly round: number; readonly at: string }
  | { readonly type: 'TableFinished'; readonly round: number; readonly gameId: string; readonly result: TableResult }
  | { readonly type: 'StandingsChanged'; readonly round: number; readonly standings: readonly Standing[] }
  | { readonly type: 'SeatTakenOver'; readonly round: number; readonly gameId: string; readonly player: string; readonly reason: 'no-show' | 'withdrew'; readonly forfeited: boolean }
  | { readonly type: 'PlayerWithdrew'; readonly player: string; readonly afterRound: number }
  | { readonly type: 'TournamentFinished'; readonly round: number };

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
