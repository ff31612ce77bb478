// Fackel+Keule has no variants: the player count (3–5) comes from the seats.
import { z } from 'zod';
import { violation, type RuleViolation, type Setup } from '../contract.ts';
import { codes } from './codes.ts';
import { MAX_PLAYERS, MIN_PLAYERS } from './vocabulary.ts';

export const optionsSchema = z
  .object({})
  .describe('Fackel+Keule has no options; play with 3 to 5 seats.');
export type Options = z.infer<typeof optionsSchema>;

export const validateSetup = (setup: Setup<Options>): RuleViolation | null =>
  Number.isInteger(setup.seats) && setup.seats >= MIN_PLAYERS && setup.seats <= MAX_PLAYERS
    ? null
    : violation(codes.playerCount, `Fackel+Keule is for ${MIN_PLAYERS} to ${MAX_PLAYERS} players`);
