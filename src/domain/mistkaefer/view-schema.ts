// The shapes of Mistkäfer's view and edition data, for clients and the API documents.
// Chips lie face down: a seat sees the kinds of its own chips only, a spectator no
// kinds at all, and the `all` viewer every chip, the supply's too.
import { z } from 'zod';
import { countSchema as count, seatSchema as seat } from '../view-parts.ts';
import type { View } from './view.ts';
import { bonusKinds, chipKinds, colours, phases } from './vocabulary.ts';

const colour = z.enum(colours);
const chipKind = z.enum(chipKinds);
const perColour = <T extends z.ZodType>(value: T) => z.strictObject({ green: value, yellow: value, blue: value });
const perChip = z.strictObject({ oneDungBall: count, twoDungBalls: count, cloverLeaf: count });
const dieValue = z.int().min(1).max(6);

const bonusSpace = z.strictObject({ column: z.int().min(1).max(20).describe('1-based, from the left end of the row.'), bonus: z.enum(bonusKinds) });
const tableau = z.strictObject({
  rowLength: count,
  whiteLineAfter: count.describe('Dice in later columns are "right of the line".'),
  whiteChipColumns: z.array(z.int().min(1).max(20)),
  bonusSpaces: perColour(z.array(bonusSpace)),
});

const view = (hidden: { hand: z.ZodType<z.infer<typeof chipKind>[] | null>; supply: z.ZodType<z.infer<typeof perChip> | null> }, description: string) =>
  z
    .strictObject({
      seats: z.int().min(2).max(4),
      phase: z.enum(phases),
      active: seat.describe('Whose turn it is.'),
      dice: perColour(count).describe('Dice in the middle of the table, per colour.'),
      chipSupply: z.strictObject({ count, kinds: hidden.supply }).describe('The face-down chip supply; its kinds for the `all` viewer only.'),
      tableaus: z.array(perColour(z.array(dieValue))).describe("Per seat, per colour: the dice's values from left to right."),
      hands: z.array(z.strictObject({ count, kinds: hidden.hand })).describe('Per seat, its face-down chips; kinds is null where the viewer may not see them.'),
      rolled: z.strictObject({ colour, values: z.array(dieValue) }).nullable().describe('The dice just rolled and not yet placed.'),
      bonuses: z.array(z.enum(bonusKinds)).describe('Bonus spaces occupied this turn and not yet resolved.'),
      extraTurns: count,
      stealingAllowed: z.boolean().describe('Every seat has had a turn, so dice and chips may be stolen.'),
      firstTurnPending: z.array(seat).describe('Seats that have not had their first turn yet: stealing waits for them.'),
      tableauLayout: tableau.describe("The tableau's layout (the edition's `tableau`), to draw the rows."),
      winner: seat.nullable(),
    })
    .describe(description);

export const viewSchemas = {
  seat: view({ hand: z.array(chipKind).nullable(), supply: z.null() }, 'Mistkäfer through a seat: the kinds of its own chips only.'),
  spectator: view({ hand: z.null(), supply: z.null() }, 'Mistkäfer as a spectator sees it: chip counts, no kinds.'),
  all: view({ hand: z.array(chipKind), supply: perChip }, 'Mistkäfer with every chip revealed (a finished game).'),
} satisfies Record<string, z.ZodType<View>>;

const byPlayerCount = <T extends z.ZodType>(value: T) => z.strictObject({ '2': value, '3': value, '4': value });

export const editionSchema = z
  .strictObject({
    name: z.string(),
    dieFaces: z.array(dieValue),
    dicePerColour: count,
    maxDicePerRoll: count,
    chips: perChip,
    dungBalls: perChip.describe('Dung balls each chip shows.'),
    removed: byPlayerCount(z.strictObject({ dicePerColour: count, chips: perChip })).describe('Components removed for smaller games, by player count.'),
    win: z.strictObject({ cloverLeaves: count, dungBalls: byPlayerCount(count).describe('Dung balls needed, by player count.') }),
    tableau,
  })
  .describe("This project's Mistkäfer edition: components, removals, winning thresholds and the tableau.");
