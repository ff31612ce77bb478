// Chips change hands face down: drawn blind from the supply or from a victim's pile.
import type { Seat } from '../contract.ts';
import type { Chance } from '../chance.ts';
import type { Run } from './run.ts';
import { emit, isOver } from './run.ts';
import type { State } from './state.ts';
import { hasWon, supplyList, supplySize } from './state.ts';
import type { ChipKind } from './vocabulary.ts';

/** Takes up to `wanted` chips; an exhausted supply gives what it still has (docs: supply
 * runs out). The chips are drawn one by one and the drawing stops at the chip that wins:
 * the game ends that moment, so a table draws no more (and a referee supplies no more).
 * One by one from the same list draws exactly what one draw of them all would. */
export function takeChips(run: Run, seat: Seat, wanted: number, chance: Chance): Run {
  const count = Math.min(wanted, supplySize(run.state.chips));
  if (count === 0 || isOver(run)) return run;
  const supply = supplyList(run.state.chips);
  const hand = [...run.state.hands[seat]!];
  const chips: ChipKind[] = [];
  while (chips.length < count && !hasWon({ ...run.state, hands: replaceHand(run.state, seat, hand) }, seat)) {
    const [chip] = chance.draw(supply, 1, 'chip');
    supply.splice(supply.indexOf(chip!), 1);
    chips.push(chip!);
    hand.push(chip!);
  }
  return emit(run, { type: 'ChipsTaken', seat, count: chips.length, chips });
}

const replaceHand = (state: State, seat: Seat, hand: readonly ChipKind[]): State['hands'] =>
  state.hands.map((h, s) => (s === seat ? hand : h));

export function stealChip(run: Run, thief: Seat, victim: Seat, chance: Chance): Run {
  const hand = run.state.hands[victim]!;
  if (hand.length === 0 || isOver(run)) return run;
  const [chip] = chance.draw(hand, 1, 'stolen-chip');
  return emit(run, { type: 'ChipStolen', thief, victim, chip: chip! });
}

/** Other seats holding at least one chip, clockwise from the thief. */
export const chipHolders = (state: State, thief: Seat): Seat[] => {
  const n = state.seats;
  const holders: Seat[] = [];
  for (let i = 1; i < n; i++) {
    const s = (thief + i) % n;
    if (state.hands[s]!.length > 0) holders.push(s);
  }
  return holders;
};
