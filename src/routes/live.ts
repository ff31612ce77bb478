// A WebSocket per game: pushes every new event (with the view after it, redacted for
// the connected seat or spectator) and accepts commands. A client that reconnects with
// `after=N` first gets what it missed since version N.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { ServiceError, serviceCodes } from '../errors.ts';
import { allowedViewer, resolvePrincipal } from '../access/principal.ts';
import { eyesKey, type Viewer } from '../domain/contract.ts';
import type { GameRecord } from '../events/records.ts';
import { closeCodes } from '../live/live-sockets.ts';
import { MessageBudget, overSendBuffer } from '../live/socket-limits.ts';
import { socketCorker } from '../live/tick-cork.ts';
import { bearer } from './games.ts';
import { refuseNul } from './nul.ts';
import { releaseUpgrade } from './live-upgrade.ts';
import { ClientMessage } from './live-messages.ts';
import { closeAfterAnswer, problem, problemForFailure, problemOf, sendProblem, shuttingDown, httpCodes, type Problem } from './problem.ts';
import { GameParams } from './schemas.ts';

/** An upgrade to a WebSocket is for the live routes alone: on any other route it is
 * refused with a problem instead of upgraded and closed at once. Called after
 * @fastify/websocket (which tells `request.ws`) and before the routes, so that it sees
 * every WebSocket route. */
export function refuseOtherUpgrades(app: FastifyInstance): void {
  const live = new Set<string>();
  app.addHook('onRoute', (route) => {
    if (route.websocket === true || route.wsHandler !== undefined) live.add(route.url);
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!request.ws || live.has(request.routeOptions.url ?? '')) return;
    closeAfterAnswer(request, reply);
    return sendProblem(reply, problem(400, httpCodes.notWebSocket, `${request.routeOptions.url} is no WebSocket endpoint; the live sockets are /games/{id}/live and /tournaments/{id}/live`));
  });
}

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
      // The closures below live as long as the socket: none may hold the request (live-upgrade.ts).
      const log = releaseUpgrade(socket, request);
      const { id } = request.params;
      const { after } = request.query;
      sockets.add(socket);
      const opened = Date.now();
      let received = 0;
      let sent = 0;
      const { sendBufferBytes, messagesPerSecond } = sockets.limits;
      // The ack and the update of one commit leave in one write (live/tick-cork.ts).
      const cork = socketCorker(socket);
      // A socket that does not read is closed rather than buffered for without bound;
      // the client reconnects with after=N and misses nothing.
      const sendJson = (json: string | Buffer) => {
        if (socket.readyState !== socket.OPEN) return;
        cork();
        // Text frames, also for an update that comes encoded already (ws would send a Buffer as binary).
        socket.send(json, { binary: false });
        sent++;
        metrics.pushed();
        if (overSendBuffer(socket, sendBufferBytes)) socket.close(closeCodes.sendBufferFull, 'send buffer full: reconnect with ?after=N');
      };
      const send = (message: unknown) => sendJson(JSON.stringify(message));
      // A part of a long catch-up waits for the socket to take it instead.
      const sendPart = (json: string) =>
        new Promise<boolean>((resolve) => {
          if (socket.readyState !== socket.OPEN) return resolve(false);
          socket.send(json, (error) => resolve(error == null && socket.readyState === socket.OPEN));
          sent++;
          metrics.pushed();
        });
      const budget = new MessageBudget(messagesPerSecond);
      log.debug({ gameId: id, after }, 'live socket opened');
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
      socket.on('message', (raw: Buffer, binary: boolean) => {
        if (socket.readyState !== socket.OPEN) return;
        received++;
        if (binary) return socket.close(closeCodes.unsupportedData, 'binary frames are not accepted: send JSON text');
        const verdict = budget.take();
        if (verdict !== 'accept') {
          const limited = problem(429, httpCodes.liveRateLimited, `more than ${messagesPerSecond} messages a second on this socket`);
          if (verdict === 'refuse') return send({ type: 'error', ...idOf(parsed(raw)), problem: limited });
          send({ type: 'error', problem: limited });
          return socket.close(closeCodes.refused(limited.status), limited.code);
        }
        // Whatever is wrong with a message, the reply names it by its id when it has one
        // that can be read, so that the client knows which of its messages was refused.
        const json = parsed(raw);
        let message: z.infer<typeof ClientMessage>;
        try {
          if (json === notJson) throw new ServiceError(serviceCodes.validation, 'bad message: not JSON');
          message = ClientMessage.parse(json);
          refuseNul(message, 'message');
        } catch (error) {
          const refusal = error instanceof ServiceError ? problemOf(error) : problem(400, serviceCodes.validation, `bad message: ${(error as z.ZodError).issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
          send({ type: 'error', ...idOf(json), problem: refusal });
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
        log.info({ gameId: id, closeCode: code, ms: Date.now() - opened, messagesIn: received, messagesOut: sent }, 'live socket closed');
      });
      try {
        // Opening the socket with a seat's token is its person's arrival.
        await app.services.setup.arrive(id, token);
        const seatsRead = hub.seatChangesHeard;
        const { record, principal } = await reads.principalFor(id, token);
        const viewer = allowedViewer(record, principal, undefined);
        // A withdrawn player's token stops holding her seat, and her socket stops showing it.
        const reseated = (changed: GameRecord): boolean => {
          let now: Viewer;
          try {
            now = allowedViewer(changed, resolvePrincipal(changed, token), undefined);
          } catch (error) {
            refuse(error);
            return false;
          }
          if (eyesKey(now) === eyesKey(viewer)) return true;
          refuse(new ServiceError(serviceCodes.forbidden, 'this token no longer sees the game through the eyes this socket was opened with'));
          return false;
        };
        const unwatch = await hub.watch(id, { viewer, send: sendJson, sendPart, reseated }, after, seatsRead);
        if (closed) unwatch();
        else stop = unwatch;
      } catch (error) {
        refuse(error);
      }
    },
  });
};

const notJson = Symbol('not JSON');

function parsed(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString());
  } catch {
    return notJson;
  }
}

/** `{ id }` of a refused message, to be echoed, when it has one a client could have
 * meant (a string of at most 64 characters, even one the message's schema refuses for
 * what else it holds); else nothing. */
function idOf(message: unknown): { id?: string } {
  if (message === null || typeof message !== 'object' || !('id' in message)) return {};
  const { id } = message;
  return typeof id === 'string' && id.length <= 64 ? { id } : {};
}
