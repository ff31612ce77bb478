// A WebSocket per tournament: every event of its log, in order — rounds paired, tables
// finished, standings — with the game socket's resume contract: connect with
// `after=N` to first receive what came after seq N. Events committed on this instance
// arrive at once; a short poll catches those committed by other instances.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { ServiceError } from '../errors.ts';
import type { TournamentEvent } from '../tournaments/log.ts';
import { closeCodes } from '../live/live-sockets.ts';
import { overSendBuffer } from '../live/socket-limits.ts';
import type { ErrorMessage } from './live-messages.ts';
import { releaseUpgrade } from './live-upgrade.ts';
import { internalProblem, problemOf } from './problem.ts';
import type { TournamentEventsMessage } from './tournament-live-messages.ts';

const POLL_MS = 2000;

export const tournamentLiveRoutes: FastifyPluginAsyncZod = async (app) => {
  const { tournaments, tournamentStore, feed, sockets } = app.services;

  app.get('/tournaments/:id/live', {
    websocket: true,
    schema: {
      tags: ['live'],
      summary: 'WebSocket: the tournament log as it grows',
      description: 'Upgrade to a WebSocket; asyncapi/asyncapi.json describes its messages (TournamentEventsMessage) and close codes. Reconnect with ?after=N (the last seq seen) to first receive what was missed.',
      params: z.object({ id: z.uuid() }),
      querystring: z.object({ after: z.coerce.number().int().min(0).default(0).describe('The last seq the client has seen') }),
    },
  }, async (socket: WebSocket, request: FastifyRequest<{ Params: { id: string }; Querystring: { after: number } }>) => {
    // The closures below live as long as the socket: none may hold the request (live-upgrade.ts).
    releaseUpgrade(socket, request);
    const { id } = request.params;
    // Counted among the open sockets and closed with 1001 at shutdown, as a game's.
    sockets.add(socket);
    let sent = request.query.after;
    const push = (batch: readonly { seq: number; event: TournamentEvent }[]) => {
      const fresh = batch.filter((e) => e.seq > sent);
      if (fresh.length === 0 || fresh[0]!.seq !== sent + 1 || socket.readyState !== socket.OPEN) return false;
      sent = fresh.at(-1)!.seq;
      const message: TournamentEventsMessage = { type: 'events', events: fresh, version: sent };
      socket.send(JSON.stringify(message));
      // As on a game's socket: a client that does not read reconnects with after=N.
      if (overSendBuffer(socket, sockets.limits.sendBufferBytes)) socket.close(closeCodes.sendBufferFull, 'send buffer full: reconnect with ?after=N');
      return true;
    };
    let catchingUp: Promise<void> = Promise.resolve();
    // Reading the store fills any gap; it is the only writer of `sent` besides live batches that follow on.
    const catchUp = () => (catchingUp = catchingUp.then(async () => void push((await tournamentStore.readEvents(id, sent)).map(({ seq, event }) => ({ seq, event })))).catch(() => undefined));
    const unwatch = feed.watch(id, (firstSeq, events) => {
      if (!push(events.map((event, i) => ({ seq: firstSeq + i, event })))) void catchUp();
    });
    const timer = setInterval(() => void catchUp(), POLL_MS);
    timer.unref();
    socket.on('close', () => {
      unwatch();
      clearInterval(timer);
    });
    try {
      await tournaments.state(id);
      await catchUp();
    } catch (error) {
      const refusal = error instanceof ServiceError ? problemOf(error) : internalProblem();
      const message: ErrorMessage = { type: 'error', problem: refusal };
      socket.send(JSON.stringify(message));
      socket.close(closeCodes.refused(refusal.status), refusal.code);
    }
  });
};
