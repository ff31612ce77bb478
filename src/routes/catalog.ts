// The catalog: every game type with its facts, option schema and edition data, so a
// client can render a game without guessing.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findGame, games, type AnyGame } from '../domain/games.ts';
import { ServiceError, serviceCodes } from '../errors.ts';
import { Problem } from './problem.ts';

const CatalogEntry = z
  .object({
    type: z.string(),
    title: z.string(),
    rulesVersion: z.string(),
    players: z.object({ min: z.number().int(), max: z.number().int() }),
    traits: z.object({ hiddenInformation: z.boolean(), simultaneous: z.boolean(), realTime: z.boolean() }),
    options: z.unknown().describe('JSON Schema of the options; every option has a default'),
    commands: z.unknown().describe('JSON Schema of the commands'),
    events: z.unknown().describe('JSON Schema of the events'),
    edition: z.unknown().describe("This project's edition data: the components the rulebook does not list"),
    docs: z.string().describe('Where the rule interpretations of this service are written down'),
  })
  .meta({ id: 'CatalogEntry' });

const entry = (game: AnyGame): z.infer<typeof CatalogEntry> => ({
  type: game.type,
  title: game.title,
  rulesVersion: game.rulesVersion,
  players: game.players,
  traits: game.traits,
  options: z.toJSONSchema(game.optionsSchema, { io: 'input' }),
  commands: z.toJSONSchema(game.commandSchema),
  events: z.toJSONSchema(game.eventSchema),
  edition: game.edition,
  docs: `docs/games/${game.type}.md`,
});

export const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  const entries = new Map(games.map((g) => [g.type, entry(g)]));

  app.get('/catalog', {
    schema: { tags: ['catalog'], summary: 'The game types on offer', response: { 200: z.object({ games: z.array(CatalogEntry) }) } },
    handler: async () => ({ games: [...entries.values()] }),
  });

  app.get('/catalog/:type', {
    schema: {
      tags: ['catalog'],
      summary: 'One game type',
      params: z.object({ type: z.string() }),
      response: { 200: CatalogEntry, 404: Problem },
    },
    handler: async (request) => {
      if (findGame(request.params.type) === undefined) throw new ServiceError(serviceCodes.gameNotFound, `no game type "${request.params.type}"`);
      return entries.get(request.params.type)!;
    },
  });
};
