// What one live socket may cost the server (docs/operations.md, "Limits"): the bytes
// waiting to be sent to it, the messages it may send, and how many events one catch-up
// update carries. Imports nothing of the application: routes/live.ts applies them.

export interface LiveLimits {
  /** Bytes queued for one socket (ws `bufferedAmount`) past which the server closes it
   * with 1013 instead of buffering more; the client reconnects with `after=N` and
   * misses nothing. 0: no cap. A catch-up waits for the socket instead. */
  readonly sendBufferBytes: number;
  /** Messages one socket may send per second on average, and at once; past it they are
   * refused (`live/rate-limited`), and a socket that sends as many again while refused
   * is closed with 4429. 0: no limit. */
  readonly messagesPerSecond: number;
  /** Events in one update of a catch-up (`after=N` far behind): a long game arrives in
   * parts, each a normal update, rather than in one message of megabytes. */
  readonly catchUpEvents: number;
}

export const defaultLiveLimits: LiveLimits = { sendBufferBytes: 1024 * 1024, messagesPerSecond: 200, catchUpEvents: 500 };

/** Whether more is queued for a socket than `cap` allows (0: no cap): every socket that
 * pushes (a game's, a tournament's) is closed past it rather than buffered for. */
export const overSendBuffer = (socket: { readonly bufferedAmount: number }, cap: number): boolean => cap > 0 && socket.bufferedAmount > cap;

/** A token bucket of one second's worth of messages that may go as far into debt:
 * each message takes a token; without one it is refused, and once the debt is a full
 * bucket the socket is to be closed. Refused messages count too, so a client that
 * keeps sending while refused is closed, and one that slows down recovers. */
export class MessageBudget {
  private tokens: number;
  private last = performance.now();

  constructor(private readonly perSecond: number) {
    this.tokens = perSecond;
  }

  take(): 'accept' | 'refuse' | 'close' {
    if (this.perSecond === 0) return 'accept';
    const now = performance.now();
    this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.last) * this.perSecond) / 1000) - 1;
    this.last = now;
    if (this.tokens >= 0) return 'accept';
    return this.tokens < -this.perSecond ? 'close' : 'refuse';
  }
}
