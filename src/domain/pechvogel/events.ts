// What happened, as facts. Nothing in Pechvogel is hidden, so no field is ever
// redacted. Every field evolve needs is written here: evolve recomputes no rule.
import { z } from 'zod';
import { FACES, NUMBERS } from './vocabulary.ts';

const seat = z.int().min(0).describe('Seat number, clockwise from 0.');
const face = z.literal(FACES).describe('A die face: 3 to 7 or a raven.');
const number = z.literal(NUMBERS).describe('A number 3 to 7 (target or score-marker value).');
const time = z.int().describe('Milliseconds since the epoch.');

export const eventSchema = z
  .discriminatedUnion('type', [
    z
      .object({ type: z.literal('TurnStarted'), seat })
      .describe('The first turn began; later turns begin with TurnEnded.nextSeat.'),
    z
      .object({
        type: z.literal('DiceThrown'),
        seat,
        faces: z.array(face).describe('One face per die thrown, in order.'),
        reroll: z
          .boolean()
          .describe('This throw rerolls the last one (whose dice came back when the reroll became due).'),
        reactionDeadline: time
          .nullable()
          .describe('Set when a reaction window opened on this throw; it closes at this time at the latest.'),
      })
      .describe('Dice were thrown; ravens (and, after the first throw, the target) went to the board.'),
    z
      .object({ type: z.literal('TargetChosen'), seat, target: number })
      .describe('After the first throw all dice of this number went to the board.'),
    z
      .object({ type: z.literal('Passed'), seat })
      .describe('A seat declined to react to the last throw (or to join a frustration).'),
    z
      .object({ type: z.literal('FrustrationReduced'), seat })
      .describe('The player returned a frustration to the supply; the last throw will be rerolled.'),
    z
      .object({ type: z.literal('FrustrationStarted'), seat, joinDeadline: time })
      .describe('An opponent put a frustration on the board; the others may join until joinDeadline.'),
    z
      .object({ type: z.literal('FrustrationJoined'), seat })
      .describe('Another opponent put a frustration on the board.'),
    z
      .object({
        type: z.literal('ReactionClosed'),
        timedOut: z.boolean().describe('Closed by the deadline rather than by the last decision.'),
      })
      .describe('The reaction window closed; if anyone frustrated, the last throw will be rerolled.'),
    z
      .object({
        type: z.literal('TurnEnded'),
        seat,
        marker: z
          .object({
            value: number,
            from: seat.nullable().describe('The opponent it was stolen from; null: from the middle.'),
          })
          .nullable()
          .describe('The score marker taken; null if the target was not collected or none was left.'),
        boxed: number.nullable().describe('Marker returned from the middle to the box after stealing.'),
        murphy: z.boolean().describe('The player was greedy and took Murphy.'),
        frustrationsTaken: z
          .object({
            fromBoard: z.int().min(0),
            fromSupply: z.int().min(0),
          })
          .describe('Frustrations the player took for collecting three ravens.'),
        repaid: z
          .array(
            z.object({
              seat,
              fromPlayer: z.boolean().describe('The extra one came from the player; false: from the supply.'),
            }),
          )
          .describe('Frustraters who got their frustration back plus one more (fewer than three ravens).'),
        nextSeat: seat.nullable().describe('Whose turn is next; null: the middle is empty and the game is over.'),
      })
      .describe('The turn was scored and the dice passed on.'),
  ])
  .describe('A Pechvogel event.');

export type PechvogelEvent = z.infer<typeof eventSchema>;
export type TurnEnded = Extract<PechvogelEvent, { type: 'TurnEnded' }>;
export type DiceThrown = Extract<PechvogelEvent, { type: 'DiceThrown' }>;
