// Tournaments over HTTP. Running one (creating, registering, pairing, withdrawing)
// needs an organizer's key with `tournaments:run`, and only the tournament's organizer
// may; its summary, log and standings are public like a game's spectator view. A
// player finds their table with their tournament token at GET /tournaments/me and
// plays it at /games/{id} with the same token.
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { formatSchema } from '../domain/tournament/format.ts';
import { ServiceError, serviceCodes } from '../errors.ts';
import { requireScope } from '../organizers/organizers.ts';
import { Archive } from '../tournaments/archive.ts';
import { PlayerEntry, Settings, TournamentEvent } from '../tournaments/log.ts';
import { standingsCsv, standingsView, summarizeTournament } from '../tournaments/views.ts';
import { IdempotencyHeaders } from './schemas.ts';
import { MyTournament, myView, organizerSecurity, Outlook, playerToken, PlayerTokens, RoundAnswer, runner, StandingsView, TournamentParams, tournamentErrors, TournamentSummary } from './tournament-schemas.ts';

const Params = TournamentParams;
const errors = tournamentErrors;
const security = organizerSecurity;

/** Room for the 5,000 players a request may register, each with the longest name,
 * external id and bot kind (about 300 bytes as JSON); the server's default is 64 KiB. */
const playersBodyLimit = 2 * 1024 * 1024;

/** Whether an Accept-Encoding header takes gzip: listed (or `x-gzip`), or covered by
 * `*`, with a weight above 0 (RFC 9110 §12.5.3: `gzip;q=0` refuses it). */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  const weights = weightsOf(acceptEncoding, (coding) => (coding === 'x-gzip' ? 'gzip' : coding));
  return (weights.get('gzip') ?? weights.get('*') ?? 0) > 0;
}

/** An Accept-style header's values and their weights (`q`, 1 when absent), lower-cased. */
function weightsOf(header: string | undefined, name: (value: string) => string = (value) => value): Map<string, number> {
  const weights = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [value = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (value === '') continue;
    const q = params.find((p) => p.startsWith('q='));
    weights.set(name(value), q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  return weights;
}

/** Whether an Accept header names HTML and weighs it above JSON, as a browser's address
 * bar does (`text/html,…,*\/*;q=0.8`); API clients (`application/json`, none, or `*\/*`) get JSON. */
export function prefersHtml(accept: string | undefined): boolean {
  const weights = weightsOf(accept);
  const html = weights.get('text/html') ?? 0;
  const json = weights.get('application/json') ?? weights.get('application/*') ?? weights.get('*/*') ?? 0;
  return html > 0 && html > json;
}

/** The tournament's public web page (src/routes/pages.ts). */
export const tournamentPage = (id: string) => `/t/${id}`;

/** Sends a download: a stream named `filename`, gzipped when the client takes gzip. */
function download(request: FastifyRequest, reply: FastifyReply, type: string, filename: string, body: Readable): FastifyReply {
  reply.type(type).header('content-disposition', `attachment; filename="${filename}"`).header('vary', 'accept-encoding');
  if (!acceptsGzip(request.headers['accept-encoding'])) return reply.send(body);
  const gzip = createGzip();
  body.on('error', (error) => gzip.destroy(error));
  return reply.header('content-encoding', 'gzip').send(body.pipe(gzip));
}

export const tournamentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { tournaments, tournamentStore, archives, registrations } = app.services;

  app.post('/tournaments', {
    bodyLimit: playersBodyLimit,
    schema: { operationId: 'createTournament',
      tags: ['tournaments'],
      summary: 'Create a tournament, with its first players',
      description: 'Answers each player\'s tournament token once. Needs an organizer key with tournaments:run.',
      body: z
        .strictObject({
          name: z.string().min(1).max(200),
          gameType: z.string(),
          format: formatSchema,
          settings: Settings.default({ advance: 'auto', rated: true }),
          players: z.array(PlayerEntry).max(5000).default([]),
        })
        .meta({ id: 'CreateTournament' }),
      security,
      response: { 201: z.object({ tournament: TournamentSummary, players: PlayerTokens }), ...errors },
    },
    handler: async (request, reply) => {
      const { organizerId } = requireScope(request.organizer, 'tournaments:run');
      if (organizerId === null) throw new ServiceError(serviceCodes.keyRequired, "a tournament belongs to an organizer: create it with an organizer's key");
      const { state, tokens } = await tournaments.create(organizerId, request.body);
      reply.code(201).header('location', `/tournaments/${state.id}`);
      return { tournament: summarizeTournament(state), players: tokens };
    },
  });

  app.get('/tournaments', {
    schema: { operationId: 'listTournaments', description: 'Needs a key with scope results:read; lists only the calling organizer\'s tournaments.', tags: ['tournaments'], summary: "The organizer's tournaments, newest first", security, response: { 200: z.object({ tournaments: z.array(z.object({ id: z.string(), name: z.string(), gameType: z.string(), status: z.string(), version: z.number().int() })) }), ...errors } },
    handler: async (request) => {
      const organizerId = requireScope(request.organizer, 'results:read').organizerId;
      return { tournaments: (await tournamentStore.list(organizerId)).map(({ id, name, gameType, status, version }) => ({ id, name, gameType, status, version })) };
    },
  });

  app.get('/tournaments/me', {
    schema: { operationId: 'getMyTable',
      tags: ['tournaments'],
      summary: "A player's tournament and current table, by their tournament token",
      description: 'Play the table at /games/{gameId} with the same token as the bearer. A token from the join link whose entry is not a player (yet) shows the entry (`player: null`, `entry.status` pending or refused). `player.absent` says why the player is left out of the rounds to come (not checked in before round 1, a no-show); checking in (POST /tournaments/me/check-in) brings them back from the next round.',
      security: [{ bearer: [] }],
      response: { 200: MyTournament, ...errors },
    },
    handler: async (request) => {
      const token = playerToken(request);
      const found = await tournaments.me(token);
      if (found !== null) {
        const entry = found.state.entryOf.get(found.player.id);
        return myView(found.state, found.player, found.table, entry === undefined ? null : { id: entry.id, status: entry.removed ? 'removed' : 'approved' });
      }
      // Not a player: an entry through the join link that is waiting, or was refused.
      const entry = await registrations.byToken(token);
      if (entry === null) throw new ServiceError(serviceCodes.unknownToken, 'this token belongs to no tournament player');
      return myView(await tournaments.state(entry.tournamentId), null, null, { id: entry.id, status: entry.status });
    },
  });

  app.get('/tournaments/:id', {
    schema: { operationId: 'getTournament', description: 'Public: anyone may follow a tournament. Player tokens are never shown. The `Link` header names its web page (/t/{id}); a browser that asks for HTML before JSON is sent there (303).', security: [], tags: ['tournaments'], summary: 'A tournament: players, rounds and tables', params: Params, response: { 200: TournamentSummary, ...errors } },
    handler: async (request, reply) => {
      const page = tournamentPage(request.params.id);
      reply.header('vary', 'accept').header('link', `<${page}>; rel="alternate"; type="text/html"`);
      if (prefersHtml(request.headers.accept)) return reply.redirect(page, 303);
      return summarizeTournament(await tournaments.state(request.params.id));
    },
  });

  app.get('/tournaments/:id/events', {
    schema: { operationId: 'getTournamentEvents', description: 'Public: the tournament\'s own append-only log (registered, round paired, table finished, …), paged with after.', security: [],
      tags: ['tournaments'],
      summary: "The tournament's log",
      params: Params,
      querystring: z.object({ after: z.coerce.number().int().min(0).default(0) }),
      response: { 200: z.object({ events: z.array(z.object({ seq: z.number().int(), at: z.string(), event: TournamentEvent })) }), ...errors },
    },
    handler: async (request) => {
      await tournaments.state(request.params.id);
      const events = await tournamentStore.readEvents(request.params.id, request.query.after);
      return { events: events.map((e) => ({ seq: e.seq, at: e.at.toISOString(), event: e.event })) };
    },
  });

  app.post('/tournaments/:id/players', {
    bodyLimit: playersBodyLimit,
    schema: { operationId: 'registerPlayers', description: 'Needs a key with scope tournaments:run. Each player\'s tournament token is shown only in this answer. Players may register late, until the tournament ends (a knockout: until it starts).', tags: ['tournaments'], summary: 'Register players (late registration too)', params: Params, headers: IdempotencyHeaders, body: z.strictObject({ players: z.array(PlayerEntry).min(1).max(5000) }), security, response: { 200: z.object({ players: PlayerTokens }), ...errors } },
    handler: async (request) => tournaments.register(runner(request), request.params.id, request.body.players, request.headers['idempotency-key']),
  });

  app.post('/tournaments/:id/players/:player/withdraw', {
    schema: { operationId: 'withdrawPlayer',
      tags: ['tournaments'],
      summary: 'Withdraw a player',
      description: 'Later rounds are paired without them; at a table still playing a bot takes their seat and they rank last there. The answer says what the next round will look like without them (`outlook`): its tables and byes, or why it cannot be paired (the tournament would block).',
      params: Params.extend({ player: z.string().max(100) }),
      headers: IdempotencyHeaders,
      security,
      response: { 200: z.object({ withdrawn: z.string(), table: z.string().nullable().describe('The table a bot now plays for them'), outlook: Outlook }), ...errors },
    },
    handler: async (request) => tournaments.withdraw(runner(request), request.params.id, request.params.player, request.headers['idempotency-key']),
  });

  app.post('/tournaments/:id/rounds', {
    schema: { operationId: 'pairRound',
      tags: ['tournaments'],
      summary: 'Pair the next round now, or schedule it',
      description: 'All the round\'s games are created in one transaction with the round\'s event: all or none. With `at` in the future the server pairs it then.',
      params: Params,
      headers: IdempotencyHeaders,
      body: z.strictObject({ round: z.number().int().min(1).optional().describe('The round you mean to pair: refused if it is not the next'), at: z.iso.datetime({ offset: true }).optional() }).default({}),
      security,
      response: { 200: RoundAnswer, ...errors },
    },
    handler: async (request) =>
      tournaments.pair(runner(request), request.params.id, { round: request.body.round, at: request.body.at === undefined ? undefined : new Date(request.body.at) }, request.headers['idempotency-key']),
  });

  app.post('/tournaments/:id/results', {
    schema: { operationId: 'recordResult',
      tags: ['tournaments'],
      summary: "Record a finished table's result",
      description: 'The server records every finished table by itself; this makes sure of one.',
      params: Params,
      body: z.strictObject({ gameId: z.uuid() }),
      security,
      response: { 200: z.object({ recorded: z.array(z.string()) }), ...errors },
    },
    handler: async (request) => tournaments.record(runner(request), request.params.id, request.body.gameId),
  });

  app.get('/tournaments/:id/games.ndjson', {
    schema: { operationId: 'exportTournamentGames',
      tags: ['tournaments'],
      summary: 'Every game of the tournament as NDJSON, one game a line, streamed',
      description: 'A finished game\'s line carries its events and seed; a running game\'s carries neither. Gzipped when the client accepts gzip. Needs results:read.',
      params: Params,
      security,
      response: { 200: { content: { 'application/x-ndjson': { schema: z.string().describe('One JSON object a line, a game each') } } }, ...errors },
    },
    handler: async (request, reply) => {
      const state = await tournaments.state(request.params.id, requireScope(request.organizer, 'results:read').organizerId);
      return download(request, reply, 'application/x-ndjson; charset=utf-8', `tournament-${state.id}-games.ndjson`, Readable.from(archives.gameLines(state)));
    },
  });

  app.get('/tournaments/:id/archive', {
    schema: { operationId: 'exportTournamentArchive',
      tags: ['tournaments'],
      summary: 'The whole tournament: its log, its players\' token hashes and every game with its events',
      description: 'POST it to /tournaments/import on another instance to carry the tournament over. It holds the seeds of running games and the hashes of tokens: keep it as safe as a key. Gzipped when the client accepts gzip. Needs results:read.',
      params: Params,
      security,
      response: { 200: Archive, ...errors },
    },
    handler: async (request, reply) => {
      const state = await tournaments.state(request.params.id, requireScope(request.organizer, 'results:read').organizerId);
      return download(request, reply, 'application/json; charset=utf-8', `tournament-${state.id}-archive.json`, Readable.from(archives.export(state)));
    },
  });

  app.post('/tournaments/import', {
    bodyLimit: 256 * 1024 * 1024,
    schema: { operationId: 'importTournament',
      tags: ['tournaments'],
      summary: 'Import a tournament archive from another instance',
      description: 'Everything is replayed (the tournament log and every game) before anything is written; then all of it is written in one transaction. Needs tournaments:run; the importing organizer owns the copy. Ratings are not carried over.',
      body: Archive,
      security,
      response: { 201: TournamentSummary, ...errors },
    },
    handler: async (request, reply) => {
      const { organizerId } = requireScope(request.organizer, 'tournaments:run');
      if (organizerId === null) throw new ServiceError(serviceCodes.keyRequired, "a tournament belongs to an organizer: import it with an organizer's key");
      const imported = await archives.import(organizerId, request.body);
      return reply.code(201).send(summarizeTournament(await tournaments.state(imported.id)));
    },
  });

  app.get('/tournaments/:id/standings', {
    schema: { operationId: 'getStandings', description: 'Public: standings computed from the finished tables (points by place, tie-breaks, ratings); ?format=csv gives them as CSV.', security: [],
      tags: ['tournaments'],
      summary: 'Standings: a projection of the finished tables, with ratings',
      params: Params,
      querystring: z.object({ format: z.enum(['json', 'csv']).default('json') }),
      response: { 200: { content: { 'application/json': { schema: StandingsView }, 'text/csv': { schema: z.string().describe('A header line, then a player a line') } } }, ...errors },
    },
    handler: async (request, reply) => {
      const view = await standingsView(tournaments, tournamentStore, await tournaments.state(request.params.id));
      if (request.query.format === 'json') return view;
      return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="tournament-${request.params.id}-standings.csv"`).send(standingsCsv(view));
    },
  });
};
