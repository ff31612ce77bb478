// Self-registration and a player's own check-in over HTTP. The organizer (a key with
// `tournaments:run`) opens a join link and decides entries; anyone with the link's code
// sees the tournament and registers with a name (rate-limited per address), getting
// their tournament token once; a player checks in with that token.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ServiceError, serviceCodes } from '../errors.ts';
import { limitOf } from './rate-limits.ts';
import { CheckedIn } from './tournament-admin.ts';
import { IdempotencyHeaders } from './schemas.ts';
import { organizerSecurity, Outlook, playerToken, runner, TournamentParams, tournamentErrors } from './tournament-schemas.ts';

const Code = z.object({ code: z.string().regex(/^[A-Za-z0-9]{1,40}$/).describe('The join code') });
const Registration = z
  .object({ open: z.boolean(), capacity: z.number().int().nullable(), closesAt: z.string().nullable(), approval: z.enum(['automatic', 'manual']) })
  .meta({ id: 'TournamentRegistration' });
const EntryStatus = z.enum(['pending', 'approved', 'refused', 'removed']);
const Entry = z
  .object({
    id: z.string(),
    name: z.string(),
    status: EntryStatus,
    player: z.string().nullable().describe('The tournament player it became (approved, removed)'),
    createdAt: z.string(),
    decidedAt: z.string().nullable(),
  })
  .meta({ id: 'TournamentEntry' });
const EntryParams = TournamentParams.extend({ entry: z.uuid() });
/** A join's key doubles as the secret that gets the token again: it must be random. */
const JoinHeaders = z.object({
  'idempotency-key': z.string().min(16).max(200).optional().describe('A random value (a UUID): a retry with it gets the same entry and token. Whoever sends it again gets the token, so never a guessable one'),
});

export const tournamentJoinRoutes: FastifyPluginAsyncZod = async (app) => {
  const { registrations, checkIns, tournaments } = app.services;
  const joinLimit = limitOf(app.rateLimits.joinsPerMinute, 60_000);

  app.post('/tournaments/:id/registration', {
    schema: {
      operationId: 'openRegistration',
      tags: ['tournaments'],
      summary: 'Open self-registration through a join link (or change its settings)',
      description:
        'Answers the join code: players register at POST /registrations/{code} (the web page /join/{code}). `capacity` bounds the players in the tournament and the entries waiting; `closesAt` ends it; `approval` "manual" keeps entries pending until the organizer approves them. `newCode` replaces the code (the old link stops working). The log gets `RegistrationOpened` (without the code). Refused once the tournament is over or a knockout has started. Needs tournaments:run.',
      params: TournamentParams,
      headers: IdempotencyHeaders,
      body: z
        .strictObject({
          capacity: z.int().min(1).max(5000).nullable().default(null),
          closesAt: z.iso.datetime({ offset: true }).nullable().default(null),
          approval: z.enum(['automatic', 'manual']).default('automatic'),
          newCode: z.boolean().default(false),
        })
        .default({ capacity: null, closesAt: null, approval: 'automatic', newCode: false }),
      security: organizerSecurity,
      response: { 200: z.object({ code: z.string(), registration: Registration }), ...tournamentErrors },
    },
    handler: async (request) => {
      const { newCode, ...settings } = request.body;
      return registrations.open(runner(request), request.params.id, settings, newCode, request.headers['idempotency-key']);
    },
  });

  app.post('/tournaments/:id/registration/close', {
    schema: {
      operationId: 'closeRegistration',
      tags: ['tournaments'],
      summary: 'Close self-registration',
      description: 'The join link takes no more entries (`tournament/registration-closed`); entries waiting may still be approved. Needs tournaments:run.',
      params: TournamentParams,
      headers: IdempotencyHeaders,
      security: organizerSecurity,
      response: { 200: z.object({ registration: Registration.nullable() }), ...tournamentErrors },
    },
    handler: async (request) => registrations.close(runner(request), request.params.id, request.headers['idempotency-key']),
  });

  app.get('/tournaments/:id/registration', {
    schema: {
      operationId: 'getRegistration',
      tags: ['tournaments'],
      summary: "Self-registration as the organizer sees it: the join code, settings, entries waiting",
      description: 'Needs tournaments:run.',
      params: TournamentParams,
      security: organizerSecurity,
      response: {
        200: z.object({ code: z.string().nullable(), registration: Registration.nullable(), open: z.boolean().describe('Takes entries now'), pending: z.number().int(), placesLeft: z.number().int().nullable() }),
        ...tournamentErrors,
      },
    },
    handler: async (request) => registrations.view(runner(request), request.params.id),
  });

  app.get('/tournaments/:id/entries', {
    schema: {
      operationId: 'listEntries',
      tags: ['tournaments'],
      summary: 'Self-registration entries, oldest first',
      description: 'Needs tournaments:run.',
      params: TournamentParams,
      querystring: z.object({ status: EntryStatus.optional() }),
      security: organizerSecurity,
      response: { 200: z.object({ entries: z.array(Entry) }), ...tournamentErrors },
    },
    handler: async (request) => ({ entries: await registrations.entries(runner(request), request.params.id, request.query.status) }),
  });

  for (const [action, summary, description] of [
    ['approve', 'Approve a pending entry', 'It becomes a player (`PlayerRegistered` with the entry), paired from the next round; its token is the one the entrant got.'],
    ['refuse', 'Refuse a pending entry', 'Its token never becomes a player\'s (`EntryRefused`; the name stays out of the log).'],
    ['remove', 'Remove an approved entry', 'Its player is withdrawn (`PlayerWithdrew` "removed"; a player who never played leaves the standings); the answer has the next round\'s outlook.'],
  ] as const) {
    app.post(`/tournaments/:id/entries/:entry/${action}`, {
      schema: {
        operationId: `${action}Entry`,
        tags: ['tournaments'],
        summary,
        description: `${description} An entry decided already is \`tournament/entry-decided\`. Needs tournaments:run.`,
        params: EntryParams,
        headers: IdempotencyHeaders,
        security: organizerSecurity,
        response: { 200: z.object({ entry: Entry, outlook: Outlook.optional() }), ...tournamentErrors },
      },
      handler: async (request) => registrations[action](runner(request), request.params.id, request.params.entry, request.headers['idempotency-key']),
    });
  }

  app.get('/registrations/:code', {
    config: joinLimit,
    schema: {
      operationId: 'getJoinLink',
      tags: ['tournaments'],
      summary: 'What a join link shows: the tournament and whether it takes entries',
      description: 'Public. An unknown code is `tournament/join-code-unknown`.',
      security: [],
      params: Code,
      response: {
        200: z.object({
          tournament: z.object({ id: z.string(), name: z.string(), gameType: z.string(), format: z.unknown(), status: z.enum(['registering', 'running', 'finished']), players: z.number().int() }),
          registration: Registration,
          open: z.boolean().describe('Takes entries now'),
          placesLeft: z.number().int().nullable().describe('null: no capacity'),
        }),
        ...tournamentErrors,
      },
    },
    handler: async (request) => registrations.lookup(request.params.code),
  });

  app.post('/registrations/:code', {
    config: joinLimit,
    schema: {
      operationId: 'joinTournament',
      tags: ['tournaments'],
      summary: 'Register yourself through a join link',
      description:
        'Answers your tournament token, once: keep it (GET /tournaments/me shows your entry, your table, whether you are left out; you play your tables with it). With automatic approval you are a player at once; with manual approval your entry waits (`status: "pending"`) until the organizer decides. Send an Idempotency-Key (random, 16+ characters): a retry with it gets the same entry and token, never a second entry. Refused when registration is closed (`tournament/registration-closed`) or full (`tournament/registration-full`); limited per address (RATE_LIMIT_JOINS_PER_MINUTE).',
      security: [],
      params: Code,
      headers: JoinHeaders,
      body: z.strictObject({ name: z.string().trim().min(1).max(100).describe('Your name as the tournament shows it') }),
      response: {
        201: z.object({
          tournament: z.string(),
          entry: z.string(),
          status: EntryStatus,
          player: z.string().nullable().describe('Your player id; null while your entry waits for approval'),
          token: z.string().describe('Your tournament token. Shown once (again only to a retry with the same Idempotency-Key)'),
        }),
        ...tournamentErrors,
        429: tournamentErrors[400],
      },
    },
    handler: async (request, reply) => reply.code(201).send(await registrations.join(request.params.code, request.body.name, request.headers['idempotency-key'])),
  });

  app.post('/tournaments/me/check-in', {
    schema: {
      operationId: 'checkIn',
      tags: ['tournaments'],
      summary: 'Check in with your tournament token',
      description:
        'While the organizer keeps check-in open before round 1 (you are paired in it), or when you are absent (not checked in in time, a no-show): you are paired again from the next round. `tournament/check-in-closed` otherwise; checking in twice changes nothing.',
      security: [{ bearer: [] }],
      response: { 200: CheckedIn, ...tournamentErrors },
    },
    handler: async (request) => {
      const token = playerToken(request);
      const found = await tournaments.me(token);
      if (found === null) throw new ServiceError(serviceCodes.unknownToken, 'this token belongs to no tournament player (an entry still waiting for approval cannot check in)');
      return checkIns.byPlayer(found.state.id, found.player.id);
    },
  });
};
