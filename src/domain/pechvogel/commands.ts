import { z } from 'zod';
import { NUMBERS } from './vocabulary.ts';

const number = z.literal(NUMBERS);

export const commandSchema = z
  .discriminatedUnion('type', [
    z
      .strictObject({ type: z.literal('throw') })
      .describe('Throw the remaining dice, or reroll the last throw when a reroll is due.'),
    z
      .strictObject({ type: z.literal('chooseTarget'), target: number.describe('A number on the first throw.') })
      .describe('After the first throw: put all dice of this number on the board as the target.'),
    z
      .strictObject({ type: z.literal('reduce') })
      .describe('Reaction window, your turn: return one of your frustrations and reroll the last throw.'),
    z
      .strictObject({ type: z.literal('frustrate') })
      .describe("Reaction window, opponent: put one of your frustrations on the board (start or join)."),
    z.strictObject({ type: z.literal('pass') }).describe('Reaction window: do not react to this throw.'),
    z
      .strictObject({ type: z.literal('takeFromMiddle') })
      .describe('End of turn: take the target-number score marker from the middle.'),
    z
      .strictObject({
        type: z.literal('steal'),
        from: z.int().min(0).describe('The opponent holding a marker of the target number.'),
        returnToBox: number.describe('A marker in the middle to return to the game box.'),
      })
      .describe('End of turn: steal the target-number marker and box one from the middle.'),
    z
      .strictObject({ type: z.literal('timeout') })
      .describe('System only: the reaction deadline passed; undecided seats pass.'),
  ])
  .describe('A Pechvogel command.');

export type PechvogelCommand = z.infer<typeof commandSchema>;
