// The shapes of Porca Miseria's view and edition data, for clients and the API
// documents. Everything revealed is public, so seats and spectators share a view; only
// the `all` viewer (a finished game's replay) sees which cards were left in the stack.
import { z } from 'zod';
import { countSchema as count, seatSchema as seat, timeSchema } from '../view-parts.ts';
import type { PorcaView } from './view.ts';
import { phases, symbols } from './vocabulary.ts';

const cardId = z.string().max(32).describe('A card id from the edition data.');
const symbol = z.enum(symbols);
const symbolCard = z.strictObject({
  id: cardId,
  kind: z.literal('symbol'),
  counts: z.strictObject({ mushroom: count, pig: count, sweep: count }).describe('How often each symbol appears on the card.'),
});
const touchCard = z.strictObject({ id: cardId, kind: z.literal('touch'), symbol });
const card = z.discriminatedUnion('kind', [symbolCard, touchCard]);

const view = (stack: z.ZodType<string[] | null>, description: string) =>
  z
    .strictObject({
      phase: z.enum(phases),
      startingSeat: seat,
      expert: z.boolean(),
      luckyNumbers: z.array(z.array(z.int().min(1).max(8))).describe('Per seat, the lucky numbers that count now.'),
      card: card.nullable().describe('The face-up card of the current action.'),
      stackSize: count,
      stack: stack,
      jackpot: z.array(cardId).describe('Oldest first.'),
      winnings: z.array(z.array(cardId)).describe('Per seat, face up, oldest first.'),
      compensation: z.array(z.array(symbol)).describe('Per seat, target cards kept as compensation for cards the stack could not pay.'),
      targets: z.array(z.strictObject({ symbol, heldBy: seat.nullable() })),
      grabs: z.array(z.strictObject({ seat, target: symbol, receivedAt: timeSchema })).describe('In the order received.'),
      hands: z.array(z.strictObject({ seat, receivedAt: timeSchema })).describe('The stack of hands, bottom first.'),
      passed: z.array(z.boolean()),
      deadline: timeSchema.nullable().describe('When the open window closes; null when none is open.'),
      scores: z.array(z.int()),
      actions: count.describe('Cards revealed so far.'),
      maxActions: count.nullable().describe('The game ends after this many revealed cards; null: no limit (a game stored before the option existed).'),
      endReason: z.enum(['stack-exhausted', 'stack-empty', 'action-limit']).nullable(),
    })
    .describe(description);

const shared = view(z.null(), 'The Porca Miseria table, as every seat and spectator sees it.');

export const viewSchemas = {
  seat: shared,
  spectator: shared,
  all: view(z.array(cardId).describe('The unordered cards left in the stack.'), 'The Porca Miseria table with the cards left in the stack (a finished game).'),
} satisfies Record<string, z.ZodType<PorcaView>>;

export const editionSchema = z
  .strictObject({
    name: z.string(),
    targets: z.array(z.strictObject({ symbol, colour: z.string() })),
    cards: z.array(card),
  })
  .describe("This project's Porca Miseria edition: the target cards and the 63 cards of the stack.");
