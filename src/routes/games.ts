// Games over HTTP: create, join, list, read, command, event log, views and replay.
// Handlers only translate; the rules live in the domain, the bookkeeping in events/.
import { Readable } from 'node:stream';
import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ServiceError, serviceCodes } from '../errors.ts';
import { unchanged } from '../reads/game-reads.ts';
import { decodeCursor, summarize } from '../reads/game-summary.ts';
import { gameSchemas } from './game-schemas.ts';
import { requireScope } from '../organizers/organizers.ts';
import { answer, conditional, uncachedErrors } from './caching.ts';
import { Problem } from './problem.ts';
import { limitOf } from './rate-limits.ts';
import {
  ChanceRequest,
  CommandAnswer,
  commandAnswers,
  CommandRequest,
  CommandRequestEnvelope,
  CreatedGame,
  CreateGameRequest,
  EventPage,
  gameCommandRequest,
  GameDetails,
  GameParams,
  GameSnapshot,
  GameStatus,
  GameSummary,
  IdempotencyHeaders,
  NewGameEnvelope,
  parseViewer,
  Replay,
  ReplayLine,
  ViewerParam,
} from './schemas.ts';

const NDJSON = 'application/x-ndjson';

/** One batch of lines after another: the next is read only once the client took the previous. */
async function* ndjson(batches: AsyncIterable<readonly unknown[]>): AsyncGenerator<string> {
  for await (const lines of batches) yield lines.map((line) => `${JSON.stringify(line)}\n`).join('');
}

/** The bearer token, if any. */
export function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (match === null) throw new ServiceError(serviceCodes.validation, 'Authorization must be "Bearer <token>"');
  return match[1];
}

/** Validates the body against `envelope` instead of the documented schema, so that
 * the service can explain what is wrong with a command or a game's setup in the
 * game's own terms (and with its own code). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const bodyValidatedBy = (envelope: z.ZodType): FastifySchemaCompiler<any> => (route) =>
  validatorCompiler(route.httpPart === 'body' ? { ...route, schema: envelope } : route);

const errors = { 400: Problem, 401: Problem, 403: Problem, 404: Problem, 409: Problem, 422: Problem, 429: Problem };
const security: { [scheme: string]: string[] }[] = [{ bearer: [] }, {}];
/** Reads of a finished game answer 304 to a matching If-None-Match (see caching.ts). */
const cached = { 304: z.null() };
const caching = 'A finished game\'s answer never changes: it carries an ETag and `Cache-Control: max-age=31536000, immutable` (`private` when asked with a token, and `Vary: Authorization`), and `If-None-Match` with that ETag answers 304. A running game\'s answer is never kept (`no-cache`; `private, no-store` with a token).';
/** The summary names the rematch once one is made: until then a finished game's summary is revalidated. */
const summaryCaching = `${caching} Until a finished game has a rematch, its summary's answer says \`no-cache\` instead of \`immutable\` (the same ETag, so a 304 while nothing changed): \`rematch\` is the one field that still changes.`;

export const gameRoutes: FastifyPluginAsyncZod = async (app) => {
  const { setup, reads, commands } = app.services;

  app.post('/games', {
    config: limitOf(app.rateLimits.gamesPerMinute, 60_000),
    validatorCompiler: bodyValidatedBy(NewGameEnvelope),
    schema: {
      operationId: 'createGame',
      tags: ['games'],
      summary: 'Create a game',
      description: 'Returns one secret token per taken seat and a referee token. The game starts when every seat is taken and, at a table with a server bot, every person holding a seat has arrived (a table of people only starts once its seats are taken): used its token on the game (`GET /games/{id}` or another read, the live socket, or a command). Until then it stays `open` and `waitingFor` lists the seats awaited: nothing is dealt, bots do not move and no clock runs. Its creator may start it anyway (`POST /games/{id}/start`), and a table nobody arrives at expires as an open game does. Bot seats are never waited for, nor a tournament\'s tables or a supplied-chance game. A seat without a name is called "Player N" (a person) or "<Kind> bot N" (a bot), N counted from 1. With an organizer\'s API key (scope games:create) the game belongs to that organizer.',
      body: CreateGameRequest,
      security: [{ apiKey: [] }, {}],
      response: { 201: CreatedGame, ...errors },
    },
    handler: async (request, reply) => {
      // Anonymous games stay possible; with a key, the game is the organizer's.
      const organizerId = request.organizer === null ? null : requireScope(request.organizer, 'games:create').organizerId;
      const { record, refereeToken, seatTokens } = await setup.create({ ...(request.body as z.infer<typeof NewGameEnvelope>), organizerId });
      reply.code(201).header('location', `/games/${record.id}`);
      return { game: summarize(record), refereeToken, seats: seatTokens.map((token, seat) => ({ seat, token })) };
    },
  });

  app.get('/games', {
    schema: {
      operationId: 'listGames',
      tags: ['games'],
      summary: 'List games, newest first',
      description: 'Filter by type and status; page with `next` as the cursor.',
      security: [],
      querystring: z.object({
        type: z.string().optional(),
        status: GameStatus.optional(),
        organizer: z.uuid().optional().describe('Games created with this organizer\'s keys'),
        tournament: z.uuid().optional().describe('Tables of this tournament'),
        round: z.coerce.number().int().min(1).optional().describe('Tables of this round (with tournament)'),
        player: z.string().max(100).optional().describe('Tables seating this tournament player id'),
        finishedAfter: z.iso.datetime({ offset: true }).optional().describe('Games finished after this time (ISO 8601)'),
        limit: z.coerce.number().int().min(1).max(100).default(20),
        cursor: z.string().max(200).optional().describe('`next` of the previous page'),
      }),
      response: { 200: z.object({ games: z.array(GameSummary), next: z.string().nullable() }), 400: Problem },
    },
    handler: async (request) => {
      const { type, status, organizer, tournament, round, player, finishedAfter, limit, cursor } = request.query;
      return reads.list({
        type,
        status,
        organizerId: organizer,
        tournamentId: tournament,
        round,
        player,
        finishedAfter: finishedAfter === undefined ? undefined : new Date(finishedAfter),
        limit,
        after: cursor === undefined ? undefined : decodeCursor(cursor),
      });
    },
  });

  app.get('/games/:id', {
    schema: {
      operationId: 'getGame',
      tags: ['games'],
      summary: "A game: summary, the caller's view and legal commands",
      description: `Without a token you are a spectator. With a seat's token this read is its person's arrival: the last person to arrive starts a waiting game (see createGame), and the answer shows it started. ${summaryCaching}`,
      params: GameParams,
      security,
      response: { 200: GameDetails, ...cached, ...errors },
    },
    onSend: uncachedErrors,
    handler: async (request, reply) => {
      await setup.arrive(request.params.id, bearer(request));
      return answer(reply, await reads.summary(request.params.id, bearer(request), conditional(request, reply, ['authorization'])));
    },
  });

  app.post('/games/:id/join', {
    schema: {
      operationId: 'joinGame',
      tags: ['games'],
      summary: 'Take an open seat',
      description: 'Answers with the seat and its secret token; the game starts when every seat is taken.',
      security: [],
      params: GameParams,
      body: z.object({ seat: z.number().int().min(0).optional().describe('A particular seat; else the first open one'), name: z.string().max(64).optional() }).default({}),
      response: { 200: z.object({ seat: z.number().int(), token: z.string(), game: GameSummary }), ...errors },
    },
    handler: async (request) => {
      const { seat, token } = await setup.join(request.params.id, request.body.seat, request.body.name);
      const { record } = await reads.principalFor(request.params.id, token);
      return { seat, token, game: summarize(record) };
    },
  });

  const sendCommand = async (request: FastifyRequest & { params: { id: string }; headers: { 'idempotency-key'?: string } }, gameType?: string) => {
    const body = request.body as z.infer<typeof CommandRequestEnvelope>;
    // A command is an arrival too: the last person's starts the game, then is decided.
    await setup.arrive(request.params.id, bearer(request));
    return commands.handle({
      gameId: request.params.id,
      caller: { kind: 'token', token: bearer(request) },
      command: body.command,
      ...(gameType === undefined ? {} : { gameType }),
      seat: body.seat,
      expectedVersion: body.expectedVersion,
      outcomes: body.outcomes,
      idempotencyKey: request.headers['idempotency-key'],
    });
  };

  app.post('/games/:id/commands', {
    config: limitOf(app.rateLimits.commandsPerSecond, 1000),
    // The documented body names every game's commands; validation checks only the
    // envelope so that the game's own schema can explain a bad command.
    validatorCompiler: bodyValidatedBy(CommandRequestEnvelope),
    schema: {
      operationId: 'sendCommand',
      tags: ['games'],
      summary: 'Send a command of any game as your seat',
      description: "The answer carries the new version, your view of the new events and your new view. Send an Idempotency-Key to retry safely. A typed client uses the game type's own route (`/games/{id}/commands/<type>`), where only that game's commands fit.",
      params: GameParams,
      headers: IdempotencyHeaders,
      body: CommandRequest,
      security: [{ bearer: [] }],
      response: { 200: CommandAnswer, ...errors },
    },
    handler: async (request) => sendCommand(request),
  });

  for (const g of gameSchemas) {
    app.post(`/games/:id/commands/${g.game.type}`, {
      validatorCompiler: bodyValidatedBy(CommandRequestEnvelope),
      schema: {
        operationId: `send${g.name}Command`,
        tags: ['games'],
        summary: `Send a ${g.game.title} command as your seat`,
        description: `Like /games/{id}/commands, for a ${g.game.title} game only: a game of another type refuses with 400 command/invalid.`,
        params: GameParams,
        headers: IdempotencyHeaders,
        body: gameCommandRequest(g),
        security: [{ bearer: [] }],
        response: { 200: commandAnswers.of(g), ...errors },
      },
      handler: async (request) => sendCommand(request, g.game.type),
    });
  }

  app.post('/games/:id/chance', {
    schema: {
      operationId: 'supplyChance',
      tags: ['games'],
      summary: 'Supply what the game waits for from chance (the referee of a supplied-chance game)',
      description:
        "A supplied-chance game whose rules need an outcome (a throw, a card, a chip) waits for chance: `pending.chance` says the kind, how many and (to the referee) the values still possible. Send what the table shows; the awaited command is then decided as it was received.",
      params: GameParams,
      headers: IdempotencyHeaders,
      body: ChanceRequest,
      security: [{ bearer: [] }],
      response: { 200: CommandAnswer, ...errors },
    },
    handler: async (request) =>
      commands.handle({
        gameId: request.params.id,
        caller: { kind: 'token', token: bearer(request) },
        command: null,
        asChance: true,
        outcomes: request.body.outcomes,
        expectedVersion: request.body.expectedVersion,
        idempotencyKey: request.headers['idempotency-key'],
      }),
  });

  app.post('/games/:id/abort', {
    schema: {
      operationId: 'abortGame',
      tags: ['games'],
      summary: "Abort the game (its creator: the referee token, or the organizer key that created it)",
      description:
        'Ends an open or running game with no result: the log gets `GameAborted`, the summary and every view show `ending: {kind: "aborted"}`, and the seed is revealed as for any finished game. A seat that wants to stop resigns instead (command `resign`).',
      params: GameParams,
      headers: IdempotencyHeaders,
      security: [{ bearer: [] }, { apiKey: [] }],
      response: { 200: CommandAnswer, ...errors },
    },
    handler: async (request) => {
      const organizerId = request.organizer === null ? null : request.organizer.organizerId;
      return commands.handle({
        gameId: request.params.id,
        caller: { kind: 'token', token: request.organizer === null ? bearer(request) : undefined },
        command: null,
        abort: { organizerId },
        idempotencyKey: request.headers['idempotency-key'],
      });
    },
  });

  app.post('/games/:id/start', {
    schema: {
      operationId: 'startGame',
      tags: ['games'],
      summary: "Start a game without waiting for its people (its creator: the referee token, or the organizer key that created it)",
      description:
        'A game whose seats are all taken waits for the people holding them to arrive (`waitingFor`); its creator starts it now instead. The answer is the started game. 409 game/not-open once it started or ended, 409 game/seats-open while a seat is still open, 403 auth/forbidden for any other token (a seat\'s included).',
      params: GameParams,
      security: [{ bearer: [] }, { apiKey: [] }],
      response: { 200: z.object({ game: GameSummary }), ...errors },
    },
    handler: async (request) => {
      const organizerId = request.organizer === null ? null : request.organizer.organizerId;
      const record = await setup.startAnyway(request.params.id, organizerId === null ? bearer(request) : undefined, organizerId);
      return { game: summarize(record) };
    },
  });

  app.post('/games/:id/rematch', {
    schema: {
      operationId: 'rematchGame',
      tags: ['games'],
      summary: "Play a finished game again: the rematch, and your seat's new token in it",
      description:
        "With a person's seat token of a finished game. The first call creates the rematch (same type and options, the same seats and names; bots stay bots) and the finished game's summary names it (`rematch.gameId`); later and concurrent calls find the same one. Each call answers the caller's seat in the rematch with a NEW token (calling again mints another and the earlier one stops holding the seat) and counts as their arrival: the rematch starts once every person took theirs. `refereeToken` only to the call that created it. 401 auth/token-required, 403 auth/forbidden (not a person's seat token of this game), 409 game/not-finished, 422 game/invalid-setup (a tournament's or recorded table).",
      params: GameParams,
      security: [{ bearer: [] }],
      response: { 200: z.object({ game: GameSummary, seat: z.int().min(0), token: z.string(), refereeToken: z.string().nullable().describe('To the call that created the rematch only; null otherwise') }), ...errors },
    },
    handler: async (request) => {
      const { record, seat, token, refereeToken } = await setup.rematch(request.params.id, bearer(request));
      return { game: summarize(record), seat, token, refereeToken };
    },
  });

  app.get('/games/:id/events', {
    schema: {
      operationId: 'listEvents',
      tags: ['games'],
      summary: 'The event log, redacted for the caller while the game runs',
      description: `Pages of events after \`after\`, each with who sent it and when. A finished game shows any viewer (\`viewer=all\`). ${caching}`,
      params: GameParams,
      querystring: z.object({
        after: z.coerce.number().int().min(0).default(0).describe('Events with seq greater than this'),
        limit: z.coerce.number().int().min(1).max(1000).default(200),
        viewer: ViewerParam.optional(),
      }),
      security,
      response: { 200: EventPage, ...cached, ...errors },
    },
    onSend: uncachedErrors,
    handler: async (request, reply) => {
      await setup.arrive(request.params.id, bearer(request));
      const { after, limit, viewer } = request.query;
      return answer(reply, await reads.events(request.params.id, bearer(request), after, limit, parseViewer(viewer), conditional(request, reply, ['authorization'])));
    },
  });

  app.get('/games/:id/view', {
    schema: {
      operationId: 'getView',
      tags: ['games'],
      summary: 'The game at version N (default: now) through your eyes, or as a spectator',
      description: `Any version of the log, as the caller (or, once the game is over, any viewer) saw it. ${caching}`,
      params: GameParams,
      querystring: z.object({ version: z.coerce.number().int().min(0).optional(), viewer: ViewerParam.optional() }),
      security,
      response: { 200: GameSnapshot, ...cached, ...errors },
    },
    onSend: uncachedErrors,
    handler: async (request, reply) => {
      await setup.arrive(request.params.id, bearer(request));
      return answer(reply, await reads.viewAt(request.params.id, bearer(request), request.query.version, parseViewer(request.query.viewer), conditional(request, reply, ['authorization'])));
    },
  });

  app.get('/games/:id/replay', {
    schema: {
      operationId: 'getReplay',
      tags: ['games'],
      summary: 'Every step of a finished game, everything revealed',
      description: `Each event with the view after it, as the \`all\` viewer sees it; 409 game/not-finished while the game runs. With \`Accept: application/x-ndjson\` the replay is streamed as it is read from the database, one JSON document per line (\`ReplayLine\`): \`start\`, a \`step\` per event, then \`end\` (the race log is not among them: \`GET /games/{id}/race-log\`); use it for long games, whose one-piece answer runs to tens of megabytes. ${caching}`,
      security: [],
      params: GameParams,
      response: { 200: { content: { 'application/json': { schema: Replay }, [NDJSON]: { schema: ReplayLine } } }, ...cached, ...errors },
    },
    onSend: uncachedErrors,
    handler: async (request, reply) => {
      const holds = conditional(request, reply, ['accept']);
      if (!request.headers.accept?.includes(NDJSON)) return answer(reply, await reads.replay(request.params.id, holds));
      const lines = await reads.replayLines(request.params.id, holds);
      if (lines === unchanged) return reply.code(304).send();
      return reply.type(NDJSON).send(Readable.from(ndjson(lines), { highWaterMark: 1 }));
    },
  });
};
