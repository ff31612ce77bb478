// A WebSocket per game: pushes every new event (with the view after it, redacted for
// the connected seat or spectator) and accepts commands. A client that reconnects with
// `after=N` first gets what it missed since version N.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { ServiceError } from '../errors.ts';
import { allowedViewer } from '../access/principal.ts';
import { bearer } from './games.ts';
import { ClientMessage, closeCodes, type ErrorMessage } from './live-messages.ts';
import { internalProblem, problem, problemOf, type Problem } from './problem.ts';
import { GameParams } from './schemas.ts';

const sendJson = (socket: WebSocket, json: string) => {
  if (socket.readyState === socket.OPEN) socket.send(json);
};
const send = (socket: WebSocket, message: ErrorMessage | { readonly type: 'ack'; readonly id: string | undefined }) => sendJson(socket, JSON.stringify(message));

export const liveRoutes: FastifyPluginAsyncZod = async (app) => {
  const { reads, commands, hub } = app.services;
  /** A service error as its problem; anything else is logged and told as a 500. */
  const problemFor = (error: unknown, failed: string): Problem => {
    if (error instanceof ServiceError) return problemOf(error);
    app.log.error({ err: error }, failed);
    return internalProblem();
  };

  app.get('/games/:id/live', {
    websocket: true,
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
  }, async (socket: WebSocket, request: FastifyRequest<{ Params: { id: string }; Querystring: { after: number; token?: string } }>) => {
    const { id } = request.params;
    const refuse = (error: unknown) => {
      const refusal = problemFor(error, 'opening a live connection failed');
      send(socket, { type: 'error', problem: refusal });
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
      let message: z.infer<typeof ClientMessage>;
      try {
        message = ClientMessage.parse(JSON.parse(raw.toString()));
      } catch (error) {
        const detail = error instanceof z.ZodError ? error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') : 'not JSON';
        send(socket, { type: 'error', problem: problem(400, 'request/invalid', `bad message: ${detail}`) });
        return;
      }
      const { command, seat, expectedVersion, outcomes, idempotencyKey } = message;
      commands.handle({ gameId: id, caller: { kind: 'token', token }, command, seat, expectedVersion, outcomes, idempotencyKey }).then(
        (answer) => send(socket, { type: 'ack', id: message.id, ...answer }),
        (error: unknown) => send(socket, { type: 'error', id: message.id, problem: problemFor(error, 'command over WebSocket failed') }),
      );
    });
    let stop: (() => void) | null = null;
    let closed = false;
    socket.on('close', () => {
      closed = true;
      stop?.();
    });
    try {
      const { record, principal } = await reads.principalFor(id, token);
      const unwatch = await hub.watch(id, { viewer: allowedViewer(record, principal, undefined), send: (json) => sendJson(socket, json) }, request.query.after);
      if (closed) unwatch();
      else stop = unwatch;
    } catch (error) {
      refuse(error);
    }
  });
};
