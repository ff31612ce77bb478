import { z } from 'zod';
import { symbols } from './vocabulary.ts';

export const commandSchema = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.literal('reveal') }).describe('Starting player: turn over the top card of the stack.'),
    z
      .strictObject({ type: z.literal('grab'), target: z.enum(symbols).describe('The target card to take.') })
      .describe('Symbol card: take a free target card. Wrong grabs cost three cards of winnings.'),
    z
      .strictObject({ type: z.literal('slap') })
      .describe('Touch card: put your next hand on the stack of hands on the matching target card.'),
    z.strictObject({ type: z.literal('pass') }).describe('Done with this action: no more grabs or slaps.'),
    z
      .strictObject({ type: z.literal('timeout') })
      .describe('System only: the current deadline passed; the server reveals or settles the action.'),
  ])
  .describe('Porca Miseria commands.');

export type PorcaCommand = z.infer<typeof commandSchema>;
