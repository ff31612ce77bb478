// How a game ends besides its rules: a seat resigns (or loses on time), the creator
// aborts, an open game nobody filled expires. Every game gets this from
// `withLifecycle`, the outermost wrapper (around the chance party), so no game's own
// rules change: the lifecycle keeps its own part of the state next to the game's.
//
// - `resign` is a seat command in every game, at any moment of a running game (also
//   while the game waits for chance). The game ends: the seats that stayed share rank
//   1, the resigned seat ranks last (`result.resigned`). That is what an online table
//   does when a player concedes; continuing without the seat would need each game's
//   own rules for its cards, chips and turn (see docs/lifecycle.md).
// - A turn clock (`turnSeconds`, for games whose rules have no turn limit of their own:
//   Pechvogel's turns, Mistkäfer): each accepted command gives the seats pending after
//   it `turnSeconds`; when it runs out the system's `timeout` makes them lose on time,
//   which ends the game as a resignation does (`SeatResigned` with `timedOut`).
// - `abort` (the creator) and `expire` (an open game past its time) are the system's:
//   the command path checks who may ask for them and passes them in as the system
//   actor; no seat can send them. The game ends with no result.
// - `adjudicate` (the organizer owning the game, through the system): the game ends
//   with the result given and a reason, or, once over with a result, that result is
//   corrected; either way the log says so (`GameAdjudicated`).
import { z } from 'zod';
import {
  violation,
  type Command,
  type GameEvent,
  type GameModule,
  type GameResult,
  type Pending,
  type RuleViolation,
  type Seat,
  type Setup,
} from './contract.ts';
import { seatSchema, timeSchema } from './view-parts.ts';

export const lifecycleCodes = {
  /** The game has ended (resigned, aborted, expired): nothing more is decided. */
  over: 'lifecycle/over',
  /** `resign` comes from a seat. */
  seatOnly: 'lifecycle/seat-only',
  /** `abort` and `expire` come from the platform (the creator's abort, the open game's expiry). */
  systemOnly: 'lifecycle/system-only',
  /** `timeout`: no deadline runs (no turn clock, and the game has no timer of its own). */
  noDeadline: 'lifecycle/no-deadline',
  /** An open game's expiry, or a turn clock's timeout, asked for before its time (the scheduler tries again). */
  tooEarly: 'lifecycle/too-early',
  /** An adjudicated result that does not fit the game: a rank and a score per seat, ranks from 1 to the seats. */
  invalidResult: 'lifecycle/invalid-result',
  /** Adjudicating a game that ended without a result (aborted, expired). */
  noResult: 'lifecycle/no-result',
} as const;

/** Why the game ended outside its rules; null while it runs or when its rules ended it. */
export type Ending =
  | { readonly kind: 'resigned'; readonly seats: readonly Seat[]; readonly timedOut: boolean }
  | { readonly kind: 'aborted'; readonly by: AbortedBy }
  | { readonly kind: 'expired' }
  | ({ readonly kind: 'adjudicated' } & Adjudication);

/** A result the organizer set: a rank and a score per seat, why, and whether it
 * corrects a result the game had reached. */
export interface Adjudication {
  readonly ranks: readonly number[];
  readonly scores: readonly number[];
  readonly reason: string;
  readonly correction: boolean;
}

const adjudicationFields = {
  ranks: z.array(z.int().min(1)).describe('Rank per seat (1 = first, ties share a rank)'),
  scores: z.array(z.number()).describe('Score per seat'),
  reason: z.string().describe('Why, as the organizer gave it'),
  correction: z.boolean().describe('It corrects the result of a game that was over; otherwise it ended a running game'),
};

export type AbortedBy = 'referee' | 'organizer';

export const endingSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('resigned'),
      seats: z.array(seatSchema).describe('The seats that resigned (or lost on time), who rank last'),
      timedOut: z.boolean().describe('They let their turn clock run out'),
    }),
    z.strictObject({ kind: z.literal('aborted'), by: z.enum(['referee', 'organizer']).describe("The creator's referee token, or the organizer key owning the game") }),
    z.strictObject({ kind: z.literal('expired').describe('Its open seats were never filled in time') }),
    z.strictObject({ kind: z.literal('adjudicated').describe("The organizer set the result (a tournament's table)"), ...adjudicationFields }),
  ])
  .describe('Why the game ended outside its rules: a resignation (the result says who), an abort or an expiry (no result), an adjudication (the organizer set the result)')
  .meta({ id: 'GameEnding' });

const lifecycleViewSchema = z
  .strictObject({
    ending: endingSchema.nullable().describe('null while the game runs, or when its rules ended it'),
    turnDeadline: timeSchema.nullable().describe("When the turn clock runs out for the pending seats (option turnSeconds); null without one"),
  })
  .describe('How the game may end besides its rules (resign, turn clock, abort, expiry)');

export interface LifecycleView {
  readonly ending: Ending | null;
  readonly turnDeadline: number | null;
}

export const lifecycleEventSchemas = [
  z
    .strictObject({ type: z.literal('SeatResigned'), seat: seatSchema, timedOut: z.boolean().describe('The seat lost on time (the turn clock ran out) rather than resigning') })
    .describe('A seat resigned: the game ends, the seat ranks last.')
    .meta({ id: 'SeatResigned' }),
  z.strictObject({ type: z.literal('GameAborted'), by: z.enum(['referee', 'organizer']) }).describe('The creator aborted the game: it ends with no result.').meta({ id: 'GameAborted' }),
  z.strictObject({ type: z.literal('GameExpired') }).describe('An open game whose seats were never filled expired: it ends with no result.').meta({ id: 'GameExpired' }),
  z
    .strictObject({ type: z.literal('GameAdjudicated'), ...adjudicationFields })
    .describe("The organizer ended the game with this result, or corrected the result it had: the result is this one from now on.")
    .meta({ id: 'GameAdjudicated' }),
  z
    .strictObject({ type: z.literal('TurnClockSet'), deadline: timeSchema.nullable().describe('When the pending seats lose on time; null: nobody is waited for') })
    .describe('The turn clock (option turnSeconds) starts for the seats pending now.')
    .meta({ id: 'TurnClockSet' }),
] as const;

type LifecycleEvent =
  | { readonly type: 'SeatResigned'; readonly seat: Seat; readonly timedOut: boolean }
  | { readonly type: 'GameAborted'; readonly by: AbortedBy }
  | { readonly type: 'GameExpired' }
  | ({ readonly type: 'GameAdjudicated' } & Adjudication)
  | { readonly type: 'TurnClockSet'; readonly deadline: number | null };

const LIFECYCLE_EVENTS = new Set(['SeatResigned', 'GameAborted', 'GameExpired', 'GameAdjudicated', 'TurnClockSet']);
const isLifecycleEvent = (event: GameEvent): event is LifecycleEvent => LIFECYCLE_EVENTS.has(event.type);

/** The platform's lifecycle commands, passed in as the system actor. */
export type LifecycleCommand =
  | { readonly type: 'resign' }
  | { readonly type: 'abort'; readonly by: AbortedBy }
  | { readonly type: 'expire' }
  | { readonly type: 'adjudicate'; readonly ranks: readonly number[]; readonly scores: readonly number[]; readonly reason: string };

const resignSchema = z.strictObject({ type: z.literal('resign') }).describe('Resign: the game ends and this seat ranks last (every game, at any moment while it runs).');
const timeoutSchema = z.strictObject({ type: z.literal('timeout') }).describe("The system's command when the turn clock runs out.");

/** The state: the game's own, and the lifecycle's part beside it (plain JSON). */
export interface LifecycleState<S> {
  readonly game: S;
  readonly seats: number;
  readonly ending: Ending | null;
  /** turnSeconds * 1000; 0: no turn clock. */
  readonly turnMs: number;
  readonly clock: number | null;
}

const TURN_OPTION = 'turnSeconds';

export interface LifecycleOptions {
  /** Give the game an optional turn clock (option `turnSeconds`): for games whose
   * rules have no turn limit of their own. */
  readonly turnClock: boolean;
}

/** The forfeit: the seats that stayed share rank 1 (score 1), the resigned rank last (score 0). */
function forfeit(seats: number, resigned: readonly Seat[]): GameResult {
  const stayed = Array.from({ length: seats }, (_, seat) => !resigned.includes(seat));
  const winners = stayed.flatMap((s, seat) => (s ? [seat] : []));
  const lastRank = winners.length + 1;
  return { scores: stayed.map((s) => (s ? 1 : 0)), ranks: stayed.map((s) => (s ? 1 : lastRank)), winners, resigned: [...resigned] };
}

/** The organizer's result for a game: it ends a running game, or corrects the result
 * of one that is over (`over`: its rules' result, or a resignation's); a game that
 * ended without a result (aborted, expired) has none to correct. */
function adjudicate<S>(state: LifecycleState<S>, command: Extract<LifecycleCommand, { type: 'adjudicate' }>, bySystem: boolean, over: boolean): LifecycleEvent[] | RuleViolation {
  if (!bySystem) return violation(lifecycleCodes.systemOnly, "the organizer adjudicates through the tournament's table routes");
  if (state.ending?.kind === 'aborted' || state.ending?.kind === 'expired') return violation(lifecycleCodes.noResult, `the game was ${state.ending.kind}: it has no result to set`);
  const { ranks, scores, reason } = command;
  const fits = ranks.length === state.seats && scores.length === state.seats && ranks.every((r) => Number.isInteger(r) && r >= 1 && r <= state.seats) && ranks.some((r) => r === 1) && scores.every(Number.isFinite);
  if (!fits) return violation(lifecycleCodes.invalidResult, `a result needs a rank (1 to ${state.seats}, someone first) and a score for each of the ${state.seats} seats`);
  return [{ type: 'GameAdjudicated', ranks: [...ranks], scores: [...scores], reason, correction: over || state.ending !== null }];
}

export function withLifecycle<O, S, C extends Command, E extends GameEvent, V>(
  game: GameModule<O, S, C, E, V>,
  { turnClock }: LifecycleOptions,
): GameModule<O, LifecycleState<S>, C, E | LifecycleEvent, V & { lifecycle: LifecycleView }> {
  /** The game's own options: the turn clock's option is the lifecycle's. */
  const own = (options: O): O => {
    if (!turnClock) return options;
    const { [TURN_OPTION]: _turn, ...rest } = options as Record<string, unknown>;
    return rest as O;
  };
  const ownSetup = (setup: Setup<O>): Setup<O> => ({ ...setup, options: own(setup.options) });
  const hasTimeout = (game.commandSchema as z.ZodType).safeParse({ type: 'timeout' }).success;

  /** The turn clock after `events`: restarted for the seats pending then, when it runs. */
  const clocked = (state: LifecycleState<S>, events: E[], now: number): (E | LifecycleEvent)[] => {
    if (state.turnMs === 0) return events;
    const after = events.reduce((s, e) => game.evolve(s, e), state.game);
    const pending = game.pending(after);
    const waits = game.result(after) === null && pending.chance === undefined && pending.seats.length > 0;
    const deadline = waits ? now + state.turnMs : null;
    if (deadline === null && state.clock === null) return events;
    return [...events, { type: 'TurnClockSet', deadline }];
  };

  const extendView = (schema: z.ZodType<V>) => (schema as unknown as z.ZodObject).extend({ lifecycle: lifecycleViewSchema }) as unknown as z.ZodType<V & { lifecycle: LifecycleView }>;
  // One discriminated union of the game's commands and the lifecycle's, so a command
  // with a field it does not have is refused naming it, as before.
  const gameCommands = (game.commandSchema as unknown as z.ZodDiscriminatedUnion).options;
  const description = z.globalRegistry.get(game.commandSchema)?.description;
  const commandSchema = z.discriminatedUnion('type', [...gameCommands, resignSchema, ...(turnClock && !hasTimeout ? [timeoutSchema] : [])] as unknown as [z.ZodObject, ...z.ZodObject[]]);
  const optionsSchema = turnClock
    ? (game.optionsSchema as unknown as z.ZodObject).extend({
        [TURN_OPTION]: z
          .int()
          .min(0)
          .max(3600)
          .default(0)
          .describe('Seconds the pending seats have for each move; when they run out, those seats lose on time (the game ends as if they resigned). 0 = no limit.'),
      })
    : game.optionsSchema;

  return {
    ...game,
    optionsSchema: optionsSchema as unknown as z.ZodType<O>,
    untimedOptions: turnClock ? ({ ...game.untimedOptions, [TURN_OPTION]: 0 } as Partial<O>) : game.untimedOptions,
    commandSchema: (description === undefined ? commandSchema : commandSchema.describe(description)) as unknown as z.ZodType<C>,
    eventSchema: z.union([game.eventSchema, ...lifecycleEventSchemas]) as unknown as z.ZodType<E | LifecycleEvent>,
    viewSchemas: { seat: extendView(game.viewSchemas.seat), spectator: extendView(game.viewSchemas.spectator), all: extendView(game.viewSchemas.all) },
    codes: [...game.codes, ...Object.values(lifecycleCodes)],

    validateSetup: game.validateSetup === undefined ? undefined : (setup) => game.validateSetup!(ownSetup(setup)),
    initialState: (setup) => ({
      game: game.initialState(ownSetup(setup)),
      seats: setup.seats,
      ending: null,
      turnMs: turnClock ? ((setup.options as Record<string, number>)[TURN_OPTION] ?? 0) * 1000 : 0,
      clock: null,
    }),
    setup: (state, ctx) => clocked(state, game.setup(state.game, ctx), ctx.now),

    decide(state, command, ctx) {
      const lifecycle = command as unknown as LifecycleCommand | { type: 'timeout' };
      if (lifecycle.type === 'adjudicate') return adjudicate(state, lifecycle, ctx.actor.kind === 'system', game.result(state.game) !== null);
      if (state.ending !== null || game.result(state.game) !== null) return violation(lifecycleCodes.over, 'the game has ended');
      switch (lifecycle.type) {
        case 'resign':
          if (ctx.actor.kind !== 'seat') return violation(lifecycleCodes.seatOnly, 'a seat resigns with its own token');
          return [{ type: 'SeatResigned', seat: ctx.actor.seat, timedOut: false }];
        case 'abort':
          if (ctx.actor.kind !== 'system') return violation(lifecycleCodes.systemOnly, "the creator aborts with POST /games/{id}/abort");
          return [{ type: 'GameAborted', by: lifecycle.by }];
        case 'expire':
          if (ctx.actor.kind !== 'system') return violation(lifecycleCodes.systemOnly, 'only the platform expires an open game');
          return [{ type: 'GameExpired' }];
        case 'timeout': {
          if (ctx.actor.kind !== 'system' || state.clock === null) {
            if (hasTimeout) break;
            return ctx.actor.kind === 'system' ? violation(lifecycleCodes.noDeadline, 'nothing is waiting on a deadline') : violation(lifecycleCodes.systemOnly, "timeout is the system's");
          }
          // The game's own deadline, when due and earlier, is its rules' to handle first.
          const own = game.pending(state.game).deadline;
          if (own !== undefined && own <= ctx.now && own <= state.clock) break;
          if (ctx.now < state.clock) return violation(lifecycleCodes.tooEarly, `the turn clock runs until ${state.clock}`);
          return game.pending(state.game).seats.map((seat) => ({ type: 'SeatResigned', seat, timedOut: true }));
        }
      }
      const decided: E[] | RuleViolation = game.decide(state.game, command, ctx);
      return Array.isArray(decided) ? clocked(state, decided, ctx.now) : decided;
    },

    evolve(state, event) {
      if (!isLifecycleEvent(event)) return { ...state, game: game.evolve(state.game, event as E) };
      switch (event.type) {
        case 'SeatResigned': {
          const earlier = state.ending?.kind === 'resigned' ? state.ending.seats : [];
          return { ...state, clock: null, ending: { kind: 'resigned', seats: [...earlier, event.seat], timedOut: event.timedOut } };
        }
        case 'GameAborted':
          return { ...state, clock: null, ending: { kind: 'aborted', by: event.by } };
        case 'GameExpired':
          return { ...state, clock: null, ending: { kind: 'expired' } };
        case 'GameAdjudicated': {
          const { type: _type, ...adjudication } = event;
          return { ...state, clock: null, ending: { kind: 'adjudicated', ...adjudication } };
        }
        case 'TurnClockSet':
          return { ...state, clock: event.deadline };
      }
    },

    view: (state, viewer) => ({ ...game.view(state.game, viewer), lifecycle: { ending: state.ending, turnDeadline: state.clock } }),
    redact: (event, viewer, before) => (isLifecycleEvent(event) ? event : game.redact(event as E, viewer, before.game)),

    pending(state): Pending {
      if (state.ending !== null) return { seats: [] };
      const own = game.pending(state.game);
      if (state.clock === null || own.chance !== undefined) return own;
      return { ...own, deadline: Math.min(own.deadline ?? Infinity, state.clock) };
    },
    legalCommands: (state, seat) => (state.ending !== null ? [] : game.legalCommands(state.game, seat)),
    result(state) {
      if (state.ending === null) return game.result(state.game);
      if (state.ending.kind === 'adjudicated') return { scores: state.ending.scores, ranks: state.ending.ranks, winners: state.ending.ranks.flatMap((rank, seat) => (rank === 1 ? [seat] : [])) };
      return state.ending.kind === 'resigned' ? forfeit(state.seats, state.ending.seats) : null;
    },
    ending: (state) => state.ending,
  };
}
