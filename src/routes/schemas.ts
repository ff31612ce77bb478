// The API's request and response shapes. Each schema validates at the boundary and
// names a component of the OpenAPI document; game-specific parts (commands, events,
// options) come from the game modules themselves.
import { z } from 'zod';
import { resultSchema } from '../domain/view-parts.ts';
import { endingSchema } from '../domain/lifecycle.ts';
import { botNames } from '../commands/game-setup.ts';
import { maxBotThinkMs } from '../events/records.ts';
import { gameSchemas, named, perGame, type GameSchemas } from './game-schemas.ts';
import { RaceEntry } from './race-log-schema.ts';
import { positionExample, positionField } from './position-schemas.ts';

const union = (pick: (g: GameSchemas) => z.ZodType): z.ZodType =>
  gameSchemas.length === 1 ? pick(gameSchemas[0]!) : z.union(gameSchemas.map(pick) as [z.ZodType, z.ZodType, ...z.ZodType[]]);

export const AnyCommand = union((g) => g.command).describe(
  "A command of the game's type: see the game's Command schema. `legalCommands` lists what you may send now.",
);
export const AnyEvent = union((g) => g.event);

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

const seatRequests = z
  .array(
    z.object({
      name: z.string().max(64).optional(),
      open: z.boolean().optional().describe('Leave the seat open for someone to join'),
      bot: z.string().max(32).optional().describe('Let a server-side bot play the seat: `random`, or the game\'s strategy (`greedy`). Server-chance games only'),
    }),
  )
  .min(1)
  .max(16)
  .describe('One entry per seat, in clockwise order; seat 0 is the first');

const BotThinkMs = z.int().min(0).max(maxBotThinkMs);

const newGameShape = {
  seats: seatRequests,
  seed: z.string().min(1).max(128).optional().describe('Seed for server chance; random when omitted. Its SHA-256 is published, the seed itself when the game ends'),
  chance: ChanceMode.default('server'),
  outcomes: Outcomes.optional().describe('Setup outcomes (deals) for a supplied-chance game'),
  botThinkMs: BotThinkMs.optional().describe("How long the game's server bots think before each move, in milliseconds: enough to watch them play (the server's default, BOT_THINK_MS, 800 unless set), or 0 for simulations and benchmarks. A rematch keeps it"),
};

/** What the create route validates: the game's type and options are checked by the
 * service against the catalog, so an unknown type or option gets its own code (422). */
export const NewGameEnvelope = z.object({
  type: z.string().max(64).describe('A game type from the catalog, e.g. pechvogel'),
  options: z.record(z.string(), z.unknown()).optional(),
  position: z.unknown().optional(),
  ...newGameShape,
});

/** A seat as documented: a person, an open seat or one of the game's bots, one of the
 * three (the create route checks the same by hand, and answers 422 game/invalid-setup). */
const documentedSeats = (g: GameSchemas) => {
  const name = seatRequests.element.shape.name;
  const bots = botNames(g.game.type) as [string, ...string[]];
  return z
    .array(
      // Each kind says which fields it does not have, so that a typed client refuses a
      // seat that mixes them ({ bot, open: true }) instead of taking it for one of them.
      z.union([
        z.strictObject({ name, open: z.literal(false).optional(), bot: z.never().optional() }).describe('A person: the answer carries the seat\'s token'),
        z.strictObject({ name, open: z.literal(true).describe('Leave the seat open for someone to join'), bot: z.never().optional() }).describe('An open seat: whoever joins takes it'),
        z.strictObject({ name, bot: z.enum(bots).describe(`A server-side bot plays the seat (server-chance games only): ${bots.map((b) => `\`${b}\``).join(', ')}`), open: z.never().optional() }).describe("A server-side bot's seat"),
      ]),
    )
    .min(1)
    .max(16)
    .describe(seatRequests.description ?? '');
};

export const CreateGameRequest = perGame(
  'CreateGameRequest',
  'type',
  (g) => ({
    options: g.options.optional().describe("The game's options; defaults apply"),
    ...newGameShape,
    seats: documentedSeats(g),
    ...positionField(g.game.type),
  }),
  'Create a game',
  (g) => ({ seats: g.exampleSeats }),
  (g) => positionExample(g.game.type),
).any;

export const GameResult = named(resultSchema, 'GameResult');

export const SeatSummary = named(
  z.object({ seat: z.int().min(0).max(15), name: z.string().nullable(), open: z.boolean(), bot: z.string().nullable().describe('The server-side bot playing the seat; null for a person') }),
  'SeatSummary',
);

const gameSummaries = perGame(
  'GameSummary',
  'type',
  (g) => ({
    id: GameId,
    rulesVersion: z.string(),
    options: g.storedOptions,
    status: GameStatus,
    version: z.int().min(0).describe('Number of events in the log'),
    chance: ChanceMode,
    seedHash: z.string().describe('The commitment to the seed, published at creation: SHA-256 (hex) of `${seedNonce}:${seed}` (of the seed alone when the game has no nonce, created before nonces)'),
    seed: z.string().nullable().describe('The seed, revealed when the game is over'),
    seedNonce: z.string().nullable().describe('The random server nonce the commitment covers, revealed with the seed when the game is over; null before, and for games created before nonces'),
    seedChosenBy: z.enum(['creator', 'server']).nullable().describe('Who chose the seed: the creator (sent `seed`) or the server; null for games created before this was recorded'),
    seats: z.array(SeatSummary),
    deadline: z.string().nullable().describe('When the pending seats time out, or, for an open game, when it expires unless its seats are taken and its people arrive (ISO 8601)'),
    waitingFor: z.array(z.int().min(0).max(15)).describe('The seats whose people have not arrived yet (opened the game with their token: a read, the live socket or a command) at a table with a server bot; the game stays `open`, with no deal, no bot moves and no clock, until this is empty or its creator starts it (POST /games/{id}/start). Empty once it started.'),
    startedAt: z.string().nullable().describe('When the game started (its opening events); null while it is open'),
    rematch: z.object({ gameId: GameId }).nullable().describe('The rematch of this finished game, once a seat asked for one (POST /games/{id}/rematch); its people take their seats in it with the same call'),
    botThinkMs: BotThinkMs.nullable().describe("How long its server bots think before each move (ms), as the creator asked; null: the server's default (BOT_THINK_MS)"),
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
    organizerId: z.string().nullable().describe('The organizer whose API key created the game; null for anonymous games'),
    tournament: z.object({ id: z.string(), round: z.number().int() }).nullable().describe('The tournament and round this game is a table of'),
    result: GameResult.nullable().describe('The result once the game is over; null while it runs, and for a game aborted or expired'),
    ending: endingSchema.nullable().describe('How the game ended besides its rules: a resignation (the result says who), an abort by its creator, or the expiry of an open game; null otherwise'),
  }),
  'A game as lists show it',
);
export const GameSummary = gameSummaries.any;

export const CreatedGame = z
  .object({
    game: GameSummary,
    refereeToken: z.string().describe('Keep it: the creator acts as referee with it. Shown once.'),
    seats: z.array(z.object({ seat: z.int().min(0).max(15), token: z.string().nullable().describe('null for an open seat or a bot\'s seat') })),
  })
  .meta({ id: 'CreatedGame' });

export const ChanceNeed = named(
  z.object({
    kind: z.string().describe("What the table shows: `die`, `card`, `chip`, … (each game's docs list them)"),
    count: z.int().min(0).describe('How many outcomes of this kind, in order'),
    values: z.array(z.unknown()).readonly().optional().describe('The values still possible (a draw: each item left once); shown to the referee only'),
  }),
  'ChanceNeed',
);

export const Pending = named(
  z.object({
    seats: z.array(z.int().min(0).max(15)).readonly().describe('Seats that may act now'),
    deadline: z.int().min(0).optional().describe('Epoch ms when the server sends a timeout for them'),
    chance: ChanceNeed.optional().describe('The game waits for chance (supplied-chance games): what the referee must supply next with POST /games/{id}/chance. Nobody else acts meanwhile.'),
  }),
  'Pending',
);


const versionedEvent = (g: GameSchemas) => z.object({ seq: z.int().min(1), event: g.event });
const version = z.int().min(0).describe('Number of events in the log');

export const snapshotShape = (g: GameSchemas) => ({
  version,
  status: GameStatus,
  view: g.view.describe('The game as the caller may see it'),
  pending: Pending,
  legalCommands: z.array(g.command).readonly().describe("What the caller's seat may send now"),
  seatCommands: z
    .array(z.array(g.command).readonly())
    .readonly()
    .optional()
    .describe("Through everyone's eyes only (the referee of a supplied-chance game): every seat's legal commands, index = seat"),
  result: GameResult.nullable(),
});

export const GameSnapshot = perGame('GameSnapshot', 'gameType', snapshotShape, 'The game at one version, as the caller may see it').any;

export const GameDetails = perGame(
  'GameDetails',
  'gameType',
  (g) => ({
    game: gameSummaries.of(g),
    you: z.object({ kind: z.enum(['anonymous', 'seat', 'referee']), seat: z.int().min(0).max(15).optional() }),
    ...snapshotShape(g),
  }),
  "A game: its summary, the caller's view and legal commands",
).any;

const commandRequestShape = {
  expectedVersion: version.optional().describe('Refuse with 409 unless the game is at this version. Omit it in a race (Porca Miseria): commands then apply in arrival order.'),
  seat: z.int().min(0).max(15).optional().describe('The seat the referee acts for (supplied-chance games)'),
  outcomes: Outcomes.optional(),
};

export const CommandRequest = z
  .strictObject({ command: AnyCommand, ...commandRequestShape })
  .meta({ id: 'CommandRequest', examples: [{ command: gameSchemas[0]?.exampleCommand }] });

/** The command request of one game type, for its own route. */
export const gameCommandRequest = (g: GameSchemas) =>
  named(z.strictObject({ command: g.command, ...commandRequestShape }).describe(`A ${g.game.title} command`).meta({ examples: [{ command: g.exampleCommand }] }), `${g.name}CommandRequest`);

/** The same envelope with the command checked only for its `type`: the handler checks
 * it against the game's own schema and names the game in the error. */
export const CommandRequestEnvelope = z.strictObject({ command: z.object({ type: z.string().max(64) }).loose(), ...commandRequestShape });

export const ChanceRequest = z
  .strictObject({
    outcomes: Outcomes.min(1).describe("What the table shows, in the order `pending.chance` asks for it; may be less than all the game waits for (it then asks for the rest)"),
    expectedVersion: version.optional().describe('Refuse with 409 unless the game is at this version'),
  })
  .meta({ id: 'ChanceRequest' });

export const commandAnswerShape = (g: GameSchemas) => ({ ...snapshotShape(g), events: z.array(versionedEvent(g)).readonly().describe('The new events, as you may see them') });

export const commandAnswers = perGame('CommandAnswer', 'gameType', commandAnswerShape, 'What a command led to, as you may see it');
export const CommandAnswer = commandAnswers.any;

export const EventPage = perGame(
  'EventPage',
  'gameType',
  (g) => ({
    events: z.array(versionedEvent(g).extend({ actor: z.string(), at: z.string() })).readonly(),
    version,
    next: z.int().min(0).nullable().describe('Pass as `after` for the next page; null at the end'),
  }),
  'A page of the event log',
).any;

const replayStep = (g: GameSchemas) => ({ seq: z.int().min(1), event: g.event, actor: z.string(), at: z.string(), view: g.allView });

export const Replay = perGame(
  'Replay',
  'gameType',
  (g) => ({
    game: gameSummaries.of(g),
    initialView: g.allView,
    steps: z.array(z.object(replayStep(g))),
    result: GameResult.nullable(),
    raceLog: z.array(RaceEntry).describe('Every race command received, accepted or refused, in decision order (see GET /games/{id}/race-log)'),
  }),
  'Every step of a finished game, everything revealed',
).any;

/** One line of `GET /games/{id}/replay` as NDJSON (`Accept: application/x-ndjson`). */
export const ReplayLine = named(
  z
    .union([
      perGame('ReplayStart', 'gameType', (g) => ({ kind: z.literal('start'), game: gameSummaries.of(g), initialView: g.allView }), 'The first line of a streamed replay: the game and the view before its first event').any,
      perGame('ReplayStep', 'gameType', (g) => ({ kind: z.literal('step'), ...replayStep(g) }), 'One event of a streamed replay, with the view after it').any,
      z.object({ kind: z.literal('end'), gameType: z.string(), result: GameResult.nullable() }).describe('The last line of a streamed replay: a stream without it was cut short'),
    ])
    .describe('One line of a streamed replay (NDJSON): `start`, then one `step` per event in order, then `end`'),
  'ReplayLine',
);

export const IdempotencyHeaders = z.object({
  'idempotency-key': z.string().min(1).max(128).optional().describe('A retry with the same key returns the first answer and appends nothing'),
});

export const parseViewer = (value: string | undefined) => {
  if (value === undefined) return undefined;
  if (value === 'spectator' || value === 'all') return { kind: value } as const;
  return { kind: 'seat', seat: Number(value.slice('seat:'.length)) } as const;
};
