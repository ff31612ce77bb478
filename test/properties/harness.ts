// Shared machinery for the property tests: fast-check arbitraries for a game's setup,
// a driver that plays a whole game by picking uniformly among the legal commands, and
// small helpers (deep freeze, canonical commands). Every game is handled through the
// contract alone, so the same battery runs against each module in `games`.
import fc from 'fast-check';
import { serverChance, type Chance } from '../../src/domain/chance.ts';
import { isViolation, type Actor, type Command, type GameEvent, type Setup } from '../../src/domain/contract.ts';
import type { AnyGame } from '../../src/domain/games.ts';

/** A fixed epoch keeps deadlines readable in counterexamples. */
export const START = 1_700_000_000_000;

/** Far above the longest random games of Pechvogel, Fackel+Keule and Mistkäfer (under
 * 2,000 commands); a game still running after this many counts as one that does not end. */
export const MAX_COMMANDS = 20_000;

/** Options worth varying per game; games without options get their defaults. */
const optionArbitraries: Record<string, (seats: number) => fc.Arbitrary<unknown>> = {
  pechvogel: (seats) =>
    fc.record({ firstSeat: fc.integer({ min: 0, max: seats - 1 }), reactionSeconds: fc.integer({ min: 1, max: 600 }) }),
  // 0 = no limit: games with and without the table acting for late seats.
  'fackel-und-keule': () => fc.record({ turnSeconds: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 600 })) }),
  'porca-miseria': () =>
    fc.record({
      expert: fc.boolean(),
      revealMs: fc.integer({ min: 500, max: 120_000 }),
      windowMs: fc.integer({ min: 500, max: 120_000 }),
    }),
};

export interface GameSetup {
  readonly seed: string;
  readonly setup: Setup<unknown>;
}

/** A random seed, a player count within `game.players` and options where meaningful. */
export const setupArbitrary = (game: AnyGame): fc.Arbitrary<GameSetup> =>
  fc
    .integer({ min: game.players.min, max: game.players.max })
    .chain((seats) =>
      fc.record({
        seed: fc.string({ minLength: 1, maxLength: 12 }),
        setup: (optionArbitraries[game.type]?.(seats) ?? fc.constant({})).map(
          (options): Setup<unknown> => ({ seats, options: game.optionsSchema.parse(options) }),
        ),
      }),
    );

export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}

/** The games' array parameters are sets or multisets (cards, chips, seats to steal
 * from): decide accepts them in any order, legalCommands lists one order. Sorting
 * keeps duplicates, so `[3, 3]` still differs from `[3]`. */
export const canonical = (command: unknown): string =>
  JSON.stringify(command, (_key, value: unknown) =>
    Array.isArray(value) && value.every((v) => typeof v !== 'object')
      ? [...value].sort((a, b) => String(a).localeCompare(String(b)))
      : value,
  );

export interface Step {
  readonly before: unknown;
  readonly actor: Actor;
  readonly command: Command;
  /** The clock before the command: before any deadline then pending. */
  readonly clock: number;
  readonly now: number;
  readonly events: readonly GameEvent[];
  readonly after: unknown;
}

export interface Played {
  readonly setupEvents: readonly GameEvent[];
  /** The state after the setup events. */
  readonly start: unknown;
  readonly steps: readonly Step[];
  readonly log: readonly GameEvent[];
  readonly final: unknown;
  /** False when `limit` stopped the game before it had a result. */
  readonly ended: boolean;
}

/** Uniform integer in [0, n) from a seeded chance source. */
export const below = (rng: Chance, n: number): number => rng.roll(Array.from({ length: n }, (_, i) => i), 1)[0]!;

/**
 * Plays one game to its end. Each step picks uniformly among the legal commands of the
 * pending seats, plus the system's timeout when a deadline is set (so windows also
 * close by the clock while seats could still act). When nobody is pending but a
 * deadline is set, the clock jumps to it and the system sends the timeout. Seat
 * commands keep the clock before the deadline, where legalCommands is valid for every
 * game (Porca Miseria documents that it ignores the clock).
 *
 * Every state and event is deep-frozen before `decide`/`evolve` see it, so a module
 * that mutates its input throws here. Stops after `limit` commands (then `ended` is
 * false).
 */
export function play(game: AnyGame, { seed, setup }: GameSetup, limit = MAX_COMMANDS): Played {
  const violation = game.validateSetup?.(setup) ?? null;
  if (violation) throw new Error(`setup refused: ${violation.code}`);
  const rng = serverChance(`pick:${seed}`, 0);
  let now = START;
  let state = deepFreeze(game.initialState(setup));
  const setupEvents = deepFreeze(game.setup(state, { now, chance: serverChance(seed, 0) }));
  for (const event of setupEvents) state = deepFreeze(game.evolve(state, event));
  const start = state;
  const log: GameEvent[] = [...setupEvents];
  const steps: Step[] = [];
  while (game.result(state) === null && steps.length < limit) {
    const clock = now;
    const pending = game.pending(state);
    const choices = pending.seats.flatMap((seat) =>
      game.legalCommands(state, seat).map((command) => ({ actor: { kind: 'seat', seat } as Actor, command })),
    );
    const timeout = { actor: { kind: 'system' } as Actor, command: { type: 'timeout' } };
    if (choices.length === 0 && pending.deadline === undefined) {
      throw new Error(`nobody can act and no deadline is set (phase after ${log.length} events)`);
    }
    const pickTimeout = pending.deadline !== undefined && below(rng, choices.length + 1) === choices.length;
    const { actor, command } = pickTimeout || choices.length === 0 ? timeout : choices[below(rng, choices.length)]!;
    if (actor.kind === 'system') now = Math.max(now, pending.deadline!);
    else now = pending.deadline === undefined ? now + below(rng, 2000) : Math.min(now + below(rng, 50), pending.deadline - 1);
    const events = game.decide(state, deepFreeze(command), { actor, now, chance: serverChance(seed, log.length) });
    if (isViolation(events)) {
      throw new Error(`legal command refused: ${JSON.stringify(actor)} ${JSON.stringify(command)} → ${events.code}`);
    }
    deepFreeze(events);
    const before = state;
    for (const event of events) state = deepFreeze(game.evolve(state, event));
    log.push(...events);
    steps.push({ before, actor, command, clock, now, events, after: state });
  }
  return { setupEvents, start, steps, log, final: state, ended: game.result(state) !== null };
}

