// The catalog: every game type with its facts, option schema and edition data, so a
// client can render a game without guessing.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findGame } from '../domain/games.ts';
import { serviceCodes } from '../errors.ts';
import { gameSchemas, perGame, type GameSchemas } from './game-schemas.ts';
import { bareRouteFailures } from './health.ts';
import { Problem, problem, sendProblem } from './problem.ts';

const CatalogEntry = perGame(
  'CatalogEntry',
  'type',
  (g) => ({
    title: z.string(),
    rulesVersion: z.string(),
    players: z.object({ min: z.int().min(1).max(16), max: z.int().min(1).max(16) }),
    traits: z.object({ hiddenInformation: z.boolean(), simultaneous: z.boolean(), realTime: z.boolean() }),
    options: z.record(z.string(), z.unknown()).describe(`JSON Schema of the options (the game's Options schema in this document); every option has a default`),
    commands: z.record(z.string(), z.unknown()).describe(`JSON Schema of the commands a seat may send (${g.name}Command in this document)`),
    events: z.record(z.string(), z.unknown()).describe(`JSON Schema of the events (${g.name}Event in this document)`),
    edition: g.edition.describe("This project's edition data: the components the rulebook does not list"),
    docs: z.string().describe('Where the rule interpretations of this service are written down'),
  }),
  'A game type on offer',
).any;

const entry = ({ game, command }: GameSchemas) => ({
  type: game.type,
  title: game.title,
  rulesVersion: game.rulesVersion,
  players: game.players,
  traits: game.traits,
  options: z.toJSONSchema(game.optionsSchema, { io: 'input' }),
  commands: z.toJSONSchema(command),
  events: z.toJSONSchema(game.eventSchema),
  edition: game.edition,
  docs: `docs/games/${game.type}.md`,
});

export const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  const entries = new Map(gameSchemas.map((g) => [g.game.type, entry(g)]));

  app.get('/catalog', {
    schema: { operationId: 'listGameTypes', tags: ['catalog'], summary: 'The game types on offer', description: 'Every game type with its facts, the JSON Schemas of its options, commands and events, and its edition data.', security: [], response: { 200: z.object({ games: z.array(CatalogEntry) }), ...bareRouteFailures } },
    handler: async () => ({ games: [...entries.values()] }),
  });

  app.get('/catalog/:type', {
    schema: {
      operationId: 'getGameType',
      tags: ['catalog'],
      summary: 'One game type',
      description: 'The catalog entry of one game type. A type the catalog does not have is 404 `game/unknown-type`, the code `POST /games` refuses it with (there 422).',
      security: [],
      params: z.object({ type: z.string() }),
      response: { 200: CatalogEntry, 404: Problem },
    },
    handler: async (request, reply) => {
      // The resource in the path does not exist (404); its code is the one a game of
      // that type is refused with, so a client learns one code for one mistake.
      if (findGame(request.params.type) === undefined) return sendProblem(reply, problem(404, serviceCodes.unknownGameType, `no game of type "${request.params.type}" in the catalog`));
      return entries.get(request.params.type)!;
    },
  });
};
