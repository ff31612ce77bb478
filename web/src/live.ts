// A spectator's live connection to a game: the WebSocket of GET /games/{id}/live,
// reopened after a drop with `after=` the last version drawn, so the viewer only sees
// the table catch up. Seat tokens never go into its URL (URLs end up in logs); a seat's
// page reads its own view over HTTP when an update says the game moved.
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
 * drawn (until the next update); over: the game finished, the socket is closed. */
export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'caught-up' | 'over';

export interface LiveHandlers {
  update(update: Update): void;
  state(state: LiveState): void;
}

export function watchLive(id: string, handlers: LiveHandlers): () => void {
  let version = 0;
  let socket: WebSocket | null = null;
  let stopped = false;
  let retry = 250;
  let dropped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const open = () => {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${scheme}://${location.host}/games/${id}/live?after=${version}`);
    socket = ws;
    let caughtUp = false;
    ws.onmessage = (message) => {
      const data = JSON.parse(String(message.data)) as Update | { type: string };
      if (data.type !== 'update') return;
      const update = data as Update;
      // After a reconnect the server resends nothing we drew; a stale one is dropped.
      if (update.version < version) return;
      version = update.version;
      retry = 250;
      handlers.update(update);
      if (update.status === 'finished') {
        stopped = true;
        ws.close(1000);
        handlers.state('over');
      } else if (!caughtUp && dropped) handlers.state('caught-up');
      else handlers.state('live');
      caughtUp = true;
    };
    ws.onclose = () => {
      if (stopped) return;
      dropped = true;
      handlers.state('reconnecting');
      timer = setTimeout(open, retry);
      retry = Math.min(retry * 2, 5000);
    };
  };
  handlers.state('connecting');
  open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    socket?.close(1000);
  };
}
