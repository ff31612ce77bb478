// "Distribution of Lucky Numbers": the rulebook's table, player A being the starting
// player and B, C, ... following clockwise. In the expert variant the letters follow
// the current starting player; otherwise they stay with the first starting player.
import type { Seat } from '../contract.ts';
import type { Symbol, SymbolCard } from './vocabulary.ts';
import { symbols } from './vocabulary.ts';

/** Index: number of players; entries: players A, B, C, ... */
export const luckyNumberTable: Readonly<Record<number, readonly (readonly number[])[]>> = {
  3: [[1, 4, 7], [2, 5, 8], [3, 6]],
  4: [[1, 5], [2, 6], [3, 7], [4, 8]],
  5: [[1, 6], [2, 7], [3, 8], [4], [5]],
  6: [[1, 7], [2, 8], [3], [4], [5], [6]],
  7: [[1, 8], [2], [3], [4], [5], [6], [7]],
  8: [[1], [2], [3], [4], [5], [6], [7], [8]],
};

/** The lucky numbers of `seat` when `letterA` holds player A's numbers. */
export function luckyNumbersOf(seats: number, letterA: Seat, seat: Seat): readonly number[] {
  return luckyNumberTable[seats]?.[(seat - letterA + seats) % seats] ?? [];
}

const turned = (seats: number, letterA: Seat): readonly (readonly number[])[] =>
  Array.from({ length: seats }, (_, seat) => luckyNumbersOf(seats, letterA, seat));

/** Per player count and seat of player A: built once, since every view of a bot's
 * turn lists them. */
const bySeating: Readonly<Record<number, readonly (readonly (readonly number[])[])[]>> = Object.fromEntries(
  Object.keys(luckyNumberTable).map((key) => {
    const seats = Number(key);
    return [seats, Array.from({ length: seats }, (_, letterA) => turned(seats, letterA))];
  }),
);

/** Every seat's lucky numbers, by seat, when `letterA` holds player A's numbers. */
export function luckyNumbersBySeat(seats: number, letterA: Seat): readonly (readonly number[])[] {
  return bySeating[seats]?.[letterA] ?? turned(seats, letterA);
}

/** The target cards `numbers` may rightfully take from `card`: those whose count is a
 * lucky number; when no count is a lucky number, every target card. */
export function rightfulTargets(numbers: readonly number[], card: SymbolCard): readonly Symbol[] {
  const matching: Symbol[] = [];
  for (const symbol of symbols) if (numbers.includes(card.counts[symbol])) matching.push(symbol);
  return matching.length > 0 ? matching : symbols;
}
