// Commands: what a seat may ask for, and the system's timeout when a deadline passes.
import { z } from 'zod';
import { PREY_KINDS } from './vocabulary.ts';

const cards = z.array(z.number().int().min(1)).describe('Card numbers from your hand');

export const seatCommandSchema = z.discriminatedUnion('type', [
  z
    .object({ type: z.literal('choose'), cards })
    .describe('Secretly commit the cards you play this round (1 to the maximum for the player count)'),
  z
    .object({ type: z.literal('takePrey'), chips: z.array(z.enum(PREY_KINDS)) })
    .describe('Take your share from the killed animal: 2 chips on the first take, then 1'),
  z
    .object({
      type: z.literal('rob'),
      from: z.number().int().min(0).describe('One of the losers named in FightWon'),
      chip: z.enum(PREY_KINDS).describe('A non-skull chip that player holds'),
    })
    .describe('As fight winner, take one chip from a player with the fewest clubs'),
  z
    .object({ type: z.literal('discard'), cards })
    .describe('Discard exactly the cards above your hand limit (face down)'),
]);

const timeoutSchema = z
  .object({ type: z.literal('timeout') })
  .describe('System only, once the deadline has passed: the table acts for every seat still pending');

/** Everything the platform may pass to decide: the seats' commands and the system's timeout. */
export const commandSchema = z.discriminatedUnion('type', [...seatCommandSchema.options, timeoutSchema]);

/** What a seat sends (and what legalCommands lists); bots switch over these only. */
export type Command = z.infer<typeof seatCommandSchema>;
export type GameCommand = z.infer<typeof commandSchema>;
export type CommandOf<T extends Command['type']> = Extract<Command, { type: T }>;
