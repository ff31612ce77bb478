// What happened in a game of Mistkäfer. Chip kinds are hidden from those who may not
// see them: redacted events carry `null` there (see view.ts).
import { z } from 'zod';
import { bonusKinds, chipKinds, colours } from './vocabulary.ts';

const seat = z.number().int().min(0).describe('A seat, 0..n-1 clockwise');
const colour = z.enum(colours).describe('Dice colour = tableau row');
const chipKind = z.enum(chipKinds);
const count = z.number().int().min(0);
const perColour = z.object({ green: count, yellow: count, blue: count });
const perChip = z.object({ oneDungBall: count, twoDungBalls: count, cloverLeaf: count });

export const eventSchema = z
  .discriminatedUnion('type', [
    z
      .object({
        type: z.literal('GameStarted'),
        seats: z.number().int().min(2).max(4),
        dice: perColour.describe('Dice per colour in the supply after the removals for this player count'),
        chips: perChip.describe('The face-down chip supply after the removals for this player count'),
        firstSeat: seat,
      })
      .describe('The game began; the components for the player count are in the middle of the table.'),
    z
      .object({
        type: z.literal('DiceRolled'),
        seat,
        colour,
        values: z.array(z.number().int().min(1).max(6)).min(1),
      })
      .describe('The active seat took dice of one colour from the supply and rolled them once.'),
    z
      .object({
        type: z.literal('DicePlaced'),
        seat,
        colour,
        value: z.number().int().min(1).max(6),
        count: z.number().int().min(1).describe('Rolled dice showing `value`, all placed'),
        stolenFrom: z.array(seat).describe('Seats that each lost the identical die at the end of their row'),
        bonuses: z.array(z.enum(bonusKinds)).describe('Bonus spaces the placed dice landed on, now to be resolved'),
      })
      .describe('Dice were placed; the other rolled dice went back to the supply.'),
    z
      .object({
        type: z.literal('BadLuck'),
        seat,
        colour,
        returned: perColour.describe('Dice that went from the tableau back to the supply'),
      })
      .describe('No rolled value was higher than the row\'s last die: dice go back to the supply.'),
    z
      .object({ type: z.literal('BonusResolved'), seat, bonus: z.enum(bonusKinds) })
      .describe('One pending bonus is carried out; its chip events follow.'),
    z
      .object({
        type: z.literal('ChipsTaken'),
        seat,
        count: z.number().int().min(1),
        chips: z.array(chipKind).nullable().describe('The kinds drawn; null unless you are the taker'),
      })
      .describe('Face-down chips went from the supply to a seat.'),
    z
      .object({
        type: z.literal('ChipStolen'),
        thief: seat,
        victim: seat,
        chip: chipKind.nullable().describe('The kind taken blind; null unless you are thief or victim'),
      })
      .describe('One face-down chip went from the victim to the thief.'),
    z
      .object({
        type: z.literal('TableauScored'),
        seat,
        completeColumns: count.describe('Complete columns with a white chip beneath'),
        diceRightOfLine: count,
      })
      .describe('The seat scored: one chip per complete white-chip column and per die right of the white line; its dice went back.'),
    z.object({ type: z.literal('TurnEnded'), seat, next: seat }).describe('The turn passed (to the same seat after an extra turn).'),
    z.object({ type: z.literal('GameWon'), seat }).describe('The seat reached 4 clover leaves or the dung balls needed, and wins.'),
  ])
  .describe('A Mistkäfer event');

export type Event = z.infer<typeof eventSchema>;
export type EventOf<T extends Event['type']> = Extract<Event, { type: T }>;
