// The shapes of Fackel+Keule's view and edition data, for clients and the API
// documents. A seat sees its own hand and choice (`you`), a spectator neither, and the
// `all` viewer (a finished game's replay) every hand, choice and pile (`all`).
import { z } from 'zod';
import { countSchema as count, resultSchema, seatSchema as seat, timeSchema } from '../view-parts.ts';
import type { View } from './view.ts';
import { CARD_KINDS, CHIP_KINDS, PREY_KINDS, ROUNDS, TOOL_KINDS } from './vocabulary.ts';

const cardId = z.int().min(1).max(1000).describe('Card number (unique per card); see the edition.');
const counts = <K extends string>(kinds: readonly K[]) =>
  z.strictObject(Object.fromEntries(kinds.map((k) => [k, count])) as Record<K, typeof count>);
const chipCounts = counts(CHIP_KINDS);
const preyCounts = counts(PREY_KINDS);
const toolCounts = counts(TOOL_KINDS);

const animal = z.strictObject({
  id: z.string(),
  name: z.string(),
  needs: toolCounts.describe('Tools required to kill the animal.'),
  prey: preyCounts.describe('Prey chips the animal yields when killed.'),
});

const seatView = z.strictObject({
  seat,
  handSize: count.describe('Cards in hand, chosen cards included until the reveal.'),
  chips: chipCounts,
  commitment: z.string().nullable().describe("The public commitment of this round's choice (sha256 hex); null if not chosen yet."),
  played: z.array(cardId).nullable().describe('Cards revealed this round; null before the reveal.'),
});

const you = z
  .strictObject({
    seat,
    hand: z.array(cardId),
    choice: z.array(cardId).nullable().describe('The cards you chose this round; null if not chosen yet.'),
    surplus: count.describe('Cards you must discard now (discarding phase).'),
  })
  .describe("The viewing seat's secrets.");

const everything = z
  .strictObject({
    hands: z.array(z.array(cardId)),
    choices: z.array(z.array(cardId).nullable()),
    salts: z.array(z.string().nullable()),
    drawPile: z.array(cardId),
    discardPile: z.array(cardId),
  })
  .describe('Every hand, choice and pile: for the `all` viewer only.');

const view = (secrets: { you: z.ZodType<z.infer<typeof you> | null>; all: z.ZodType<z.infer<typeof everything> | null> }, description: string) =>
  z
    .strictObject({
      round: z.int().min(0).max(ROUNDS),
      rounds: z.literal(ROUNDS),
      phase: z.enum(['dealing', 'choosing', 'sharing', 'robbing', 'discarding', 'ended']),
      animal: animal.nullable().describe("This round's animal; null before the first."),
      seats: z.array(seatView),
      drawPileSize: count,
      discardPileSize: count,
      supply: chipCounts,
      pending: z.array(seat),
      deadline: timeSchema.nullable().describe('When the pending seats run out of time; null without a limit.'),
      sharing: z
        .strictObject({ pool: preyCounts, takers: z.array(seat), next: seat.nullable(), takeSize: count })
        .nullable()
        .describe('A kill being shared: the prey left, the takers in order, who takes next and how many.'),
      robbing: z.strictObject({ winner: seat, losers: z.array(seat) }).nullable(),
      lastRound: z
        .strictObject({ round: z.int().min(1).max(ROUNDS), animal: animal.nullable(), played: z.array(z.array(cardId)) })
        .nullable()
        .describe("The round that ended last, with the cards each seat played; kept in view until the next round's reveal."),
      animalsLeft: count.describe('Animal cards left to come.'),
      result: resultSchema.nullable(),
      you: secrets.you,
      all: secrets.all,
    })
    .describe(description);

export const viewSchemas = {
  seat: view({ you, all: z.null() }, 'Fackel+Keule through a seat: its own hand and choice in `you`.'),
  spectator: view({ you: z.null(), all: z.null() }, 'Fackel+Keule as a spectator sees it: no hand, no choice.'),
  all: view({ you: z.null(), all: everything }, 'Fackel+Keule with everything revealed (a finished game).'),
} satisfies Record<string, z.ZodType<View>>;

export const editionSchema = z
  .strictObject({
    id: z.string(),
    cards: z.array(z.strictObject({ id: cardId, kind: z.enum(CARD_KINDS) })),
    animals: z.array(animal),
    chips: chipCounts.describe('The prey chips in the supply at the start.'),
  })
  .describe("This project's Fackel+Keule edition: the cards, the animals and the chips.");
