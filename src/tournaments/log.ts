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
    /** Seconds after the pairing from which a seat is a no-show when the game waits on
     * it and its player has never opened the table: then the seat is played by a bot,
     * and with `forfeit` the player also ranks last at that table (docs/tournaments.md). */
    noShow: z
      .strictObject({
        afterSeconds: z.int().min(1).max(86_400),
        action: z.enum(['bot', 'forfeit']),
        absentAfter: z.int().min(0).max(100).optional().describe('After this many no-shows (default 1) the player is left out of later rounds: marked absent (back once they check in) or, with then "withdraw", withdrawn. 0: paired on regardless'),
        then: z.enum(['absent', 'withdraw']).optional().describe('What absentAfter no-shows bring (default absent)'),
      })
      .optional(),
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

const PairedTable = z.object({
  gameId: z.string(),
  players: z.array(z.string()).readonly().describe('Player ids in seat order: seat 0 starts'),
  placement: z.literal(true).optional().describe("A knockout's placement table, beside the final: the places after the final's"),
});
export type PairedTable = z.infer<typeof PairedTable>;

export const TableResultSchema: z.ZodType<TableResult> = z.object({
  tableId: z.string().describe('The game id'),
  round: z.int(),
  players: z.array(z.string()).readonly().describe('Player ids in seat order'),
  ranks: z.array(z.int()).readonly().describe('Rank per player, same order: 1 = first, ties share a rank'),
  scores: z.array(z.number()).readonly().describe('In-game score per player, same order'),
  forfeited: z.array(z.string()).readonly().optional().describe('Players who forfeited (no-show, withdrawn mid-game): they rank last and get no in-game score'),
  absent: z.array(z.string()).readonly().optional().describe('Players who never played the table (no-shows): it is not rated for them'),
  placement: z.boolean().optional().describe("A knockout's placement table"),
}).meta({ id: 'TableResult' });

const StandingSchema: z.ZodType<Standing> = z.object({
  player: z.string(),
  rank: z.int(),
  points: z.number(),
  played: z.int(),
  wins: z.int(),
  byes: z.int(),
  // Every tie-break by name (a record keyed by an enum would document no properties).
  tieBreaks: z.object({ score: z.number(), 'opponents-points': z.number(), 'head-to-head': z.number(), wins: z.number() }),
  reached: z.int().optional().describe("A knockout's: the last round the player sat at a main table or had a bye"),
});

const Reason = z.string().min(1).max(500);

/** The tournament's log, event by event: what GET /tournaments/{id}/events pages and
 * the live feed (/tournaments/{id}/live) pushes, and what the AsyncAPI document shows. */
export const TournamentEvent = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('TournamentCreated'), name: z.string(), gameType: z.string(), format: formatSchema, settings: Settings, seed: z.string(), organizerId: z.string() }),
    /** The player's token hash is kept beside the log (tournament_player), not in it: the log is public. */
    z.object({ type: z.literal('PlayerRegistered'), player: Player, entry: z.string().optional().describe('The self-registration entry it came from (POST /registrations/{code})') }),
    z.object({ type: z.literal('EntryReceived'), entry: z.string() }).describe('Someone registered through the join link and waits for the organizer (manual approval); the name is not in the public log'),
    z.object({ type: z.literal('EntryRefused'), entry: z.string() }).describe('The organizer refused a pending entry'),
    z.object({
      type: z.literal('RoundPaired'),
      round: z.int(),
      tables: z.array(PairedTable).readonly(),
      byes: z.array(z.string()).readonly(),
      repeats: z.int().describe('Pairs seated together who had met before'),
      tableDeadline: z.string().nullable(),
    }),
    z.object({ type: z.literal('RoundScheduled'), round: z.int(), at: z.string() }),
    z.object({
      type: z.literal('TableFinished'),
      round: z.int(),
      gameId: z.string(),
      result: TableResultSchema,
      adjudicated: z.object({ reason: Reason }).optional().describe('The organizer ended the table with this result (GameAdjudicated in the game\'s log)'),
    }),
    z
      .object({ type: z.literal('TableCorrected'), round: z.int(), gameId: z.string(), result: TableResultSchema, previous: TableResultSchema, reason: Reason })
      .describe("The organizer corrected a finished table's result (GameAdjudicated with correction in the game's log); standings and ratings follow"),
    z.object({ type: z.literal('StandingsChanged'), round: z.int(), standings: z.array(StandingSchema).readonly() }),
    z.object({ type: z.literal('SeatTakenOver'), round: z.int(), gameId: z.string(), player: z.string(), reason: z.enum(['no-show', 'withdrew']), forfeited: z.boolean() }),
    z.object({
      type: z.literal('PlayerWithdrew'),
      player: z.string(),
      afterRound: z.int(),
      reason: z.enum(['withdrew', 'removed', 'no-show']).optional().describe('withdrew (the organizer withdrew them; also when absent), removed (an entry the organizer took out), no-show (noShow.then "withdraw")'),
    }),
    z
      .object({ type: z.literal('PlayerAbsent'), player: z.string(), fromRound: z.int(), reason: z.enum(['not-checked-in', 'no-show']) })
      .describe('The player is left out of the rounds from fromRound on until they check in'),
    z.object({ type: z.literal('CheckInOpened'), closesAt: z.string().nullable() }).describe('Players check in from now until closesAt (or round 1); those who have not are left out of round 1'),
    z.object({ type: z.literal('CheckInClosed') }),
    z.object({ type: z.literal('PlayerCheckedIn'), player: z.string(), by: z.enum(['player', 'organizer']) }).describe('Checked in: paired from the next round (an absent player is back)'),
    z
      .object({
        type: z.literal('RegistrationOpened'),
        capacity: z.int().nullable(),
        closesAt: z.string().nullable(),
        approval: z.enum(['automatic', 'manual']),
      })
      .describe('Players may register themselves through the join link (its code is not in the log)'),
    z.object({ type: z.literal('RegistrationClosed') }),
    z
      .object({ type: z.literal('TournamentBlocked'), round: z.int(), reason: z.string() })
      .describe('The server could not pair this round: the organizer changes the format, registers players, checks absent players in, or ends the tournament'),
    z.object({ type: z.literal('FormatChanged'), format: formatSchema }).describe('The organizer changed the format (table sizes, byes, rounds) for the rounds still to come'),
    z.object({
      type: z.literal('TournamentFinished'),
      round: z.int(),
      endedBy: z.literal('organizer').optional().describe('The organizer ended it before its last round'),
      reason: Reason.optional(),
    }),
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

export type AbsenceReason = 'not-checked-in' | 'no-show';

export interface Registration {
  readonly open: boolean;
  readonly capacity: number | null;
  readonly closesAt: string | null;
  readonly approval: 'automatic' | 'manual';
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
  /** The round the server could not pair, and why; null when nothing blocks. */
  readonly blocked: { readonly round: number; readonly reason: string } | null;
  /** Players left out of the rounds to come until they check in. */
  readonly absent: ReadonlyMap<string, AbsenceReason>;
  /** Seats of no-shows per game id: they never played there. */
  readonly noShows: ReadonlyMap<string, readonly string[]>;
  readonly checkedIn: ReadonlySet<string>;
  /** The check-in window before round 1; null: none was opened (everyone is paired). */
  readonly checkIn: { readonly open: boolean; readonly closesAt: string | null } | null;
  readonly registration: Registration | null;
  /** Self-registration entries waiting for the organizer's approval. */
  readonly pendingEntries: ReadonlySet<string>;
  /** The entry each player who registered through the join link came from, and whether
   * the organizer removed it again. */
  readonly entryOf: ReadonlyMap<string, { readonly id: string; readonly removed: boolean }>;
  /** Adjudication and correction reasons by game id. */
  readonly adjudicated: ReadonlyMap<string, string>;
}

/** The state after the log's first event, which must be TournamentCreated. */
function created(id: string, event: TournamentEvent): TournamentState {
  if (event.type !== 'TournamentCreated') throw new Error(`tournament ${id} does not start with TournamentCreated`);
  const { name, gameType, format, settings, seed, organizerId } = event;
  return {
    id, version: 1, name, gameType, format, settings, seed, organizerId,
    players: [], withdrawn: new Set(), rounds: [], results: new Map(), forfeits: new Map(), takenOver: new Set(), scheduled: null, status: 'registering',
    blocked: null, absent: new Map(), noShows: new Map(), checkedIn: new Set(), checkIn: null, registration: null, pendingEntries: new Set(), entryOf: new Map(), adjudicated: new Map(),
  };
}

export function evolve(state: TournamentState, event: TournamentEvent): TournamentState {
  const next = { ...state, version: state.version + 1 };
  switch (event.type) {
    case 'TournamentCreated':
      throw new Error(`tournament ${state.id} was created twice`);
    case 'PlayerRegistered':
      if (event.entry === undefined) return { ...next, players: [...state.players, event.player] };
      return {
        ...next,
        players: [...state.players, event.player],
        pendingEntries: without(state.pendingEntries, event.entry),
        entryOf: new Map(state.entryOf).set(event.player.id, { id: event.entry, removed: false }),
      };
    case 'EntryReceived':
      return { ...next, pendingEntries: new Set(state.pendingEntries).add(event.entry) };
    case 'EntryRefused':
      return { ...next, pendingEntries: without(state.pendingEntries, event.entry) };
    case 'RoundPaired': {
      const checkIn = state.checkIn === null ? null : { ...state.checkIn, open: false };
      return { ...next, status: 'running', scheduled: null, blocked: null, checkIn, rounds: [...state.rounds, { round: event.round, tables: event.tables, byes: event.byes, repeats: event.repeats, tableDeadline: event.tableDeadline }] };
    }
    case 'RoundScheduled':
      return { ...next, scheduled: { round: event.round, at: event.at } };
    case 'TableFinished':
      return { ...next, results: new Map(state.results).set(event.gameId, event.result), adjudicated: event.adjudicated === undefined ? state.adjudicated : new Map(state.adjudicated).set(event.gameId, event.adjudicated.reason) };
    case 'TableCorrected':
      return { ...next, results: new Map(state.results).set(event.gameId, event.result), adjudicated: new Map(state.adjudicated).set(event.gameId, event.reason) };
    case 'StandingsChanged':
      return next;
    case 'SeatTakenOver': {
      const takenOver = new Set(state.takenOver).add(`${event.gameId}:${event.player}`);
      const noShows = event.reason === 'no-show' ? appended(state.noShows, event.gameId, event.player) : state.noShows;
      const forfeits = event.forfeited ? appended(state.forfeits, event.gameId, event.player) : state.forfeits;
      return { ...next, takenOver, forfeits, noShows };
    }
    case 'PlayerWithdrew': {
      const entry = state.entryOf.get(event.player);
      const entryOf = event.reason === 'removed' && entry !== undefined ? new Map(state.entryOf).set(event.player, { ...entry, removed: true }) : state.entryOf;
      return { ...next, withdrawn: new Set(state.withdrawn).add(event.player), entryOf };
    }
    case 'PlayerAbsent':
      return { ...next, absent: new Map(state.absent).set(event.player, event.reason) };
    case 'CheckInOpened':
      return { ...next, checkIn: { open: true, closesAt: event.closesAt } };
    case 'CheckInClosed':
      return { ...next, checkIn: { open: false, closesAt: state.checkIn?.closesAt ?? null } };
    case 'PlayerCheckedIn': {
      const absent = new Map(state.absent);
      absent.delete(event.player);
      return { ...next, checkedIn: new Set(state.checkedIn).add(event.player), absent };
    }
    case 'RegistrationOpened':
      return { ...next, registration: { open: true, capacity: event.capacity, closesAt: event.closesAt, approval: event.approval } };
    case 'RegistrationClosed':
      return { ...next, registration: state.registration === null ? null : { ...state.registration, open: false } };
    case 'TournamentBlocked':
      return { ...next, blocked: { round: event.round, reason: event.reason } };
    case 'FormatChanged':
      return { ...next, format: event.format };
    case 'TournamentFinished':
      return { ...next, status: 'finished', scheduled: null, blocked: null, registration: state.registration === null ? null : { ...state.registration, open: false } };
  }
}

const without = (set: ReadonlySet<string>, value: string): ReadonlySet<string> => new Set([...set].filter((v) => v !== value));

const appended = (map: ReadonlyMap<string, readonly string[]>, key: string, value: string) => new Map(map).set(key, [...(map.get(key) ?? []), value]);

export function fold(id: string, events: readonly TournamentEvent[]): TournamentState {
  const [first, ...rest] = events;
  if (first === undefined) throw new Error(`tournament ${id} has no events`);
  return rest.reduce(evolve, created(id, first));
}

export const currentRound = (state: TournamentState): Round | undefined => state.rounds.at(-1);

/** Whether every table of the round has its result. */
export const roundComplete = (state: TournamentState, round: Round): boolean => round.tables.every((t) => state.results.has(t.gameId));

/** Players still in the tournament (absent ones too: they may check in again). */
export const activePlayers = (state: TournamentState): Player[] => state.players.filter((p) => !state.withdrawn.has(p.id));

/** The players the next round pairs: neither withdrawn nor absent. */
export const pairedPlayers = (state: TournamentState): Player[] => activePlayers(state).filter((p) => !state.absent.has(p.id));

/** The players the standings list: everyone but those who left before they sat at any
 * table or had a bye (an entry the organizer removed, say). */
export function rankedPlayers(state: TournamentState): string[] {
  const played = new Set(state.rounds.flatMap((r) => [...r.byes, ...r.tables.flatMap((t) => t.players)]));
  return state.players.map((p) => p.id).filter((p) => !state.withdrawn.has(p) || played.has(p));
}

/** No-shows of `player` so far. */
export const noShowCount = (state: TournamentState, player: string): number => [...state.noShows.values()].filter((players) => players.includes(player)).length;

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
