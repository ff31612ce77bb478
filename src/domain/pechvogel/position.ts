// A Pechvogel table in play at the start of a turn: the seat to throw, every score
// marker in exactly one place (a player's pile, the middle or the box), each player's
// frustrations and who holds Murphy.
import { z } from 'zod';
import type { Setup, Viewer } from '../contract.ts';
import { countComponents, positionCodes, type PositionProblem, type PositionRules } from '../position-rules.ts';
import { initialMiddle } from './edition.ts';
import type { Options } from './options.ts';
import { newTurn, type State } from './state.ts';
import { NUMBERS, type DieNumber } from './vocabulary.ts';

const marker = z.literal(NUMBERS).describe('A score marker, by its number');
const seat = z.int().min(0).max(5);

export const positionSchema = z
  .strictObject({
    turn: seat.describe('The seat whose turn starts: it throws first'),
    players: z
      .array(z.strictObject({ markers: z.array(marker).describe("The player's score markers"), frustrations: z.int().min(0).max(99).describe('Frustration tokens held') }))
      .describe('Per seat'),
    middle: z.array(marker).describe('Score markers in the middle'),
    box: z.array(marker).default([]).describe('Score markers returned to the game box (by steals), in the order returned'),
    murphy: seat.nullable().default(null).describe('The seat holding Murphy, or null'),
  })
  .describe('A Pechvogel table at the start of a turn');

export type PechvogelPosition = z.infer<typeof positionSchema>;

function check(position: PechvogelPosition, { seats }: Setup<Options>): PositionProblem[] {
  const problems: PositionProblem[] = [];
  if (position.players.length !== seats) {
    problems.push({ code: positionCodes.invalid, component: 'players', message: `players has ${position.players.length} entries for ${seats} seats`, expected: seats, found: position.players.length });
  }
  if (position.turn >= seats) problems.push({ code: positionCodes.invalid, component: 'turn', message: `no seat ${position.turn} at a table of ${seats}` });
  if (position.murphy !== null && position.murphy >= seats) problems.push({ code: positionCodes.invalid, component: 'murphy', message: `no seat ${position.murphy} at a table of ${seats}` });
  problems.push(...countComponents('marker', initialMiddle(), [...position.middle, ...position.box, ...position.players.flatMap((p) => p.markers)]));
  if (position.middle.length === 0) problems.push({ code: positionCodes.illegalPhase, component: 'middle', message: 'with the middle empty the game is over', found: 0 });
  return problems;
}

const sorted = (markers: readonly DieNumber[]): DieNumber[] => [...markers].sort((a, b) => a - b);

function state(initial: State, position: PechvogelPosition, _at: number): State {
  return {
    ...initial,
    phase: 'throw',
    players: position.players.map((p) => ({ markers: [...p.markers], frustrations: p.frustrations })),
    middle: sorted(position.middle),
    box: [...position.box],
    murphy: position.murphy,
    turn: newTurn(position.turn),
  };
}

export const pechvogelPosition: PositionRules<Options, State, PechvogelPosition> = {
  schema: positionSchema,
  exampleSeats: 3,
  example: {
    turn: 2,
    players: [
      { markers: [5, 7], frustrations: 1 },
      { markers: [3], frustrations: 0 },
      { markers: [], frustrations: 2 },
    ],
    middle: [3, 3, 4, 4, 4, 5, 6, 6, 6, 7],
    box: [5, 7],
    murphy: null,
  },
  check,
  state,
  redact: (position: PechvogelPosition, _viewer: Viewer) => position,
};
