// Who may act and what they may send: exactly the commands decide accepts.
// Plain loops: the simulator asks for these before every command.
import type { Pending, Seat } from '../contract.ts';
import { chipHolders } from './chips.ts';
import type { Command } from './commands.ts';
import { edition } from './edition.ts';
import type { State } from './state.ts';
import { perColour, placeable, stealableFrom } from './state.ts';
import type { BonusKind, PerColour } from './vocabulary.ts';
import { colours } from './vocabulary.ts';

/** Roll and score commands depend on nothing but the colour and count, so they are
 * built once and shared (frozen, as every caller gets the same objects). */
const rolls: PerColour<readonly Command[]> = perColour((colour) =>
  Array.from({ length: edition.maxDicePerRoll }, (_, i) => Object.freeze({ type: 'roll', colour, count: i + 1 } as const)),
);
const scoreCommand: Command = Object.freeze({ type: 'score' });

/** Bad luck empties the roll and the turn ends in the same command; a view at the
 * version between the two (GET /games/{id}/view?version=N) shows a turn nobody can act in. */
const betweenBadLuckAndTurnEnd = (state: State): boolean => state.phase === 'placing' && state.rolled === null;

export const pending = (state: State): Pending =>
  state.phase === 'setup' || state.phase === 'over' || betweenBadLuckAndTurnEnd(state) ? { seats: [] } : { seats: [state.active] };

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
  if (state.phase === 'setup' || state.phase === 'over' || betweenBadLuckAndTurnEnd(state) || seat !== state.active) return [];
  const legal: Command[] = [];
  switch (state.phase) {
    case 'turn':
      for (const colour of colours) {
        const most = Math.min(edition.maxDicePerRoll, state.dice[colour]);
        for (let count = 1; count <= most; count++) legal.push(rolls[colour][count - 1]!);
      }
      legal.push(scoreCommand);
      return legal;
    case 'placing': {
      const { colour, values } = state.rolled!; // not null: see betweenBadLuckAndTurnEnd
      const row = state.tableaus[seat]![colour];
      // The edition lists the faces lowest first: each placeable value once, in order.
      for (const value of edition.dieFaces) {
        if (!values.includes(value) || !placeable(row, value)) continue;
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
