// Appraising the hunt (rulebook "1. Possibility" and "2. Possibility"): pure
// functions of the animal and the cards each seat revealed.
import type { Seat } from '../contract.ts';
import { cardKind, type AnimalData } from './edition.ts';
import { PREY_KINDS, TOOL_KINDS, type ChipCounts, type PreyCounts, type ToolKind } from './vocabulary.ts';

export type Appraisal =
  | { readonly kind: 'kill'; readonly takers: readonly Seat[] }
  | {
      readonly kind: 'escape';
      readonly reason: 'missing-tools' | 'too-many-clubs';
      readonly fight: { readonly winner: Seat; readonly losers: readonly Seat[] } | null;
    };

const isTool = (card: number): boolean => cardKind(card) !== 'club';
const isClub = (card: number): boolean => cardKind(card) === 'club';

/** Tools of a kind the animal needs. Surplus tools of a needed kind count too: in the
 * rulebook's example 1, A's 5 spears against 4 needed count as 5 tools. */
export const requiredTools = (animal: AnimalData, cards: readonly number[]): number[] =>
  cards.filter((c) => isTool(c) && animal.needs[cardKind(c) as ToolKind] > 0);

const lowest = (cards: readonly number[]): number => Math.min(...cards);

/** Orders seats by most of `counted(seat)` cards, the lowest card number first on a tie. */
const rankBy = (seats: readonly Seat[], counted: (seat: Seat) => readonly number[]): Seat[] =>
  [...seats].sort((a, b) => {
    const ca = counted(a);
    const cb = counted(b);
    return cb.length - ca.length || lowest(ca) - lowest(cb);
  });

/** Who takes prey, in order. A seat without a required tool (only unneeded tools or
 * only clubs) gets nothing (the editor's note). */
export const sharingOrder = (animal: AnimalData, played: readonly (readonly number[])[]): Seat[] => {
  const seats = played.flatMap((cards, seat) => (requiredTools(animal, cards).length > 0 ? [seat] : []));
  return rankBy(seats, (seat) => requiredTools(animal, played[seat]!));
};

/** Most clubs wins (lowest club number on a tie). The losers are the other seats with
 * the fewest clubs, zero included. */
export const fight = (played: readonly (readonly number[])[]): { winner: Seat; losers: Seat[] } | null => {
  const clubs = (seat: Seat) => played[seat]!.filter(isClub);
  const fighters = played.flatMap((_, seat) => (clubs(seat).length > 0 ? [seat] : []));
  const winner = rankBy(fighters, clubs)[0];
  if (winner === undefined) return null;
  const others = played.flatMap((_, seat) => (seat === winner ? [] : [seat]));
  const fewest = Math.min(...others.map((seat) => clubs(seat).length));
  return { winner, losers: others.filter((seat) => clubs(seat).length === fewest) };
};

export const appraise = (animal: AnimalData, played: readonly (readonly number[])[]): Appraisal => {
  const all = played.flat();
  const needsMet = TOOL_KINDS.every((kind) => all.filter((c) => cardKind(c) === kind).length >= animal.needs[kind]);
  // "More clubs than tools" compares with every tool card played, needed or not: the
  // rulebook restricts only the prey distribution to required tools.
  const tooManyClubs = all.filter(isClub).length > all.filter(isTool).length;
  if (needsMet && !tooManyClubs) return { kind: 'kill', takers: sharingOrder(animal, played) };
  return { kind: 'escape', reason: needsMet ? 'too-many-clubs' : 'missing-tools', fight: fight(played) };
};

/** The chips put on a killed animal: its prey, as far as the supply lasts. */
export const preyFromSupply = (animal: AnimalData, supply: ChipCounts): PreyCounts => ({
  teeth: Math.min(animal.prey.teeth, supply.teeth),
  fur: Math.min(animal.prey.fur, supply.fur),
  meat: Math.min(animal.prey.meat, supply.meat),
});

/** A loser can be robbed only of a non-skull chip. */
export const robbable = (chips: ChipCounts): boolean => PREY_KINDS.some((k) => chips[k] > 0);
