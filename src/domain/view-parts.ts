// zod pieces the games' view and edition schemas share: a seat number, counts and the
// contract's GameResult, so every game's documents say them the same way.
import { z } from 'zod';
import type { GameResult, ScorePart } from './contract.ts';

/** Sixteen seats is the most any table of the platform holds. */
export const seatSchema = z.int().min(0).max(15).describe('Seat number, 0-based, clockwise.');

/** A number of components or steps: never negative, never astronomic. */
export const countSchema = z.int().min(0).max(100_000);

/** Milliseconds since the epoch. */
export const timeSchema = z.int().min(0).describe('Milliseconds since the epoch.');

const scorePartSchema = z
  .strictObject({
    label: z.string().min(1).max(80).describe("What the part counts, in the rulebook's words and in the singular: 'score marker', 'most meat'."),
    count: z.int().min(0).max(10_000).optional().describe('How many pieces of that kind; absent for a bonus.'),
    points: z.number().describe('The points the part brings; 0 for pieces that count towards a goal, not points (Mistkäfer).'),
  })
  .describe("One line of a seat's score.")
  .meta({ id: 'ScorePart' }) satisfies z.ZodType<ScorePart>;

export const resultSchema = z
  .strictObject({
    scores: z.array(z.number()).describe('Final score per seat.'),
    ranks: z.array(z.int().min(1).max(16)).describe('1 = best; tied seats share a rank. Index = seat.'),
    winners: z.array(seatSchema).describe('Seats with rank 1.'),
    resigned: z.array(seatSchema).optional().describe('Seats that resigned or lost on time, ranked last (the game ended by their resignation); absent when nobody did.'),
    breakdown: z
      .array(z.array(scorePartSchema).max(16))
      .optional()
      .describe("How each seat's score came about, as its rulebook counts it; index = seat. A seat's parts' points sum to its score. Absent where the rules did not score the game (a resignation, an organizer's result)."),
  })
  .describe('The result of a finished game.') satisfies z.ZodType<GameResult>;
