// A Fackel+Keule table in play at the start of a round: its animal is revealed and
// every seat is to choose its cards. Every card is in a hand, the discard pile or the
// draw pile (the draw pile is what the others leave, unless given); every animal is the
// current one, one of an earlier round, or face down; every chip with a seat or in the
// supply.
import { z } from 'zod';
import type { Setup, Viewer } from '../contract.ts';
import { countComponents, positionCodes, shownHands, type PositionProblem, type PositionRules } from '../position-rules.ts';
import { edition } from './edition.ts';
import type { Options } from './options.ts';
import type { State } from './state.ts';
import { CHIP_KINDS, ROUNDS, tableFor, type ChipCounts } from './vocabulary.ts';

const cardIds = edition.cards.map((c) => c.id);
const animalIds = edition.animals.map((a) => a.id);
const card = z.int().min(1).max(Math.max(...cardIds)).describe('A card by its number');
const animal = z.enum(animalIds as [string, ...string[]]).describe('An animal id from the edition data');
const count = z.int().min(0).max(99);
const chips = z.strictObject({ teeth: count, fur: count, meat: count, skull: count });
const cards = z.array(card);

export const positionSchema = z
  .strictObject({
    round: z.int().min(1).max(ROUNDS).describe('The round about to be played'),
    animal: animal.describe("This round's animal, face up"),
    animalsGone: z.array(animal).describe('The animals of the earlier rounds (round − 1 of them)'),
    hands: z.array(cards.nullable()).describe("Per seat, its hand; null only in a redacted event, for a hand the viewer may not see"),
    handSizes: z.array(z.int().min(0)).optional().describe('In a redacted event: how many cards each seat holds'),
    discardPile: cards.optional().describe('The discard pile (cards played and surplus discards); omitted only in a redacted event'),
    drawPile: cards.optional().describe('The draw pile, in any order; omitted: the cards no hand and no discard holds (checked when given; never shown but to the referee)'),
    chips: z.array(chips).describe('Per seat, its prey chips'),
    supply: chips.describe('The chips left in the supply'),
    lastRound: z
      .strictObject({ round: z.int().min(1).max(ROUNDS), animal: animal.nullable(), played: z.array(cards) })
      .nullable()
      .default(null)
      .describe('The round that ended last as the table still shows it (its animal and every seat\'s cards); null: nothing shown'),
  })
  .describe('A Fackel+Keule table at the start of a round');

export type FackelPosition = z.infer<typeof positionSchema>;

/** Problems for items found more than once (the rest of the box lies elsewhere). */
const twice = (prefix: string, found: readonly (string | number)[]): PositionProblem[] =>
  countComponents(prefix, [...new Set(found)], found).filter((p) => (p.found ?? 0) > 1);

function check(position: FackelPosition, { seats }: Setup<Options>): PositionProblem[] {
  const problems: PositionProblem[] = [];
  for (const field of ['hands', 'chips'] as const) {
    if (position[field].length !== seats) problems.push({ code: positionCodes.invalid, component: field, message: `${field} has ${position[field].length} entries for ${seats} seats`, expected: seats, found: position[field].length });
  }
  for (const field of ['handSizes'] as const) if (position[field] !== undefined) problems.push({ code: positionCodes.invalid, component: field, message: 'only a redacted event counts hands; give their cards' });
  if (position.discardPile === undefined) problems.push({ code: positionCodes.invalid, component: 'discardPile', message: 'the discard pile is needed' });
  const hands = position.hands.map((h) => h ?? []);
  for (const [s, hand] of position.hands.entries()) {
    if (hand === null) problems.push({ code: positionCodes.invalid, component: `hands.${s}`, message: "every seat's hand is needed" });
    else if (hand.length > tableFor(seats).handLimit) problems.push({ code: positionCodes.outOfRange, component: `hands.${s}`, message: `seat ${s} holds ${hand.length} cards, more than the hand limit ${tableFor(seats).handLimit}`, expected: tableFor(seats).handLimit, found: hand.length });
  }
  const placed = [...hands.flat(), ...(position.discardPile ?? [])];
  problems.push(...(position.drawPile === undefined ? [...countComponents('card', cardIds, placed).filter((p) => p.expected === 0), ...twice('card', placed)] : countComponents('card', cardIds, [...placed, ...position.drawPile])));
  problems.push(...twice('animal', [position.animal, ...position.animalsGone]));
  if (position.animalsGone.length !== position.round - 1) {
    problems.push({ code: positionCodes.outOfRange, component: 'animalsGone', message: `round ${position.round} comes after ${position.round - 1} animals, not ${position.animalsGone.length}`, expected: position.round - 1, found: position.animalsGone.length });
  }
  for (const kind of CHIP_KINDS) {
    const found = position.supply[kind] + position.chips.reduce((n, c) => n + c[kind], 0);
    if (found !== edition.chips[kind]) problems.push({ code: positionCodes.componentsMismatch, component: `chip:${kind}`, message: `${kind}: the box has ${edition.chips[kind]}, the position has ${found}`, expected: edition.chips[kind], found });
  }
  return problems;
}

const sorted = (list: readonly number[]): number[] => [...list].sort((a, b) => a - b);

function state(initial: State, position: FackelPosition, _at: number): State {
  const hands = position.hands.map((h) => sorted(h ?? []));
  const discardPile = sorted(position.discardPile ?? []);
  const gone = new Set([position.animal, ...position.animalsGone]);
  const elsewhere = new Set([...hands.flat(), ...discardPile]);
  return {
    ...initial,
    round: position.round,
    animal: position.animal,
    animalsLeft: animalIds.filter((a) => !gone.has(a)),
    drawPile: sorted(position.drawPile ?? cardIds.filter((c) => !elsewhere.has(c))),
    discardPile,
    hands,
    played: null,
    lastRound: position.lastRound,
    chips: position.chips.map((c): ChipCounts => ({ ...c })),
    supply: { ...position.supply },
    phase: { name: 'choosing', choices: hands.map(() => null) },
    deadline: null,
  };
}

/** Others see how many cards a seat holds, not which; the piles only `all`. */
function redact(position: FackelPosition, viewer: Viewer): FackelPosition {
  if (viewer.kind === 'all') return position;
  const { drawPile: _draw, discardPile: _discard, ...shown } = position;
  return { ...shown, ...shownHands(position.hands, viewer) };
}

export const fackelUndKeulePosition: PositionRules<Options, State, FackelPosition> = {
  schema: positionSchema,
  exampleSeats: 3,
  example: {
    round: 2,
    animal: animalIds[1]!,
    animalsGone: [animalIds[0]!],
    hands: [
      [1, 2, 3, 4],
      [5, 6, 7, 8, 9],
      [10, 11, 12],
    ],
    discardPile: [13, 14, 15, 16],
    chips: [
      { teeth: 1, fur: 1, meat: 2, skull: 0 },
      { teeth: 1, fur: 1, meat: 2, skull: 0 },
      { teeth: 0, fur: 0, meat: 0, skull: 0 },
    ],
    supply: { teeth: 22, fur: 22, meat: 26, skull: 14 },
    lastRound: { round: 1, animal: animalIds[0]!, played: [[13], [14, 15], [16]] },
  },
  check,
  state,
  redact,
};
