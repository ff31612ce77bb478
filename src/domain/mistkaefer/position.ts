// A Mistkäfer table in play at the start of a turn: the active seat chooses to roll or
// score. Every die of the game is on a tableau or in the middle (the middle is what
// the tableaus leave), every chip face down in a seat's hand or in the supply.
import { z } from 'zod';
import type { Setup, Viewer } from '../contract.ts';
import { countComponents, positionCodes, shownHands, type PositionProblem, type PositionRules } from '../position-rules.ts';
import { edition } from './edition.ts';
import type { Options } from './options.ts';
import { componentsFor, hasWon, initialState, perColour, revise, supplyList, type State } from './state.ts';
import { chipKinds, colours, type ChipKind } from './vocabulary.ts';

const chip = z.enum(chipKinds);
const die = z.int().min(1).max(6);
const row = z.array(die).max(edition.tableau.rowLength);
const seat = z.int().min(0).max(3);

export const positionSchema = z
  .strictObject({
    active: seat.describe('The seat whose turn starts: it rolls or scores'),
    tableaus: z.array(z.strictObject({ green: row, yellow: row, blue: row })).describe('Per seat, per colour, the dice from left to right'),
    hands: z
      .array(z.array(chip).nullable())
      .describe("Per seat, its face-down chips; null only in a redacted event, for a hand the viewer may not see"),
    handSizes: z.array(z.int().min(0)).optional().describe('In a redacted event: how many chips each seat holds'),
    supply: z
      .strictObject({ oneDungBall: z.int().min(0), twoDungBalls: z.int().min(0), cloverLeaf: z.int().min(0) })
      .optional()
      .describe('The face-down supply; omitted: what the hands leave of the box (checked when given; never shown but to the referee)'),
    firstTurnPending: z.array(seat).default([]).describe('Seats still to take their first turn: no stealing until they have (the first round)'),
    extraTurns: z.int().min(0).max(9).default(0).describe('Extra turns the active seat has still to take after this one'),
  })
  .describe('A Mistkäfer table at the start of a turn');

export type MistkaeferPosition = z.infer<typeof positionSchema>;

const handsOf = (position: MistkaeferPosition): ChipKind[][] => position.hands.map((h) => [...(h ?? [])]);

function check(position: MistkaeferPosition, { seats }: Setup<Options>): PositionProblem[] {
  const problems: PositionProblem[] = [];
  for (const field of ['tableaus', 'hands'] as const) {
    if (position[field].length !== seats) problems.push({ code: positionCodes.invalid, component: field, message: `${field} has ${position[field].length} entries for ${seats} seats`, expected: seats, found: position[field].length });
  }
  for (const [s, hand] of position.hands.entries()) if (hand === null) problems.push({ code: positionCodes.invalid, component: `hands.${s}`, message: "every seat's chips are needed" });
  if (position.handSizes !== undefined) problems.push({ code: positionCodes.invalid, component: 'handSizes', message: 'only a redacted event counts hands; give their chips' });
  if (position.active >= seats) problems.push({ code: positionCodes.invalid, component: 'active', message: `no seat ${position.active} at a table of ${seats}` });
  for (const s of position.firstTurnPending) if (s >= seats) problems.push({ code: positionCodes.invalid, component: 'firstTurnPending', message: `no seat ${s} at a table of ${seats}` });
  const box = componentsFor(seats);
  for (const colour of colours) {
    const placed = position.tableaus.reduce((n, t) => n + t[colour].length, 0);
    if (placed > box.dice[colour]) problems.push({ code: positionCodes.outOfRange, component: `dice:${colour}`, message: `${placed} ${colour} dice on the tableaus, the game has ${box.dice[colour]}`, expected: box.dice[colour], found: placed });
  }
  for (const [s, t] of position.tableaus.entries()) {
    for (const colour of colours) {
      if (t[colour].some((v, i) => i > 0 && v < t[colour][i - 1]!)) problems.push({ code: positionCodes.invalid, component: `tableaus.${s}.${colour}`, message: 'a row rises from left to right (each die placed higher than the last)' });
    }
  }
  const hands = handsOf(position);
  const given = position.supply === undefined ? null : supplyList(position.supply);
  const inBox = supplyList(box.chips);
  if (given === null) {
    // The supply is what the hands leave: only a hand with more than the box holds can be wrong.
    for (const kind of chipKinds) {
      const held = hands.flat().filter((k) => k === kind).length;
      if (held > box.chips[kind]) problems.push({ code: positionCodes.componentsMismatch, component: `chip:${kind}`, message: `${held} ${kind} chips in the hands, the game has ${box.chips[kind]}`, expected: box.chips[kind], found: held });
    }
  } else problems.push(...countComponents('chip', inBox, [...given, ...hands.flat()]));
  if (problems.length === 0) {
    const winner = hands.findIndex((_, s) => hasWon(revise(initialState(seats), { hands }), s));
    if (winner >= 0) problems.push({ code: positionCodes.illegalPhase, component: `hands.${winner}`, message: `seat ${winner} holds the winning chips: the game is over` });
  }
  return problems;
}

function state(initial: State, position: MistkaeferPosition, _at: number): State {
  const { seats } = initial;
  const box = componentsFor(seats);
  const hands = handsOf(position);
  const held = (kind: ChipKind) => hands.flat().filter((k) => k === kind).length;
  return revise(initial, {
    phase: 'turn',
    active: position.active,
    dice: perColour((c) => box.dice[c] - position.tableaus.reduce((n, t) => n + t[c].length, 0)),
    chips: position.supply ?? { oneDungBall: box.chips.oneDungBall - held('oneDungBall'), twoDungBalls: box.chips.twoDungBalls - held('twoDungBalls'), cloverLeaf: box.chips.cloverLeaf - held('cloverLeaf') },
    tableaus: position.tableaus.map((t) => ({ green: [...t.green], yellow: [...t.yellow], blue: [...t.blue] })),
    hands,
    extraTurns: position.extraTurns,
    hadTurn: Array.from({ length: seats }, (_, s) => !position.firstTurnPending.includes(s)),
  });
}

/** Others see how many chips a seat holds, not which; the supply's kinds only `all`. */
function redact(position: MistkaeferPosition, viewer: Viewer): MistkaeferPosition {
  if (viewer.kind === 'all') return position;
  const { supply: _supply, ...shown } = position;
  return { ...shown, ...shownHands(position.hands, viewer) };
}

export const mistkaeferPosition: PositionRules<Options, State, MistkaeferPosition> = {
  schema: positionSchema,
  exampleSeats: 2,
  example: {
    active: 1,
    tableaus: [
      { green: [2, 4], yellow: [1, 1, 3], blue: [] },
      { green: [5], yellow: [], blue: [1, 2, 2, 6] },
    ],
    hands: [['oneDungBall', 'cloverLeaf'], ['twoDungBalls']],
    firstTurnPending: [],
    extraTurns: 0,
  },
  check,
  state,
  redact,
};
