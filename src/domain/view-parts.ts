// zod pieces the games' view and edition schemas share: a seat number, counts and the
// contract's GameResult, so every game's documents say them the same way.
import { z } from 'zod';
import type { GameResult } from './contract.ts';

/** Sixteen seats is the most any table of the platform holds. */
export const seatSchema = z.int().min(0).max(15).describe('Seat number, 0-based, clockwise.');

/** A number of components or steps: never negative, never astronomic. */
export const countSchema = z.int().min(0).max(100_000);

/** Milliseconds since the epoch. */
export const timeSchema = z.int().min(0).describe('Milliseconds since the epoch.');

export const resultSchema = z
  .strictObject({
    scores: z.array(z.number()).describe('Final score per seat.'),
    ranks: z.array(z.int().min(1).max(16)).describe('1 = best; tied seats share a rank. Index = seat.'),
    winners: z.array(seatSchema).describe('Seats with rank 1.'),
    resigned: z.array(seatSchema).optional().describe('Seats that resigned or lost on time, ranked last (the game ended by their resignation); absent when nobody did.'),
  })
  .describe('The result of a finished game.') satisfies z.ZodType<GameResult>;
