// The open live sockets of this instance and the commands sent on them, for shutdown:
// once closing starts a socket command is refused with a problem instead of being
// decided, the ones already accepted are answered, and every socket is closed with
// 1001 — those whose peer does not complete the close handshake in time are cut.
// Imports nothing of the application: routes/live.ts registers its sockets here.
import { once } from 'node:events';
import type { WebSocket } from 'ws';
import { defaultLiveLimits, type LiveLimits } from './socket-limits.ts';

/** Close codes (routes/live-messages.ts says what each means to a client): 1001 when
 * the server shuts down, 1003 for a binary frame, 1009 for a message over the size
 * limit, 1013 when too much is waiting to be sent to a socket that does not read,
 * 4000 + HTTP status when refused (4429: it kept sending past its message rate). */
export const closeCodes = { goingAway: 1001, unsupportedData: 1003, tooLarge: 1009, sendBufferFull: 1013, refused: (status: number) => 4000 + status } as const;

export class LiveSockets {
  private readonly sockets = new Set<WebSocket>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private closingStarted = false;

  constructor(readonly limits: LiveLimits = defaultLiveLimits) {}

  get closing(): boolean {
    return this.closingStarted;
  }

  get open(): number {
    return this.sockets.size;
  }

  add(socket: WebSocket): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }

  /** Tracks a socket command until its answer is sent, so closing can wait for it. */
  track(answered: Promise<unknown>): void {
    const settled = answered.catch(() => undefined);
    this.inFlight.add(settled);
    void settled.then(() => this.inFlight.delete(settled));
  }

  /** No new commands from here on; settles when the accepted ones are answered. */
  async stopCommands(deadline: number): Promise<void> {
    this.closingStarted = true;
    while (this.inFlight.size > 0 && Date.now() < deadline) await until(Promise.all(this.inFlight), deadline);
  }

  /** Closes every socket with 1001 and waits for the handshakes until `deadline`;
   * whatever is still open then is terminated. */
  async closeAll(deadline: number): Promise<{ closed: number; terminated: number }> {
    this.closingStarted = true;
    const open = [...this.sockets];
    for (const socket of open) socket.close(closeCodes.goingAway, 'server shutting down');
    await until(Promise.all(open.map((socket) => (socket.readyState === socket.CLOSED ? null : once(socket, 'close')))), deadline);
    const left = [...this.sockets];
    for (const socket of left) socket.terminate();
    return { closed: open.length - left.length, terminated: left.length };
  }
}

/** Settles when `work` does or at `deadline`, whichever comes first. */
export async function until(work: Promise<unknown>, deadline: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
  });
  try {
    await Promise.race([work.then(() => undefined, () => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
