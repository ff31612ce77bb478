// RFC 9457 problem details: every failure leaves the service as
// `application/problem+json` with a stable `code`. This is the only place that maps
// codes to HTTP statuses.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type net from 'node:net';
import { chanceCodes } from '../domain/chance.ts';
import { chanceCodes as awaitedChanceCodes } from '../domain/chance-party.ts';
import { games } from '../domain/games.ts';
import { positionCodes } from '../domain/position-rules.ts';
import { ServiceError, serviceCodes, type ServiceCode } from '../errors.ts';
import { databaseUnavailable } from '../events/unavailable.ts';
import { noteRefusal } from '../observability/request-log.ts';

/** Codes of failures the HTTP layer itself tells. */
export const httpCodes = {
  /** The body (or a WebSocket message) is over the size limit. */
  tooLarge: 'request/too-large',
  /** The body is not `application/json`. */
  unsupportedMediaType: 'request/unsupported-media-type',
  /** The body is not JSON. */
  invalidJson: 'request/invalid-json',
  /** No route has this path. */
  noRoute: 'request/no-route',
  /** The path has routes, but not for this method; `Allow` names the methods it has. */
  methodNotAllowed: 'request/method-not-allowed',
  /** Our fault; the request may be retried. */
  internal: 'server/internal',
  /** The database cannot be reached or did not answer in time; retry after `Retry-After`. */
  databaseUnavailable: 'server/database-unavailable',
  /** The server is shutting down; retry on another instance or after the restart. */
  shuttingDown: 'server/shutting-down',
  /** Too many requests from this client; retry after `Retry-After`. */
  rateLimited: 'request/rate-limited',
  /** The path is not valid percent-encoding. */
  badUrl: 'request/bad-url',
  /** A path parameter is longer than any id. */
  uriTooLong: 'request/uri-too-long',
  /** The request is not valid HTTP/1.1. */
  malformed: 'request/malformed',
  /** The request headers are larger than the server accepts. */
  headersTooLarge: 'request/headers-too-large',
  /** The request did not arrive in time. */
  timeout: 'request/timeout',
  /** A WebSocket endpoint was asked without `Upgrade: websocket`. */
  upgradeRequired: 'request/upgrade-required',
  /** An upgrade to a WebSocket on a route that is no live socket. */
  notWebSocket: 'request/not-websocket',
  /** This address (or everyone together) has as many connections open as the server allows. */
  tooManyConnections: 'server/too-many-connections',
  /** A live socket sent more messages a second than it may; the message was not handled. */
  liveRateLimited: 'live/rate-limited',
} as const;

/** Every code a problem document may carry: the service's, the HTTP layer's, the
 * supplied-chance checks' and every game's rule codes. */
export const problemCodes: readonly string[] = [
  ...new Set([...Object.values(serviceCodes), ...Object.values(httpCodes), ...chanceCodes, ...Object.values(awaitedChanceCodes), ...Object.values(positionCodes), ...games.flatMap((g) => g.codes)]),
];

export const Problem = z
  .object({
    type: z.string().describe('A URI naming the kind of problem: urn:spielwerk:problem:<code>'),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.enum(problemCodes as [string, ...string[]]).describe('Stable machine-readable code, e.g. command/stale-version or pechvogel/not-your-turn'),
    instance: z.string().optional(),
    currentVersion: z.number().int().optional().describe('With command/stale-version and command/conflict'),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    need: z
      .object({ kind: z.string(), count: z.number().int(), values: z.array(z.unknown()) })
      .optional()
      .describe('With chance/outcome-missing and chance/outcome-invalid: what the draw needs (kind, how many, the values still possible)'),
    problems: z
      .array(
        z.object({
          code: z.string().describe('position/invalid, position/components-mismatch, position/out-of-range or position/illegal-phase'),
          component: z.string().describe('What does not add up, e.g. card:<id>, marker:5, winnings, turn'),
          message: z.string(),
          expected: z.int().optional().describe('How many the box has or the rules allow'),
          found: z.int().optional().describe('How many the position has'),
        }),
      )
      .optional()
      .describe('With position/*: everything in the described position that does not add up'),
    unknownFields: z.array(z.string()).optional().describe('With command/invalid: fields the command does not have (e.g. a misspelt one), by path'),
  })
  .loose()
  .meta({ id: 'Problem' });
export type Problem = z.infer<typeof Problem>;

const statusOf: Record<ServiceCode, number> = {
  'game/not-found': 404,
  'game/unknown-type': 422,
  'game/invalid-setup': 422,
  'game/not-running': 409,
  'game/not-finished': 409,
  'game/not-open': 409,
  'game/seats-open': 409,
  'game/seat-unavailable': 409,
  'auth/token-required': 401,
  'auth/forbidden': 403,
  'command/invalid': 400,
  'command/stale-version': 409,
  'command/conflict': 409,
  'command/idempotency-key-reused': 422,
  'chance/outcomes-not-allowed': 422,
  'request/invalid': 400,
  'auth/key-invalid': 401,
  'auth/key-expired': 401,
  'auth/key-revoked': 401,
  'auth/key-required': 401,
  'auth/scope-missing': 403,
  'organizer/not-found': 404,
  'organizer/key-not-found': 404,
  'tournament/not-found': 404,
  'tournament/invalid-format': 422,
  'tournament/unknown-player': 422,
  'tournament/unknown-token': 403,
  'tournament/round-already-paired': 409,
  'tournament/round-in-progress': 409,
  'tournament/pairing-impossible': 422,
  'tournament/finished': 409,
  'tournament/player-withdrawn': 409,
  'tournament/game-not-in-tournament': 422,
  'tournament/invalid-archive': 422,
  'tournament/duplicate-external-id': 409,
  'tournament/registration-closed': 409,
  'tournament/registration-full': 409,
  'tournament/join-code-unknown': 404,
  'tournament/entry-not-found': 404,
  'tournament/entry-decided': 409,
  'tournament/check-in-closed': 409,
  'tournament/table-running': 409,
  'tournament/table-finished': 409,
  'webhook/not-found': 404,
  'webhook/url-refused': 422,
  'webhook/too-many': 409,
};

const titles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  426: 'Upgrade Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function problem(status: number, code: string, detail: string, extra: Record<string, unknown> = {}): Problem {
  return { type: `urn:spielwerk:problem:${code}`, title: titles[status] ?? 'Error', status, detail, code, ...extra };
}

/** A service error as a problem; rule and chance violations are 422. */
export function problemOf(error: ServiceError): Problem {
  const status = error.kind === 'service' ? (statusOf[error.code as ServiceCode] ?? 400) : 422;
  return problem(status, error.code, error.message, error.extra);
}

/** Fastify's own client errors (bad JSON, body too large, wrong content type) keep
 * their status and get a stable code of ours. */
function clientProblem(error: FastifyError): Problem | null {
  const status = error.statusCode ?? 500;
  if (status < 400 || status >= 500) return null;
  const codes: Record<string, string> = {
    FST_ERR_CTP_BODY_TOO_LARGE: httpCodes.tooLarge,
    FST_ERR_CTP_INVALID_MEDIA_TYPE: httpCodes.unsupportedMediaType,
    FST_ERR_CTP_EMPTY_JSON_BODY: serviceCodes.validation,
    FST_ERR_CTP_INVALID_JSON_BODY: httpCodes.invalidJson,
    FST_ERR_RATE_LIMITED: httpCodes.rateLimited,
  };
  return problem(status, codes[error.code] ?? serviceCodes.validation, error.message);
}

/** Our fault, never the client's: what is said without telling how. */
export const internalProblem = (): Problem => problem(500, httpCodes.internal, 'something went wrong on our side; the request may be retried');

/** Seconds a client should wait before retrying after a 503. */
export const retryAfterSeconds = 2;

/** The database cannot be reached or did not answer in time: a client may retry
 * (a command with its Idempotency-Key, which tells whether it was committed after all). */
export const databaseUnavailableProblem = (): Problem =>
  problem(503, httpCodes.databaseUnavailable, 'the database cannot be reached right now; retry shortly (a command with the same Idempotency-Key)', { retryAfter: retryAfterSeconds });

/** Any failure as the problem a client is told: our own faults are logged. */
export function problemForFailure(error: unknown, log: { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void }, failed: string): Problem {
  if (error instanceof ServiceError) return problemOf(error);
  if (databaseUnavailable(error)) {
    log.warn({ err: error }, `${failed}: the database is unavailable`);
    return databaseUnavailableProblem();
  }
  log.error({ err: error }, failed);
  return internalProblem();
}

/** Told to every request and socket command once the server has begun to close. */
export const shuttingDown = (): Problem => problem(503, httpCodes.shuttingDown, 'the server is shutting down; retry on another instance or after it has restarted');

export function sendProblem(reply: FastifyReply, body: Problem): FastifyReply {
  noteRefusal(reply, body.code);
  return reply.code(body.status).type('application/problem+json').send(body);
}

/** The router's own refusals, before any route or hook: a path that is not valid
 * percent-encoding, or a path parameter longer than any id. */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const body =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? problem(414, httpCodes.uriTooLong, 'a path parameter is longer than any id')
      : error.code === 'FST_ERR_BAD_URL'
        ? problem(400, httpCodes.badUrl, 'the path is not valid percent-encoding')
        : problem(400, serviceCodes.validation, error.message);
  // An upgrade request refused here never reaches the hooks that would end its
  // connection.
  if (request.raw.headers.upgrade !== undefined) closeAfterAnswer(request, reply);
  sendProblem(reply, body);
}

/** Node leaves the socket of an upgrade request to its listener: refused, it would
 * stay open after the answer. */
export function closeAfterAnswer(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('connection', 'close');
  reply.raw.once('finish', () => request.raw.socket.destroySoon());
}

export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof ServiceError) return sendProblem(reply, { ...problemOf(error), instance: request.url });
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issues = error.validation.map((v) => ({ path: `${error.validationContext ?? 'request'}${v.instancePath.replaceAll('/', '.')}`, message: v.message ?? 'invalid' }));
    return sendProblem(reply, problem(400, serviceCodes.validation, issues.map((i) => `${i.path}: ${i.message}`).join('; '), { issues, instance: request.url }));
  }
  const client = clientProblem(error);
  if (client !== null) return sendProblem(reply, { ...client, instance: request.url });
  const failure = problemForFailure(error, request.log, 'request failed');
  if (failure.status === 503) reply.header('retry-after', String(retryAfterSeconds));
  return sendProblem(reply, { ...failure, instance: request.url });
}

/** Node's own refusals of what is not HTTP enough to reach Fastify: a malformed request
 * line or header (400), headers over the limit (431), a request that took too long to
 * arrive (408). Written on the socket, which is then closed. */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: net.Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, code, detail] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, httpCodes.headersTooLarge, 'the request headers are larger than the server accepts']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, httpCodes.timeout, 'the request did not arrive in time']
        : [400, httpCodes.malformed, 'the request is not valid HTTP/1.1'];
  const body = JSON.stringify(problem(status, code, detail));
  socket.end(`HTTP/1.1 ${status} ${titles[status]}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
