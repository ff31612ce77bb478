// RFC 9457 problem details: every failure leaves the service as
// `application/problem+json` with a stable `code`. This is the only place that maps
// codes to HTTP statuses.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ServiceError, serviceCodes, type ServiceCode } from '../errors.ts';

export const Problem = z
  .object({
    type: z.string().describe('A URI naming the kind of problem: urn:spielwerk:problem:<code>'),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string().describe('Stable machine-readable code, e.g. command/stale-version or pechvogel/not-your-turn'),
    instance: z.string().optional(),
    currentVersion: z.number().int().optional().describe('With command/stale-version and command/conflict'),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    need: z
      .object({ kind: z.string(), count: z.number().int(), values: z.array(z.unknown()) })
      .optional()
      .describe('With chance/outcome-missing and chance/outcome-invalid: what the draw needs (kind, how many, the values still possible)'),
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
};

const titles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
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
    FST_ERR_CTP_BODY_TOO_LARGE: 'request/too-large',
    FST_ERR_CTP_INVALID_MEDIA_TYPE: 'request/unsupported-media-type',
    FST_ERR_CTP_EMPTY_JSON_BODY: 'request/invalid',
    FST_ERR_CTP_INVALID_JSON_BODY: 'request/invalid-json',
  };
  return problem(status, codes[error.code] ?? serviceCodes.validation, error.message);
}

/** Our fault, never the client's: what is said without telling how. */
export const internalProblem = (): Problem => problem(500, 'server/internal', 'something went wrong on our side; the request may be retried');

export function sendProblem(reply: FastifyReply, body: Problem): FastifyReply {
  return reply.code(body.status).type('application/problem+json').send(body);
}

export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof ServiceError) return sendProblem(reply, { ...problemOf(error), instance: request.url });
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issues = error.validation.map((v) => ({ path: `${error.validationContext ?? 'request'}${v.instancePath.replaceAll('/', '.')}`, message: v.message ?? 'invalid' }));
    return sendProblem(reply, problem(400, serviceCodes.validation, issues.map((i) => `${i.path}: ${i.message}`).join('; '), { issues, instance: request.url }));
  }
  const client = clientProblem(error);
  if (client !== null) return sendProblem(reply, { ...client, instance: request.url });
  request.log.error({ err: error }, 'unhandled error');
  return sendProblem(reply, { ...internalProblem(), instance: request.url });
}
