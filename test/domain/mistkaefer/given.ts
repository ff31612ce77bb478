// Test fixtures: build Mistkäfer states by folding events, then send one command.
import { suppliedChance } from '../../../src/domain/chance.ts';
import type { RuleViolation, Seat } from '../../../src/domain/contract.ts';
import { fold, isViolation } from '../../../src/domain/contract.ts';
import type { Command, Event, State } from '../../../src/domain/mistkaefer/index.ts';
import { mistkaefer } from '../../../src/domain/mistkaefer/index.ts';
import { bonusesLandedOn } from '../../../src/domain/mistkaefer/tableau.ts';
import type { ChipKind, Colour } from '../../../src/domain/mistkaefer/vocabulary.ts';

export const setupFor = (seats: number) => ({ seats, options: {} });

export interface Given {
  readonly seats: number;
  readonly events: Event[];
  readonly state: State;
  /** One finished turn of `seat`: `count` dice showing `value` were placed in its `colour` row. */
  placed(seat: Seat, colour: Colour, value: number, count?: number): Given;
  /** Face-down chips `seat` took from the supply. */
  chips(seat: Seat, kinds: ChipKind[]): Given;
  /** The turn passes to `seat` (counting as a turn of the seat that had it). */
  turnTo(seat: Seat): Given;
  then(...events: Event[]): Given;
}

export function given(seats: number): Given {
  const opening = mistkaefer.setup(mistkaefer.initialState(setupFor(seats)), {
    now: 0,
    chance: suppliedChance([], 'setup'),
  });
  return build(seats, opening);
}

function build(seats: number, events: Event[]): Given {
  const state = fold(mistkaefer, setupFor(seats), events);
  const then = (...more: Event[]) => build(seats, [...events, ...more]);
  return {
    seats,
    events,
    state,
    then,
    placed: (seat, colour, value, count = 1) =>
      then(
        { type: 'DiceRolled', seat, colour, values: Array(count).fill(value) },
        {
          type: 'DicePlaced',
          seat,
          colour,
          value,
          count,
          stolenFrom: [],
          bonuses: bonusesLandedOn(colour, state.tableaus[seat]![colour].length, count),
        },
        { type: 'TurnEnded', seat, next: seat },
      ),
    chips: (seat, kinds) => then({ type: 'ChipsTaken', seat, count: kinds.length, chips: kinds }),
    turnTo: (seat) => then({ type: 'TurnEnded', seat: state.active, next: seat }),
  };
}

/** A row of several placements, e.g. row(g, 0, 'green', [1, 2, 3, 3]) places 1, 2 and two 3s. */
export function row(g: Given, seat: Seat, colour: Colour, values: number[]): Given {
  const groups = [...new Set(values)].map((v) => [v, values.filter((x) => x === v).length] as const);
  return groups.reduce((acc, [v, n]) => acc.placed(seat, colour, v, n), g);
}

/** Every seat has finished a turn: the 1st round is over. */
export const afterFirstRound = (g: Given): Given =>
  Array.from({ length: g.seats }, (_, s) => (s + 1) % g.seats).reduce((acc, next) => acc.turnTo(next), g.turnTo(0));

/** Sends `command` as `seat` with the referee's outcomes; every outcome must be used. */
export function when(
  state: State,
  seat: Seat,
  command: Command,
  outcomes: unknown[] = [],
): Event[] | RuleViolation {
  const chance = suppliedChance(outcomes, 'test');
  const result = mistkaefer.decide(state, command, { actor: { kind: 'seat', seat }, now: 0, chance });
  if (!isViolation(result)) chance.assertAllUsed();
  return result;
}

export const after = (state: State, events: Event[] | RuleViolation): State =>
  ok(events).reduce(mistkaefer.evolve, state);

export const ok = (x: Event[] | RuleViolation): Event[] => {
  if (isViolation(x)) throw new Error(`expected events, got ${x.code}`);
  return x;
};

export const codeOf = (x: Event[] | RuleViolation): string | null => (isViolation(x) ? x.code : null);

export const place = (value: number, stealFrom: Seat[] = []): Command => ({ type: 'place', value, stealFrom });
export const roll = (colour: Colour, count: number): Command => ({ type: 'roll', colour, count });
export const bonus = (b: Extract<Command, { type: 'resolveBonus' }>['bonus'], victim: Seat | null = null): Command =>
  ({ type: 'resolveBonus', bonus: b, victim });
