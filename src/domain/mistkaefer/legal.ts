// Who may act and what they may send: exactly the commands decide accepts.
// Plain loops: the simulator asks for these before every command.
import type { Pending, Seat } from '../contract.ts';
import { chipHolders } from './chips.ts';
import type { Command } from './commands.ts';
import { edition } from './edition.ts';
import type { State } from './state.ts';
import { placeable, stealableFrom } from './state.ts';
import type { BonusKind } from './vocabulary.ts';
import { colours } from './vocabulary.ts';

export const pending = (state: State): Pending =>
  state.phase === 'setup' || state.phase === 'over' ? { seats: [] } : { seats: [state.active] };

/** Every subset of `seats`, each in ascending order: each seat doubles the list. */
const subsets = (seats: readonly Seat[]): Seat[][] => {
  const all: Seat[][] = [[]];
  for (const s of seats) {
    const n = all.length;
    for (let i = 0; i < n; i++) all.push([...all[i]!, s]);
  }
  return all;
};

export function legalCommands(state: State, seat: Seat): Command[] {
  if (state.phase === 'setup' || state.phase === 'over' || seat !== state.active) return [];
  const legal: Command[] = [];
  switch (state.phase) {
    case 'turn':
      for (const colour of colours) {
        const most = Math.min(edition.maxDicePerRoll, state.dice[colour]);
        for (let count = 1; count <= most; count++) legal.push({ type: 'roll', colour, count });
      }
      legal.push({ type: 'score' });
      return legal;
    case 'placing': {
      const { colour, values } = state.rolled!;
      const row = state.tableaus[seat]![colour];
      const choices: number[] = [];
      for (const v of values) if (!choices.includes(v) && placeable(row, v)) choices.push(v);
      choices.sort((a, b) => a - b);
      for (const value of choices) {
        for (const stealFrom of subsets(stealableFrom(state, seat, colour, value))) {
          legal.push({ type: 'place', value, stealFrom });
        }
      }
      return legal;
    }
    case 'bonus': {
      const seen: BonusKind[] = [];
      for (const bonus of state.bonuses) {
        if (seen.includes(bonus)) continue;
        seen.push(bonus);
        const holders = bonus === 'stealChip' ? chipHolders(state, seat) : [];
        if (holders.length === 0) legal.push({ type: 'resolveBonus', bonus, victim: null });
        for (const victim of holders) legal.push({ type: 'resolveBonus', bonus, victim });
      }
      return legal;
    }
  }
}
