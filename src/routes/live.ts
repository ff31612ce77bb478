// A WebSocket per game: pushes every new event (with the view after it, redacted for
// the connected seat or spectator) and accepts commands. A client that reconnects with
// `after=N` first gets what it missed since version N.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { ServiceError, serviceCodes } from '../errors.ts';
import { allowedViewer } from '../access/principal.ts';
import { closeCodes } from '../live/live-sockets.ts';
import { socketCorker } from '../live/tick-cork.ts';
import { bearer } from './games.ts';
import { refuseNul } from './nul.ts';
import { ClientMessage } from './live-messages.ts';
import { problem, problemForFailure, problemOf, sendProblem, shuttingDown, httpCodes, type Problem } from './problem.ts';
import { GameParams } from './schemas.ts';

export const liveRoutes: FastifyPluginAsyncZod = async (app) => {
  const { reads, commands, hub, sockets, metrics } = app.services;
  const problemFor = (error: unknown, failed: string): Problem => problemForFailure(error, app.log, failed);

  app.route({
    method: 'GET',
    url: '/games/:id/live',
    // A plain GET is told to upgrade instead of the plugin's empty 404.
    handler: (_request, reply) =>
      sendProblem(reply.header('upgrade', 'websocket').header('connection', 'upgrade'), problem(426, httpCodes.upgradeRequired, 'this is a WebSocket endpoint: send the request with Upgrade: websocket')),
    schema: {
      // A WebSocket is no HTTP operation: asyncapi/asyncapi.json describes it.
      hide: true,
      tags: ['live'],
      summary: 'WebSocket: live updates and commands',
      description:
        'Upgrade to a WebSocket; asyncapi/asyncapi.json describes its messages and close codes. Authenticate with the Authorization header or ?token=.',
      params: GameParams,
      querystring: z.object({
        after: z.coerce.number().int().min(0).default(0).describe('The last version the client has seen'),
        token: z.string().optional().describe('Seat or referee token, for clients that cannot set headers'),
      }),
    },
    wsHandler: async (socket: WebSocket, request: FastifyRequest<{ Params: { id: string }; Querystring: { after: number; token?: string } }>) => {
      const { id } = request.params;
      sockets.add(socket);
      const opened = Date.now();
      let received = 0;
      let sent = 0;
      // The ack and the update of one commit leave in one write (live/tick-cork.ts).
      const cork = socketCorker(socket);
      const sendJson = (json: string | Buffer) => {
        if (socket.readyState !== socket.OPEN) return;
        cork();
        // Text frames, also for an update that comes encoded already (ws would send a Buffer as binary).
        socket.send(json, { binary: false });
        sent++;
        metrics.pushed();
      };
      const send = (message: unknown) => sendJson(JSON.stringify(message));
      request.log.debug({ gameId: id, after: request.query.after }, 'live socket opened');
      const refuse = (error: unknown) => {
        const refusal = problemFor(error, 'opening a live connection failed');
        send({ type: 'error', problem: refusal });
        socket.close(closeCodes.refused(refusal.status), refusal.code);
      };
      let token: string | undefined;
      try {
        token = request.query.token ?? bearer(request);
      } catch (error) {
        return refuse(error);
      }
      // Listen at once: a client may send its first command right after the upgrade,
      // before the watch below is set up, and ws does not keep unheard messages.
      socket.on('message', (raw: Buffer) => {
        received++;
        let message: z.infer<typeof ClientMessage>;
        try {
          message = ClientMessage.parse(JSON.parse(raw.toString()));
          refuseNul(message, 'message');
        } catch (error) {
          if (error instanceof ServiceError) {
            send({ type: 'error', problem: problemOf(error) });
            return;
          }
          const detail = error instanceof z.ZodError ? error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') : 'not JSON';
          send({ type: 'error', problem: problem(400, serviceCodes.validation, `bad message: ${detail}`) });
          return;
        }
        // Shutting down: a command is refused rather than decided while the socket closes,
        // when its acknowledgement might no longer reach the client.
        if (sockets.closing) {
          send({ type: 'error', id: message.id, problem: shuttingDown() });
          return;
        }
        const { command, seat, expectedVersion, outcomes, idempotencyKey } = message;
        sockets.track(commands.handle({ gameId: id, caller: { kind: 'token', token }, command, seat, expectedVersion, outcomes, idempotencyKey }).then(
          (answer) => send({ type: 'ack', id: message.id, ...answer }),
          (error: unknown) => send({ type: 'error', id: message.id, problem: problemFor(error, 'command over WebSocket failed') }),
        ));
      });
      let stop: (() => void) | null = null;
      let closed = false;
      socket.on('close', (code: number) => {
        closed = true;
        stop?.();
        request.log.info({ gameId: id, closeCode: code, ms: Date.now() - opened, messagesIn: received, messagesOut: sent }, 'live socket closed');
      });
      try {
        const { record, principal } = await reads.principalFor(id, token);
        const unwatch = await hub.watch(id, { viewer: allowedViewer(record, principal, undefined), send: sendJson }, request.query.after);
        if (closed) unwatch();
        else stop = unwatch;
      } catch (error) {
        refuse(error);
      }
    },
  });
};
