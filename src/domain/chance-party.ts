// Chance as a party, the way game-theory libraries model it (OpenSpiel's chance
// player): when the rules need an outcome nobody has shown yet, the game waits for
// chance. Every game gets this from `withChanceParty`; what each game contributes is
// that it draws every outcome through `ctx.chance`, names its kind (`die`, `card`,
// `chip`, …) and checks its rules before it draws, so a refused command never waits.
//
// With server chance nothing here ever happens: the server's chance answers at once,
// inside the same decide. With supplied chance (a table the referee records) a
// command that needs outcomes and brings none is accepted as `ChanceAwaited`; the
// game then waits, with `pending` naming chance and what it must supply next, until
// the referee's `chance` command supplies it (`ChanceSupplied`, followed by the
// command's own events once it has all it needs). The awaited command is decided on
// the state and at the time it was received, so the rules' verdict never changes by
// waiting. A game's setup (deals) waits in the same way.
import { z } from 'zod';
import { suppliedChance, SuppliedChanceError, type Chance, type ChanceNeed, type ShownNeed } from './chance.ts';
import {
  isViolation,
  violation,
  type Actor,
  type Command,
  type DecideContext,
  type GameEvent,
  type GameModule,
  type Pending,
  type RuleViolation,
  type Seat,
  type Viewer,
} from './contract.ts';

/** The referee's command that supplies what chance is awaited for (actor `chance`). */
export interface ChanceCommand {
  readonly type: 'chance';
  readonly outcomes: readonly unknown[];
}

export const chanceCodes = {
  /** The game waits for chance: only the referee's outcomes move it on. */
  awaited: 'chance/awaited',
  /** Chance is not awaited: nothing to supply now. */
  notAwaited: 'chance/not-awaited',
} as const;

const Need = z
  .object({
    kind: z.string().describe("What the table shows: `die`, `card`, `chip`, … (see the game's docs)"),
    count: z.number().int().describe('How many outcomes of this kind, in order'),
    values: z.array(z.unknown()).optional().describe('The values still possible (a draw: each item left once); shown to the referee only'),
  })
  .describe('What chance must supply');

export const chanceEventSchemas = [
  z
    .object({
      type: z.literal('ChanceAwaited'),
      seat: z.number().int().nullable().describe('The seat whose command waits; null for the system (a deadline) or the setup'),
      command: z
        .object({ type: z.string() })
        .loose()
        .nullable()
        .describe("The command that waits (null: the setup); others than its seat and the referee see only its type"),
      at: z.number().int().describe('When it was received (ms since epoch): it is decided at this time'),
      need: Need,
    })
    .describe('A command needs outcomes the table has not shown: the game waits for chance.')
    .meta({ id: 'ChanceAwaited' }),
  z
    .object({
      type: z.literal('ChanceSupplied'),
      count: z.number().int().describe('How many outcomes were supplied'),
      outcomes: z.array(z.unknown()).optional().describe('The outcomes, shown to the referee; the events that follow show what the rules let each seat see'),
      need: Need.nullable().describe('What chance must still supply; null: the awaited command is decided (its events follow)'),
    })
    .describe('The referee supplied outcomes for the awaited command.')
    .meta({ id: 'ChanceSupplied' }),
] as const;


interface ChanceAwaited {
  readonly type: 'ChanceAwaited';
  readonly seat: Seat | null;
  readonly command: Command | null;
  readonly at: number;
  readonly need: ShownNeed;
}
interface ChanceSupplied {
  readonly type: 'ChanceSupplied';
  readonly count: number;
  readonly outcomes?: readonly unknown[];
  readonly need: ShownNeed | null;
}
export type ChanceEvent = ChanceAwaited | ChanceSupplied;

/** The state while chance is awaited: the game's own state as the command found it. */
class AwaitingChance<S> {
  constructor(
    readonly inner: S,
    readonly awaited: ChanceAwaited,
    readonly supplied: readonly unknown[],
    readonly need: ChanceNeed,
  ) {}
}

export type WithChance<S> = S | AwaitingChance<S>;

const isChanceEvent = (event: GameEvent): event is ChanceEvent => event.type === 'ChanceAwaited' || event.type === 'ChanceSupplied';

/** The need as `viewer` may see it: the values still possible can tell what is hidden
 * (the chips left in a supply tell the face-down ones), so only `all` sees them. */
export const needAsSeenBy = (need: ShownNeed, viewer: Viewer): ShownNeed =>
  viewer.kind === 'all' ? need : { kind: need.kind, count: need.count };

/** What chance must supply when `run` ran out of outcomes before it used any of them
 * (so none were sent: outcomes sent with a command must be all it needs), else null. */
function awaitedNeed(error: unknown): ChanceNeed | null {
  if (!(error instanceof SuppliedChanceError) || error.code !== 'chance/outcome-missing' || error.position > 0) return null;
  return error.need;
}

export function withChanceParty<O, S, C extends Command, E extends GameEvent, V>(
  game: GameModule<O, S, C, E, V>,
): GameModule<O, WithChance<S>, C, E | ChanceEvent, V> {
  const innerOf = (state: WithChance<S>): S => (state instanceof AwaitingChance ? (state.inner as S) : state);

  /** The awaited command (or setup) decided with `outcomes`. */
  const settle = (awaiting: AwaitingChance<S>, chance: Chance): E[] | RuleViolation => {
    const { awaited } = awaiting;
    if (awaited.command === null) return game.setup(awaiting.inner, { now: awaited.at, chance });
    const actor: Actor = awaited.seat === null ? { kind: 'system' } : { kind: 'seat', seat: awaited.seat };
    return game.decide(awaiting.inner, awaited.command as C, { actor, now: awaited.at, chance });
  };

  const supply = (awaiting: AwaitingChance<S>, command: ChanceCommand, ctx: DecideContext): (E | ChanceEvent)[] | RuleViolation => {
    if (command.outcomes.length === 0) return violation(chanceCodes.awaited, 'supply at least one outcome');
    // A partial supply is kept (the referee types what the table shows, in order);
    // what is supplied must all be used, so a value too many is refused.
    const chance = suppliedChance([...awaiting.supplied, ...command.outcomes], ctx.chance.secret());
    const supplied = { type: 'ChanceSupplied' as const, count: command.outcomes.length, outcomes: [...command.outcomes] };
    let decided: E[] | RuleViolation;
    try {
      decided = settle(awaiting, chance);
    } catch (error) {
      if (error instanceof SuppliedChanceError && error.code === 'chance/outcome-missing' && error.need !== null) return [{ ...supplied, need: error.need }];
      throw error;
    }
    if (isViolation(decided)) return decided;
    chance.assertAllUsed();
    return [{ ...supplied, need: null }, ...decided];
  };

  // Stored events carry the whole need: only shown ones lose their values.
  const awaitingOf = (inner: S, awaited: ChanceAwaited): AwaitingChance<S> => new AwaitingChance(inner, awaited, [], awaited.need as ChanceNeed);

  return {
    ...game,
    eventSchema: z.union([game.eventSchema, ...chanceEventSchemas]) as unknown as z.ZodType<E | ChanceEvent>,

    setup(state, ctx) {
      try {
        return game.setup(innerOf(state), ctx);
      } catch (error) {
        const need = awaitedNeed(error);
        if (need === null) throw error;
        const awaited: ChanceAwaited = { type: 'ChanceAwaited', seat: null, command: null, at: ctx.now, need };
        return [awaited];
      }
    },

    decide(state, command, ctx) {
      if (ctx.actor.kind === 'chance') {
        if (!(state instanceof AwaitingChance)) return violation(chanceCodes.notAwaited, 'chance is not awaited: nothing to supply now');
        return supply(state, command as unknown as ChanceCommand, ctx);
      }
      if (state instanceof AwaitingChance) {
        return violation(chanceCodes.awaited, `the game waits for chance: ${state.need.count} ${state.need.kind} outcome(s)`);
      }
      try {
        return game.decide(state, command, ctx);
      } catch (error) {
        const need = awaitedNeed(error);
        if (need === null) throw error;
        const seat = ctx.actor.kind === 'seat' ? ctx.actor.seat : null;
        const awaited: ChanceAwaited = { type: 'ChanceAwaited', seat, command, at: ctx.now, need };
        return [awaited];
      }
    },

    evolve(state, event) {
      if (!isChanceEvent(event)) return game.evolve(innerOf(state), event as E);
      if (event.type === 'ChanceAwaited') return awaitingOf(innerOf(state), event);
      const awaiting = state as AwaitingChance<S>;
      if (event.need === null) return awaiting.inner;
      return new AwaitingChance(awaiting.inner, awaiting.awaited, [...awaiting.supplied, ...(event.outcomes ?? [])], event.need as ChanceNeed);
    },

    view: (state, viewer) => game.view(innerOf(state), viewer),

    redact(event, viewer, before) {
      if (!isChanceEvent(event)) return game.redact(event as E, viewer, innerOf(before));
      if (viewer.kind === 'all') return event;
      if (event.type === 'ChanceAwaited') {
        const own = viewer.kind === 'seat' && viewer.seat === event.seat;
        const command = event.command === null || own ? event.command : { type: event.command.type };
        const shown: ChanceAwaited = { ...event, command, need: needAsSeenBy(event.need, viewer) };
        return shown;
      }
      const shown: ChanceSupplied = { type: event.type, count: event.count, need: event.need === null ? null : needAsSeenBy(event.need, viewer) };
      return shown;
    },

    pending(state): Pending {
      return state instanceof AwaitingChance ? { seats: [], chance: state.need } : game.pending(state);
    },

    legalCommands: (state, seat: Seat) => (state instanceof AwaitingChance ? [] : game.legalCommands(state, seat)),
    result: (state) => (state instanceof AwaitingChance ? null : game.result(state)),
  };
}
