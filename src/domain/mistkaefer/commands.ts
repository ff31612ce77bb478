// What a seat may ask for. Chance outcomes never travel in commands.
import { z } from 'zod';
import { bonusKinds, colours } from './vocabulary.ts';

const seat = z.number().int().min(0);

export const commandSchema = z
  .discriminatedUnion('type', [
    z
      .strictObject({
        type: z.literal('roll'),
        colour: z.enum(colours),
        count: z.number().int().min(1).max(4).describe('How many dice of that colour to take: 1 to 4, at most what the supply holds'),
      })
      .describe('A. Rolling: take dice of one colour and roll them once.'),
    z
      .strictObject({
        type: z.literal('place'),
        value: z.number().int().min(1).max(6).describe('The rolled value whose dice are all placed'),
        stealFrom: z
          .array(seat)
          .default([])
          .describe('Seats to steal the identical die from (its row must end with it); not in the 1st round'),
      })
      .describe('Place every rolled die showing `value`, plus the dice stolen.'),
    z
      .strictObject({
        type: z.literal('resolveBonus'),
        bonus: z.enum(bonusKinds).describe('Which pending bonus to carry out next'),
        victim: seat.nullable().default(null).describe('For stealChip: whose chip; null only when nobody has a chip'),
      })
      .describe('Carry out one bonus space just occupied.'),
    z.strictObject({ type: z.literal('score') }).describe('B. Scoring: take chips for the tableau and clear it.'),
  ])
  .describe('A Mistkäfer command');

export type Command = z.infer<typeof commandSchema>;
