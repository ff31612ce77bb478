import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';

/** Lets the upgrade's HTTP request and reply go once the socket is open, and returns
 * the request's logger, all a socket's handlers need of it from then on.
 * @fastify/websocket keeps both for the socket's lifetime: its 'error' listener closes
 * over them, and the reply it built for the routing stays the TCP socket's
 * `_httpMessage`. With the handlers' own closures over the request that was 2.5 of an
 * idle socket's 9.7 KB of heap (heap snapshots, 2,000 spectators). A socket error (a client's broken
 * frame, a reset) is then taken as the plugin's own handler takes it, the socket cut,
 * and logged as a client's doing rather than the server's. */
export function releaseUpgrade(socket: WebSocket, request: FastifyRequest): FastifyBaseLogger {
  const log = request.log;
  for (const listener of socket.listeners('error')) socket.removeListener('error', listener as (error: Error) => void);
  socket.on('error', (error: Error & { code?: string }) => {
    log.info({ code: error.code, message: error.message }, 'live socket error: connection cut');
    socket.terminate();
  });
  // No TCP socket behind an upgrade that app.injectWS() made.
  const tcp = request.raw.socket as (typeof request.raw.socket & { _httpMessage?: ServerResponse | null }) | undefined;
  if (tcp !== undefined) tcp._httpMessage?.detachSocket(tcp);
  return log;
}
