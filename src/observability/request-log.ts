// src/observability/ is what an operator sees of the service from outside: its log
// lines and its metrics. It imports only `lib`; app.ts and the routes feed it.
//
// Fastify's request log lines: one per request instead of two, never a secret, at info
// while all went as the protocol foresees (answers, refusals with their problem code, a
// 503 while shutting down), warn when the database is unavailable, error for our own
// faults. A busy instance logs thousands of lines a second at info: LOG_LEVEL=warn keeps
// only what needs a look. Probes (load balancers, container health checks, Prometheus)
// can be sampled or left out (LOG_PROBE_SAMPLE), their failures never.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { redactUrl } from './redaction.ts';

const refusalCodes = new WeakMap<object, string>();

/** Remembers the problem code a reply refused with, for its log line. */
export const noteRefusal = (reply: object, code: string): void => void refusalCodes.set(reply, code);


/** The routes probes call, again and again. */
const probeRoutes = new Set(['/health', '/ready', '/metrics']);

/** A 503 that is no fault: the instance is shutting down, as it was told to. */
const shuttingDown = 'server/shutting-down';

export class RequestLog extends LogController {
  private probes = 0;

  /** @param probeSample one successful probe answer (GET /health, /ready, /metrics) in
   * this many is logged; 0: none. Failed probes are always logged. */
  constructor(private readonly probeSample = 1) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const status = reply.statusCode;
    if (status < 400 && !error && probeRoutes.has(request.routeOptions.url ?? '') && !this.sampled()) return;
    const code = refusalCodes.get(reply);
    const line = { method: request.method, url: redactUrl(request.url), statusCode: status, ms: Math.round(reply.elapsedTime * 10) / 10, code };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else if (status >= 500 && code !== shuttingDown) reply.log[status === 503 ? 'warn' : 'error'](line, 'request failed');
    else if (status >= 400) reply.log.info(line, 'request refused');
    else reply.log.info(line, 'request completed');
  }

  private sampled(): boolean {
    if (this.probeSample === 0) return false;
    this.probes = (this.probes + 1) % this.probeSample;
    return this.probes === 0;
  }
}
