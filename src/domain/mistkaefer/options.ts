import { z } from 'zod';

// Mistkäfer has no variants: the player count (2–4) comes from the seats.
export const optionsSchema = z
  .strictObject({})
  .describe('Mistkäfer has no options; the player count is the number of seats (2–4).');
export type Options = z.infer<typeof optionsSchema>;
