// The API's request and response shapes. Each schema validates at the boundary and
// names a component of the OpenAPI document; game-specific parts (commands, events,
// options) come from the game modules themselves.
import { z } from 'zod';
import { games } from '../domain/games.ts';

const pascal = (type: string) => type.replace(/(^|-)(\w)/g, (_, __, c: string) => c.toUpperCase());

for (const game of games) {
  z.globalRegistry.add(game.commandSchema, { id: `${pascal(game.type)}Command` });
  z.globalRegistry.add(game.eventSchema, { id: `${pascal(game.type)}Event` });
  z.globalRegistry.add(game.optionsSchema, { id: `${pascal(game.type)}Options` });
}

const oneOfGames = (pick: (g: (typeof games)[number]) => z.ZodType, fallback: z.ZodType): z.ZodType =>
  games.length === 0 ? fallback : games.length === 1 ? pick(games[0]!) : z.union(games.map(pick) as [z.ZodType, z.ZodType, ...z.ZodType[]]);

export const AnyCommand = oneOfGames((g) => g.commandSchema, z.object({ type: z.string() }).loose()).describe(
  "A command of the game's type: see the game's Command schema. `legalCommands` lists what you may send now.",
);
export const AnyEvent = oneOfGames((g) => g.eventSchema, z.object({ type: z.string() }).loose());

export const GameId = z.uuid().describe('Game id');
export const GameParams = z.object({ id: GameId });
export const ChanceMode = z.enum(['server', 'supplied']).describe('server: the server draws from a seeded PRNG; supplied: the referee supplies every outcome');
export const GameStatus = z.enum(['open', 'running', 'finished']);

const Outcomes = z
  .array(z.unknown())
  .max(500)
  .describe('Chance outcomes in the order the rules draw them (supplied-chance games only), e.g. die faces or card ids');

export const ViewerParam = z
  .string()
  .regex(/^(spectator|all|seat:\d+)$/)
  .describe('Whose eyes to look through: spectator, seat:N or all. Other than your own or spectator only once the game is over.');

export const CreateGameRequest = z
  .object({
    type: z.string().describe('A game type from the catalog, e.g. pechvogel'),
    seats: z
      .array(
        z.object({
          name: z.string().max(64).optional(),
          open: z.boolean().optional().describe('Leave the seat open for someone to join'),
          bot: z.string().max(32).optional().describe('Let a server-side bot play the seat: `random`, or the game\'s strategy (`greedy`). Server-chance games only'),
        }),
      )
      .min(1)
      .max(16)
      .describe('One entry per seat, in clockwise order; seat 0 is the first'),
    options: z.record(z.string(), z.unknown()).optional().describe("The game's options (see the catalog); defaults apply"),
    seed: z.string().min(1).max(128).optional().describe('Seed for server chance; random when omitted. Its SHA-256 is published, the seed itself when the game ends'),
    chance: ChanceMode.default('server'),
    outcomes: Outcomes.optional().describe('Setup outcomes (deals) for a supplied-chance game'),
  })
  .meta({ id: 'CreateGameRequest' });

export const SeatSummary = z.object({ seat: z.number().int(), name: z.string().nullable(), open: z.boolean(), bot: z.string().nullable().describe('The server-side bot playing the seat; null for a person') });

export const GameResult = z
  .object({
    scores: z.array(z.number()).readonly(),
    ranks: z.array(z.number().int()).readonly().describe('1 = best; ties share a rank'),
    winners: z.array(z.number().int()).readonly(),
  })
  .meta({ id: 'GameResult' });

export const GameSummary = z
  .object({
    id: GameId,
    type: z.string(),
    rulesVersion: z.string(),
    options: z.unknown(),
    status: GameStatus,
    version: z.number().int().describe('Number of events in the log'),
    chance: ChanceMode,
    seedHash: z.string().describe('SHA-256 (hex) of the seed, published at creation'),
    seed: z.string().nullable().describe('The seed, revealed when the game is over'),
    seats: z.array(SeatSummary),
    deadline: z.string().nullable().describe('When the pending seats time out (ISO 8601)'),
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
    organizerId: z.string().nullable().describe('The organizer whose API key created the game; null for anonymous games'),
    tournament: z.object({ id: z.string(), round: z.number().int() }).nullable().describe('The tournament and round this game is a table of'),
    result: GameResult.nullable().describe('The result once the game is over'),
  })
  .meta({ id: 'GameSummary' });

export const CreatedGame = z
  .object({
    game: GameSummary,
    refereeToken: z.string().describe('Keep it: the creator acts as referee with it. Shown once.'),
    seats: z.array(z.object({ seat: z.number().int(), token: z.string().nullable().describe('null for an open seat or a bot\'s seat') })),
  })
  .meta({ id: 'CreatedGame' });

export const ChanceNeed = z
  .object({
    kind: z.string().describe("What the table shows: `die`, `card`, `chip`, … (each game's docs list them)"),
    count: z.number().int().describe('How many outcomes of this kind, in order'),
    values: z.array(z.unknown()).readonly().optional().describe('The values still possible (a draw: each item left once); shown to the referee only'),
  })
  .meta({ id: 'ChanceNeed' });

export const Pending = z.object({
  seats: z.array(z.number().int()).readonly().describe('Seats that may act now'),
  deadline: z.number().int().optional().describe('Epoch ms when the server sends a timeout for them'),
  chance: ChanceNeed.optional().describe('The game waits for chance (supplied-chance games): what the referee must supply next with POST /games/{id}/chance. Nobody else acts meanwhile.'),
});


export const VersionedEvent = z.object({ seq: z.number().int(), event: AnyEvent });

const snapshotShape = {
  version: z.number().int(),
  status: GameStatus,
  view: z.unknown().describe("The game as the caller may see it (shape per game type; see the game's docs)"),
  pending: Pending,
  legalCommands: z.array(AnyCommand).readonly().describe("What the caller's seat may send now"),
  seatCommands: z
    .array(z.array(AnyCommand).readonly())
    .readonly()
    .optional()
    .describe("Through everyone's eyes only (the referee of a supplied-chance game): every seat's legal commands, index = seat"),
  result: GameResult.nullable(),
};

export const GameSnapshot = z.object(snapshotShape).meta({ id: 'GameSnapshot' });

export const GameDetails = z
  .object({
    game: GameSummary,
    you: z.object({ kind: z.enum(['anonymous', 'seat', 'referee']), seat: z.number().int().optional() }),
    ...snapshotShape,
  })
  .meta({ id: 'GameDetails' });

export const CommandRequest = z
  .strictObject({
    command: AnyCommand,
    expectedVersion: z.number().int().min(0).optional().describe('Refuse with 409 unless the game is at this version. Omit it in a race (Porca Miseria): commands then apply in arrival order.'),
    seat: z.number().int().min(0).optional().describe('The seat the referee acts for (supplied-chance games)'),
    outcomes: Outcomes.optional(),
  })
  .meta({ id: 'CommandRequest' });

export const ChanceRequest = z
  .strictObject({
    outcomes: Outcomes.min(1).describe("What the table shows, in the order `pending.chance` asks for it; may be less than all the game waits for (it then asks for the rest)"),
    expectedVersion: z.number().int().min(0).optional().describe('Refuse with 409 unless the game is at this version'),
  })
  .meta({ id: 'ChanceRequest' });

/** The same envelope with the command checked only for its `type`: the handler checks
 * it against the game's own schema and names the game in the error. */
export const CommandRequestEnvelope = CommandRequest.extend({ command: z.object({ type: z.string() }).loose() });

export const CommandAnswer = z
  .object({ ...snapshotShape, events: z.array(VersionedEvent).readonly().describe('The new events, as you may see them') })
  .meta({ id: 'CommandAnswer' });

export const EventPage = z
  .object({
    events: z.array(VersionedEvent.extend({ actor: z.string(), at: z.string() })).readonly(),
    version: z.number().int(),
    next: z.number().int().nullable().describe('Pass as `after` for the next page; null at the end'),
  })
  .meta({ id: 'EventPage' });

export const Replay = z
  .object({
    game: GameSummary,
    initialView: z.unknown(),
    steps: z.array(z.object({ seq: z.number().int(), event: AnyEvent, actor: z.string(), at: z.string(), view: z.unknown() })),
    result: GameResult.nullable(),
  })
  .meta({ id: 'Replay' });

export const IdempotencyHeaders = z.object({
  'idempotency-key': z.string().min(1).max(128).optional().describe('A retry with the same key returns the first answer and appends nothing'),
});

export const parseViewer = (value: string | undefined) => {
  if (value === undefined) return undefined;
  if (value === 'spectator' || value === 'all') return { kind: value } as const;
  return { kind: 'seat', seat: Number(value.slice('seat:'.length)) } as const;
};
