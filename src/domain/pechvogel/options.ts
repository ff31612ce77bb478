import { z } from 'zod';
import { violation, type RuleViolation, type Setup } from '../contract.ts';
import { CODES } from './codes.ts';

/** The rulebook does not say; 2–5 keeps everyone's wait for the dice short. */
export const PLAYERS = { min: 2, max: 5 } as const;

export const optionsSchema = z
  .strictObject({
    firstSeat: z
      .int()
      .min(0)
      .max(PLAYERS.max - 1)
      .default(0)
      .describe('Seat that takes the first turn (the rulebook picks whoever lives closest to 13 Calamity Lane).'),
    reactionSeconds: z
      .int()
      .min(0)
      .max(600)
      .default(20)
      .describe(
        'How long the reaction window after a throw (reduce / frustrate / join) stays open; ' +
          '0 = no time limit: the window closes when every seat has decided (the default of supplied-chance games).',
      ),
  })
  .describe('Pechvogel options.');
export type Options = z.infer<typeof optionsSchema>;

/** A recorded game waits for the table: the window closes when everyone has decided. */
export const untimedOptions: Partial<Options> = { reactionSeconds: 0 };

/** Without a time limit the reaction window has no deadline: nothing times it out. */
export const timed = (options: Options): boolean => options.reactionSeconds > 0;

export function validateSetup(setup: Setup<Options>): RuleViolation | null {
  if (!Number.isInteger(setup.seats) || setup.seats < PLAYERS.min || setup.seats > PLAYERS.max) {
    return violation(CODES.playerCount, `Pechvogel is played by ${PLAYERS.min} to ${PLAYERS.max} players`);
  }
  if (setup.options.firstSeat >= setup.seats) {
    return violation(CODES.firstSeat, `firstSeat ${setup.options.firstSeat} is not one of the ${setup.seats} seats`);
  }
  return null;
}
