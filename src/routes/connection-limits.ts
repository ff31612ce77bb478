// Connections (HTTP and live sockets alike, counted from the TCP connection) per client
// address and in all, and the timeouts that cut a client sending its request too
// slowly (slowloris). A connection over a limit is answered at once with 503
// `server/too-many-connections` and closed; its request, should it arrive, is not
// handled. Behind a proxy every connection comes from the proxy's address: set the
// per-address limit there, and 0 here. See docs/operations.md, "Limits".
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { httpCodes, problem } from './problem.ts';

export interface ConnectionLimits {
  /** Open connections in all; 0: no limit. */
  readonly max: number;
  /** Open connections from one address; 0: no limit. */
  readonly perAddress: number;
  /** Time for a request's headers to arrive, from its first byte (Node's `headersTimeout`). */
  readonly headersTimeoutMs: number;
  /** Time for a whole request, body included, to arrive (Node's `requestTimeout`). */
  readonly requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open (Node's `keepAliveTimeout`). */
  readonly keepAliveTimeoutMs: number;
}

export const defaultConnectionLimits: ConnectionLimits = { max: 20_000, perAddress: 1000, headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 72_000 };

/** Fastify's server options for the timeouts. Node checks them every
 * `connectionsCheckingInterval` (30 s by default): here often enough that a slow
 * request is cut within a second of its time. An upgraded socket is no longer checked. */
export function timeoutOptions(limits: ConnectionLimits) {
  const shortest = Math.min(...[limits.headersTimeoutMs, limits.requestTimeoutMs].filter((ms) => ms > 0), 4000);
  return {
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: { headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: Math.max(50, Math.floor(shortest / 4)) },
  };
}

export function limitConnections(app: FastifyInstance, limits: ConnectionLimits): void {
  const refused = new WeakSet<Socket>();
  const byAddress = new Map<string, number>();
  let open = 0;
  const body = JSON.stringify(problem(503, httpCodes.tooManyConnections, 'too many connections are open from this address, or in all; close one or retry later'));
  const answer = `HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n${body}`;
  (app.server as Server).on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const mine = byAddress.get(address) ?? 0;
    if ((limits.max > 0 && open >= limits.max) || (limits.perAddress > 0 && mine >= limits.perAddress)) {
      refused.add(socket);
      socket.end(answer);
      // A client that does not close its end holds no connection for long either.
      setTimeout(() => socket.destroy(), 1000).unref();
      return;
    }
    open++;
    byAddress.set(address, mine + 1);
    socket.once('close', () => {
      open--;
      const left = byAddress.get(address)! - 1;
      if (left === 0) byAddress.delete(address);
      else byAddress.set(address, left);
    });
  });
  // Node parses a request that arrives on a refused connection anyway: it was answered.
  app.addHook('onRequest', async (request, reply) => {
    if (refused.has(request.raw.socket)) return reply.hijack();
  });
}
