import { z } from 'zod';

/** A deadline in ms: 0 for none, else half a second to two minutes. */
const deadlineMs = (fallback: number) =>
  z.union([z.literal(0), z.number().int().min(500).max(120_000)]).default(fallback);

export const optionsSchema = z
  .strictObject({
    expert: z
      .boolean()
      .default(false)
      .describe('Variant for experts: the lucky numbers move with the starting player.'),
    revealMs: deadlineMs(5_000).describe(
      'How long the starting player has to reveal the top card before the server reveals it; ' +
        '0 = no deadline: the starting player reveals (the default of supplied-chance games).',
    ),
    windowMs: deadlineMs(4_000).describe(
      'How long a revealed card stays open for grabs or slaps before the action is settled; ' +
        '0 = no deadline: the action is settled when nobody may grab or slap any more (the default of supplied-chance games).',
    ),
    maxActions: z
      .number()
      .int()
      .min(1)
      .max(10_000)
      .default(300)
      .describe(
        'The game ends after this many revealed cards (actions) even if the stack is not empty; ' +
          'the rulebook has no such limit, but without one wrong grabs can refill the stack forever.',
      ),
  })
  .describe('Porca Miseria options; the player count (3-8) is the number of seats.');

export type Options = z.infer<typeof optionsSchema>;

/** A recorded game waits for the table: no reveal and no action window times out. */
export const untimedOptions: Partial<Options> = { revealMs: 0, windowMs: 0 };

/** Options as a game holds them. The platform hands a stored game's options to the
 * rules as stored, without the schema's defaults, and games stored before `maxActions`
 * existed lack it: they began without a limit and keep playing without one. */
export type StoredOptions = Omit<Options, 'maxActions'> & { readonly maxActions?: number };
