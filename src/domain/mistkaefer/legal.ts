// Who may act and what they may send: exactly the commands decide accepts.
import type { Pending, Seat } from '../contract.ts';
import { chipHolders } from './chips.ts';
import type { Command } from './commands.ts';
import { edition } from './edition.ts';
import { begin } from './run.ts';
import type { State } from './state.ts';
import { placeable, stealableFrom } from './state.ts';
import { colours } from './vocabulary.ts';

export const pending = (state: State): Pending =>
  state.phase === 'setup' || state.phase === 'over' ? { seats: [] } : { seats: [state.active] };

/** Every subset of `seats`, each in ascending order. */
const subsets = (seats: readonly Seat[]): Seat[][] =>
  seats.reduce<Seat[][]>((all, s) => [...all, ...all.map((sub) => [...sub, s])], [[]]);

const range = (from: number, to: number): number[] =>
  Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

export function legalCommands(state: State, seat: Seat): Command[] {
  if (!pending(state).seats.includes(seat)) return [];
  switch (state.phase) {
    case 'turn':
      return [
        ...colours.flatMap((colour) =>
          range(1, Math.min(edition.maxDicePerRoll, state.dice[colour])).map(
            (count): Command => ({ type: 'roll', colour, count }),
          ),
        ),
        { type: 'score' },
      ];
    case 'placing': {
      const { colour, values } = state.rolled!;
      const row = state.tableaus[seat]![colour];
      const choices = [...new Set(values)].filter((v) => placeable(row, v)).sort((a, b) => a - b);
      return choices.flatMap((value) =>
        subsets(stealableFrom(state, seat, colour, value)).map(
          (stealFrom): Command => ({ type: 'place', value, stealFrom }),
        ),
      );
    }
    case 'bonus': {
      const holders = chipHolders(begin(state), seat);
      return [...new Set(state.bonuses)].flatMap((bonus): Command[] =>
        bonus === 'stealChip' && holders.length > 0
          ? holders.map((victim) => ({ type: 'resolveBonus', bonus, victim }))
          : [{ type: 'resolveBonus', bonus, victim: null }],
      );
    }
    default:
      return [];
  }
}
