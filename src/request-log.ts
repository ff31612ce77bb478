// Fastify's request log lines: one per request instead of two, and not at info when it
// succeeded. Thousands of commands a second would drown the log; refused requests stay
// visible at the default level, and failures are logged as errors as before.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = { method: request.method, url: request.url, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log[reply.statusCode >= 400 ? 'info' : 'debug'](line, 'request completed');
  }
}
