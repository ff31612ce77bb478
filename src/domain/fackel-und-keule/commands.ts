// Commands: what a seat may ask for, and the system's timeout when a deadline passes.
import { z } from 'zod';
import { CHIP_KINDS } from './vocabulary.ts';

const cards = z.array(z.number().int().min(1)).describe('Card numbers from your hand');

export const seatCommandSchema = z.discriminatedUnion('type', [
  z
    .strictObject({ type: z.literal('choose'), cards })
    .describe('Secretly commit the cards you play this round (1 to the maximum for the player count)'),
  z
    .strictObject({
      type: z.literal('takePrey'),
      // Every chip kind, skull included, so that taking one the animal has not is the
      // rules' refusal with its own code rather than a schema error.
      chips: z.array(z.enum(CHIP_KINDS)).describe('Chips from the animal: 2 on the first take, then 1'),
    })
    .describe('Take your share from the killed animal: 2 chips on the first take, then 1'),
  z
    .strictObject({
      type: z.literal('rob'),
      from: z.number().int().min(0).describe('One of the losers named in FightWon'),
      // A skull, or a list of chips, is the rules' to refuse (skull-not-robbable,
      // rob-count), not the schema's.
      chip: z
        .union([z.enum(CHIP_KINDS), z.array(z.enum(CHIP_KINDS))])
        .describe('One non-skull chip kind that player holds (a list is refused: a winner robs one chip)'),
    })
    .describe('As fight winner, take one chip from a player with the fewest clubs'),
  z
    .strictObject({ type: z.literal('discard'), cards })
    .describe('Discard exactly the cards above your hand limit (face down)'),
]);

const timeoutSchema = z
  .strictObject({ type: z.literal('timeout') })
  .describe('System only, once the deadline has passed: the table acts for every seat still pending');

/** Everything the platform may pass to decide: the seats' commands and the system's timeout. */
export const commandSchema = z.discriminatedUnion('type', [...seatCommandSchema.options, timeoutSchema]);

/** What a seat sends (and what legalCommands lists); bots switch over these only. */
export type Command = z.infer<typeof seatCommandSchema>;
export type GameCommand = z.infer<typeof commandSchema>;
export type CommandOf<T extends Command['type']> = Extract<Command, { type: T }>;
