// Fackel+Keule's only option is a tournament-style time limit; the player count (3–5)
// comes from the seats.
import { z } from 'zod';
import { violation, type RuleViolation, type Setup } from '../contract.ts';
import { codes } from './codes.ts';
import { MAX_PLAYERS, MIN_PLAYERS } from './vocabulary.ts';

/** An hour a turn is far beyond any table's patience; larger values are typos. */
export const MAX_TURN_SECONDS = 3600;

export const optionsSchema = z
  .strictObject({
    turnSeconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_TURN_SECONDS)
      .default(0)
      .describe(
        'Seconds each phase (or each turn within it) gives the seats that must act; 0 = no limit. ' +
          'When it passes the table acts for them: a random card, a random surplus, the first take, the first rob.',
      ),
  })
  .describe('Play with 3 to 5 seats; optionally with a time limit per turn.');
export type Options = z.infer<typeof optionsSchema>;

export const validateSetup = (setup: Setup<Options>): RuleViolation | null =>
  Number.isInteger(setup.seats) && setup.seats >= MIN_PLAYERS && setup.seats <= MAX_PLAYERS
    ? null
    : violation(codes.playerCount, `Fackel+Keule is for ${MIN_PLAYERS} to ${MAX_PLAYERS} players`);
