// src/observability/ is what an operator sees of the service from outside: its log
// lines and its metrics. It imports only `lib`; app.ts and the routes feed it.
//
// Fastify's request log lines: one per request instead of two, never a secret, and at
// a level that fits what happened. Thousands of commands a second would drown the log:
// a success is debug, and so is a refusal that is part of normal play (a lost race, a
// move the rules forbid); other refusals are info with their problem code, a database
// outage warn, our own faults error.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

const refusalCodes = new WeakMap<object, string>();

/** Remembers the problem code a reply refused with, for its log line. */
export const noteRefusal = (reply: object, code: string): void => void refusalCodes.set(reply, code);

/** The live socket's `?token=` is a seat's secret: no log line may carry it. */
export const redactUrl = (url: string): string => url.replace(/([?&]token=)[^&#]*/gi, '$1[redacted]');

/** For pino's `redact`: where a logged object could hold a token. */
export const secretPaths = ['req.headers.authorization', 'headers.authorization', 'authorization', 'token', '*.token'];

const expectedRefusal = (status: number): boolean => status === 409 || status === 422;

export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const status = reply.statusCode;
    const line = { method: request.method, url: redactUrl(request.url), statusCode: status, ms: Math.round(reply.elapsedTime * 10) / 10, code: refusalCodes.get(reply) };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else if (status >= 500) reply.log[status === 503 ? 'warn' : 'error'](line, 'request failed');
    else if (status < 400 || expectedRefusal(status)) reply.log.debug(line, 'request completed');
    else reply.log.info(line, 'request refused');
  }
}
