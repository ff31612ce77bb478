import { z } from 'zod';
import { symbols } from './vocabulary.ts';

const seat = z.number().int().min(0).describe('Seat number, 0..n-1 clockwise.');
const cardId = z.string().describe('A card id from the edition data.');
const target = z.enum(symbols).describe('A target card, named by its symbol.');
const receivedAt = z
  .number()
  .int()
  .describe('Server receive time of the command (ms since epoch); this order decides races.');

export const eventSchema = z
  .discriminatedUnion('type', [
    z
      .object({ type: z.literal('GameStarted'), startingSeat: seat, at: z.number().int() })
      .describe('The first starting player may now reveal the top card.'),
    z
      .object({
        type: z.literal('CardRevealed'),
        card: cardId,
        by: seat.nullable().describe('The starting player, or null when the server revealed at the deadline.'),
        receivedAt,
      })
      .describe('The top card of the stack is face up; its action window opens at receivedAt.'),
    z
      .object({ type: z.literal('TargetGrabbed'), seat, target, receivedAt })
      .describe('The seat took a free target card (symbol card action).'),
    z
      .object({ type: z.literal('HandSlapped'), seat, receivedAt })
      .describe("The seat put its next hand on top of the stack of hands (touch card action)."),
    z
      .object({ type: z.literal('Passed'), seat, receivedAt })
      .describe('The seat will not grab or slap again in this action.'),
    z
      .object({ type: z.literal('WinningPaid'), seat, target, card: cardId })
      .describe('A rightful grab earned this card from the stack.'),
    z
      .object({ type: z.literal('CompensationReceived'), seat, target })
      .describe('The stack could not pay this rightful grab: the seat keeps the target card, worth one card.'),
    z
      .object({ type: z.literal('LossPaid'), seat, target, cards: z.array(cardId) })
      .describe('A wrong grab moved these cards (up to three) from the seat\'s winnings to the jackpot.'),
    z
      .object({ type: z.literal('CardAddedToJackpot'), card: cardId })
      .describe('The revealed card went to the jackpot (a symbol card, or a touch card nobody slapped).'),
    z
      .object({
        type: z.literal('TouchCardWon'),
        seat,
        by: z.enum(['sandwich', 'bottom-hand']),
        card: cardId,
        jackpot: z.array(cardId).describe('The jackpot cards won with the touch card.'),
      })
      .describe('The touch card and the jackpot went to the seat.'),
    z
      .object({
        type: z.literal('StartingPlayerChanged'),
        seat,
        returnedToStack: z.array(cardId).describe('Jackpot cards beyond five, shuffled back into the stack.'),
        at: z.number().int(),
      })
      .describe('The next seat clockwise is the starting player; the reveal window opens at `at`.'),
    z
      .object({
        type: z.literal('GameEnded'),
        reason: z
          .enum(['stack-exhausted', 'stack-empty', 'action-limit'])
          .describe(
            'stack-exhausted: winnings could not be paid; stack-empty: no card left to reveal; ' +
              'action-limit: the `maxActions`-th revealed card has been settled.',
          ),
      })
      .describe('The game is over; the result counts each seat\'s cards.'),
  ])
  .describe('Porca Miseria events. Nothing in them is secret: every revealed card is public.');

export type PorcaEvent = z.infer<typeof eventSchema>;
