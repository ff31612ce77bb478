// The shapes of Pechvogel's view and edition data, for clients and the API documents.
// Nothing is hidden, so a seat, a spectator and the `all` viewer get the same view.
import { z } from 'zod';
import { countSchema as count, seatSchema as seat, timeSchema } from '../view-parts.ts';
import { optionsSchema } from './options.ts';
import { FACES, NUMBERS, PHASES } from './vocabulary.ts';
import type { PechvogelView } from './view.ts';

const number = z.literal(NUMBERS);
const face = z.literal(FACES);

const lastThrow = z.strictObject({ dice: count, faces: z.array(face), targets: count, ravens: count });

const reaction = z.strictObject({
  deadline: timeSchema.describe('When the reaction window closes at the latest (ms since the epoch).'),
  passed: z.array(seat).describe('Seats that passed (in the joining step: declined to join).'),
  joining: z.boolean().describe('An opponent started frustrating this throw; the others decide to join.'),
});

const turn = z.strictObject({
  seat,
  throws: count.describe('Throws so far this turn, rerolls included.'),
  target: number.nullable(),
  targetsOnBoard: count,
  ravensOnBoard: count,
  remaining: count.describe('Dice not on the board.'),
  last: lastThrow.nullable().describe('What the last throw did; null before the first throw and while a reroll is due.'),
  reduced: z.boolean(),
  frustraters: z.array(seat).describe('Opponents whose frustrations lie on the board, in the order they put them.'),
  rerollDue: z.boolean(),
  reaction: reaction.nullable(),
});

const view = z
  .strictObject({
    seats: z.int().min(2).max(5),
    options: optionsSchema,
    phase: z.enum(PHASES),
    players: z.array(z.strictObject({ markers: z.array(number), frustrations: count })),
    middle: z.array(number).describe('Score markers in the middle, sorted.'),
    box: z.array(number),
    murphy: seat.nullable().describe('The seat holding Murphy, if any.'),
    turn: turn.nullable(),
    frustrationSupply: count.describe("Frustration cards left in the box's supply (0: the table uses stand-ins)."),
  })
  .describe('The whole Pechvogel table: nothing in it is hidden.');

export const viewSchemas = { seat: view, spectator: view, all: view } satisfies Record<string, z.ZodType<PechvogelView>>;

export const editionSchema = z
  .strictObject({
    dice: count,
    faces: z.array(face),
    markersPerNumber: count.describe('Score markers in the middle at setup: this many of each number.'),
    markerValues: z.array(number),
    frustrations: count,
    supplyUnlimited: z.boolean().describe('The rulebook says the frustration supply never runs out.'),
    targetGoal: count.describe('Collecting this many of the target ends the turn with a score marker.'),
    ravenLimit: count.describe('Collecting this many ravens ends the turn with frustration.'),
    frustrationPenalty: count,
    frustrationPenaltyWithMurphy: count,
  })
  .describe("This project's Pechvogel edition: components and thresholds.");
