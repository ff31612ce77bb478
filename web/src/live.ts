// A spectator's live connection to a game, through the client kit's LiveGame
// (@spielwerk/client): it reopens a dropped socket with `after=` the last version it
// delivered and hands on every version once, so the viewer only sees the table catch
// up. This adds what a person is shown: live, reconnecting, caught up, game over.
// Seat tokens never go into its URL (URLs end up in logs); a seat's page reads its own
// view over HTTP when an update says the game moved.
import { LiveGame, type GameType, type SocketLike } from '@spielwerk/client';
import type { Logged } from './api.ts';

export interface Update {
  readonly type: 'update';
  readonly version: number;
  readonly status: 'open' | 'running' | 'finished';
  readonly events: readonly Logged[];
  readonly view: unknown;
  readonly pending: { readonly seats: readonly number[]; readonly deadline?: number };
  readonly result: unknown;
}

/** connecting: not connected yet; live: open, every update drawn; reconnecting: the
 * socket dropped and is being reopened; caught-up: reopened and what was missed is
 * drawn (until the next update); over: the game finished, the socket is closed;
 * refused: the server refused the connection (e.g. no such game). */
export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'caught-up' | 'over' | 'refused';

export interface LiveHandlers {
  update(update: Update): void;
  state(state: LiveState): void;
}

export function watchLive(id: string, gameType: GameType, handlers: LiveHandlers): () => void {
  let stopped = false;
  // Set when a socket drops; the first update after it is the catch-up.
  let dropped = false;
  const live = new LiveGame({
    baseUrl: location.origin,
    gameId: id,
    gameType,
    backoff: { firstMs: 250, maxMs: 5000 },
    // LiveGame reconnects by itself; the page only watches its sockets close to say so.
    connect: (url): SocketLike => {
      const socket = new WebSocket(url);
      socket.addEventListener('close', () => {
        if (stopped) return;
        dropped = true;
        handlers.state('reconnecting');
      });
      // A reopened socket's first message is the catch-up. When nothing was missed,
      // LiveGame delivers no update for it (the version is already drawn): caught up
      // all the same, once LiveGame has had the message.
      socket.addEventListener('message', () => setTimeout(() => {
        if (!dropped || stopped) return;
        dropped = false;
        handlers.state('caught-up');
      }), { once: true });
      return socket;
    },
  });
  handlers.state('connecting');
  void (async () => {
    try {
      for await (const update of live) {
        handlers.update(update as Update);
        if (update.status === 'finished') {
          stopped = true;
          live.close();
          handlers.state('over');
          return;
        }
        handlers.state(dropped ? 'caught-up' : 'live');
        dropped = false;
      }
    } catch {
      if (!stopped) handlers.state('refused');
    }
  })();
  return () => {
    stopped = true;
    live.close();
  };
}
