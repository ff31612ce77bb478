// Events: the facts of a Fackel+Keule game. Fields hidden from some viewers are
// nullable so a redacted event still validates.
import { z } from 'zod';
import { PREY_KINDS } from './vocabulary.ts';

const seat = z.number().int().min(0).describe('Seat number, 0-based, clockwise');
const cardId = z.number().int().min(1).describe('Card number (unique per card)');
const preyKind = z.enum(PREY_KINDS);
const preyCounts = z
  .object({ teeth: z.number().int().min(0), fur: z.number().int().min(0), meat: z.number().int().min(0) })
  .describe('Prey chips by kind');

export const eventSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('CardsDrawn'),
      seat,
      count: z.number().int().min(0),
      cards: z.array(cardId).nullable().describe('Only the drawing seat sees the cards'),
    })
    .describe('A seat drew cards (the opening deal or the end-of-round draw)'),
  z
    .object({ type: z.literal('DiscardPileReshuffled'), count: z.number().int().min(0) })
    .describe('The draw pile ran out; the discard pile became the draw pile'),
  z
    .object({ type: z.literal('AnimalRevealed'), round: z.number().int().min(1), animal: z.string() })
    .describe('A new round: the animal to hunt (see the edition for its needs and prey)'),
  z
    .object({
      type: z.literal('CardsChosen'),
      seat,
      commitment: z.string().describe('sha256 hex of salt + JSON of the sorted card ids'),
      cards: z.array(cardId).nullable().describe('Only the choosing seat sees the cards'),
      salt: z.string().nullable().describe('Only the choosing seat sees the salt'),
    })
    .describe('A seat secretly committed its cards for this round'),
  z
    .object({
      type: z.literal('CardsRevealed'),
      choices: z.array(z.object({ seat, cards: z.array(cardId), salt: z.string() })),
    })
    .describe('Everyone had chosen: all choices revealed together; recompute the commitments'),
  z
    .object({
      type: z.literal('HuntSucceeded'),
      prey: preyCounts.describe('Chips put on the animal from the supply'),
      takers: z.array(seat).describe('Who takes prey, in order: most required tools first'),
    })
    .describe('The animal was killed'),
  z
    .object({
      type: z.literal('PreyTaken'),
      seat,
      chips: z.array(preyKind),
      automatic: z.boolean().describe('True when no choice was left (one kind or one taker)'),
    })
    .describe('A taker took chips from the killed animal'),
  z
    .object({
      type: z.literal('HuntFailed'),
      reason: z.enum(['missing-tools', 'too-many-clubs']),
      fight: z.boolean().describe('False when nobody played a club'),
    })
    .describe('The animal escaped'),
  z
    .object({
      type: z.literal('FightWon'),
      winner: seat,
      skull: z.boolean().describe('False only if the skull supply is empty'),
      losers: z
        .array(seat)
        .describe('Every player with the fewest clubs (rules 1.2.0; before, only those with a non-skull chip); the winner may rob those holding a non-skull chip'),
    })
    .describe('The player with the most clubs won the fight'),
  z
    .object({ type: z.literal('ChipRobbed'), winner: seat, from: seat, chip: preyKind })
    .describe('The fight winner took a chip from a loser'),
  z
    .object({ type: z.literal('RoundEnded'), round: z.number().int().min(1) })
    .describe('Animal card removed; played cards went to the discard pile'),
  z
    .object({
      type: z.literal('SurplusDiscarded'),
      seat,
      count: z.number().int().min(1),
      cards: z.array(cardId).nullable().describe('Discarded face down: only that seat sees them'),
    })
    .describe('A seat discarded down to the hand limit'),
  z
    .object({
      type: z.literal('DeadlineSet'),
      deadline: z.number().int().describe('ms since the epoch: when the phase or turn began + turnSeconds'),
    })
    .describe('With a time limit: the seats now pending must act before this moment'),
  z
    .object({ type: z.literal('TimedOut'), seats: z.array(seat).describe('The seats the table acted for') })
    .describe('The deadline passed; the events that follow are the table acting for these seats'),
  z
    .object({
      type: z.literal('GameEnded'),
      scores: z.array(z.number().int()).describe('Final score per seat'),
    })
    .describe('The 12th animal was appraised; final scores per seat'),
]);

export type Event = z.infer<typeof eventSchema>;
export type EventOf<T extends Event['type']> = Extract<Event, { type: T }>;
