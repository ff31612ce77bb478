// The live half: one game's socket (/games/{id}/live, see the server's /asyncapi.json)
// as an async iterator of updates, commands whose promises settle with their ack or
// error, and reconnection with ?after=N and exponential backoff (or after the wait a
// 503 refusal asks for, while the server's database fails over), so no update is
// missed or seen twice. Every message is checked against the socket's schemas before
// it is handed on: a client is never given something its types do not describe.
import { definitions, messageSchemas } from './messages.js';
import type { CommandAnswerOf, CommandOf, CommandOptions, GameType, Problem } from './types.js';
import { mismatch } from './validate.js';

/** Pushed when the game moves: the events since the previous update and the view after them. */
export type Update<T extends GameType = GameType> = CommandAnswerOf<T> & { readonly type: 'update' };
export type Ack<T extends GameType = GameType> = CommandAnswerOf<T> & { readonly type: 'ack'; readonly id?: string };
interface ErrorMessage {
  readonly type: 'error';
  readonly id?: string;
  readonly problem: Problem;
}
type ServerMessage<T extends GameType> = Update<T> | Ack<T> | ErrorMessage;

/** A handler the browser's WebSocket (with its richer event types) and the `ws`
 * package's both accept: declared as a method, whose parameters TypeScript compares
 * both ways. */
type Handler<E> = { handle(event: E): void }['handle'] | null;

/** What the client needs of a WebSocket: the browser's and the `ws` package's fit. */
export interface SocketLike {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: Handler<unknown>;
  onmessage: Handler<{ readonly data: unknown }>;
  onclose: Handler<{ readonly code: number; readonly reason: string }>;
  onerror?: Handler<unknown>;
}

/** A command refused by the server (its problem document), or the connection refused. */
export class LiveError extends Error {
  constructor(readonly problem: Problem) {
    super(`${problem.code}: ${problem.detail}`);
    this.name = 'LiveError';
  }
}

/** The server sent what the socket's schemas do not describe (a server of another
 * version, a proxy's message): the iterator ends with it, commands waiting fail with it. */
export class LiveProtocolError extends Error {
  constructor(readonly mismatch: string) {
    super(`a message from the server does not fit the socket's schemas: ${mismatch}`);
    this.name = 'LiveProtocolError';
  }
}

/** The socket closed before the command's answer came: it may or may not have been
 * applied. Resend it with the same idempotencyKey to find out safely. */
export class LiveDisconnected extends Error {
  constructor() {
    super('the live socket closed before the answer came');
    this.name = 'LiveDisconnected';
  }
}

export interface LiveOptions<T extends GameType> {
  /** The server, e.g. http://localhost:3000 (ws:// is derived from it). */
  readonly baseUrl: string;
  readonly gameId: string;
  /** The game's type, which types its commands and updates. */
  readonly gameType: T;
  /** A seat or referee token; without one you watch as a spectator. */
  readonly token?: string;
  /** The last version you have seen: the first update brings every event after it. */
  readonly after?: number;
  /** Opens a socket; default: the global WebSocket (browsers, Node 22). */
  readonly connect?: (url: string) => SocketLike;
  /** Reconnect delays: first, doubling up to max (ms). Default 100, 5000. */
  readonly backoff?: { readonly firstMs: number; readonly maxMs: number };
  /** Check every message against the socket's schemas (default). A load generator that
   * reads thousands of updates a second on the server's own machine may turn it off. */
  readonly validate?: boolean;
}

/** The message as the schemas describe it, or the first place where it is not. */
function checked(json: unknown): { message: unknown } | { mismatch: string } {
  const type = (json as { type?: unknown } | null)?.type;
  const schema = typeof type === 'string' ? messageSchemas[type as keyof typeof messageSchemas] : undefined;
  if (schema === undefined) return { mismatch: `$.type: ${JSON.stringify(type)} is no message the server sends` };
  const found = mismatch(definitions[schema]!, json, definitions);
  return found === null ? { message: json } : { mismatch: found };
}

const refused = (code: number) => code >= 4000 && code < 5000;
/** Refused for now, not for good: the server cannot serve the socket at the moment (its
 * database is unavailable, e.g. failing over). It says when to try again. */
const unavailable = 4503;

export class LiveGame<T extends GameType> implements AsyncIterable<Update<T>> {
  /** The version of the last update delivered. */
  version: number;
  private socket: SocketLike | null = null;
  private readonly updates: Update<T>[] = [];
  private readonly readers: { resolve: (result: IteratorResult<Update<T>>) => void; reject: (error: unknown) => void }[] = [];
  private readonly answers = new Map<string, { resolve: (ack: Ack<T>) => void; reject: (error: unknown) => void }>();
  private outbox: string[] = [];
  private open = false;
  private ended: { error: unknown } | null = null;
  private attempts = 0;
  /** How long the server said to wait before reconnecting (a 503 refusal), once. */
  private retryAfterMs: number | null = null;
  private nextId = 1;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly options: LiveOptions<T>) {
    this.version = options.after ?? 0;
    this.dial();
  }

  /** Sends a command as the socket's seat; settles with its ack, or fails with a
   * LiveError carrying the problem. Sent once the socket is open. For any game type,
   * also where `T` is a type parameter: a legal command of an update fits as it is. */
  send(command: CommandOf<T>, options: CommandOptions & { readonly idempotencyKey?: string } = {}): Promise<Ack<T>> {
    if (this.ended !== null) return Promise.reject(this.ended.error ?? new LiveDisconnected());
    const id = `c${this.nextId++}`;
    const message = JSON.stringify({ type: 'command', id, command, ...options });
    return new Promise<Ack<T>>((resolve, reject) => {
      this.answers.set(id, { resolve, reject });
      if (this.open && this.socket !== null) this.socket.send(message);
      else this.outbox.push(message);
    });
  }

  /** Updates in version order, each once; ends when `close()` is called, throws when the
   * server refuses the connection. */
  [Symbol.asyncIterator](): AsyncIterator<Update<T>> {
    return {
      next: () => {
        const update = this.updates.shift();
        if (update !== undefined) return Promise.resolve({ value: update, done: false });
        if (this.ended !== null) return this.ended.error === null ? Promise.resolve({ value: undefined, done: true }) : Promise.reject(this.ended.error);
        return new Promise((resolve, reject) => this.readers.push({ resolve, reject }));
      },
      return: () => {
        this.close();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }

  close(): void {
    this.end(null);
  }

  private url(): string {
    const url = new URL(`/games/${encodeURIComponent(this.options.gameId)}/live`, this.options.baseUrl);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    url.searchParams.set('after', String(this.version));
    if (this.options.token !== undefined) url.searchParams.set('token', this.options.token);
    return url.toString();
  }

  private dial(): void {
    const connect = this.options.connect ?? ((url: string): SocketLike => new WebSocket(url));
    const socket = connect(this.url());
    this.socket = socket;
    socket.onopen = () => {
      this.open = true;
      for (const message of this.outbox) socket.send(message);
      this.outbox = [];
    };
    socket.onmessage = (event) => {
      let json: unknown;
      try {
        json = JSON.parse(String(event.data));
      } catch {
        return this.end(new LiveProtocolError('a message that is not JSON'));
      }
      if (this.options.validate === false) return this.receive(json as ServerMessage<T>);
      const result = checked(json);
      if ('mismatch' in result) return this.end(new LiveProtocolError(result.mismatch));
      this.receive(result.message as ServerMessage<T>);
    };
    socket.onclose = (event) => this.closed(event.code);
    // A failed connection (refused, a balancer's 503 to the upgrade) is followed by its
    // close, which reconnects; with the ws package an unheard error would throw instead.
    socket.onerror = () => {};
  }

  private receive(message: ServerMessage<T>): void {
    this.attempts = 0;
    if (message.type === 'update') {
      // After a reconnect the first update may repeat the version already delivered.
      if (message.version <= this.version && message.events.length === 0 && this.delivered) return;
      this.version = message.version;
      this.delivered = true;
      const reader = this.readers.shift();
      if (reader !== undefined) reader.resolve({ value: message, done: false });
      else this.updates.push(message);
      return;
    }
    const waiting = message.id === undefined ? undefined : this.answers.get(message.id);
    if (message.type === 'error' && waiting === undefined) {
      // The socket closes with 4503 next, and is dialled again after the wait asked for.
      if (message.problem.status === 503) {
        const { retryAfter } = message.problem as { retryAfter?: unknown };
        this.retryAfterMs = typeof retryAfter === 'number' && retryAfter >= 0 ? retryAfter * 1000 : null;
        return;
      }
      return this.end(new LiveError(message.problem));
    }
    if (waiting === undefined || message.id === undefined) return;
    this.answers.delete(message.id);
    if (message.type === 'ack') waiting.resolve(message);
    else waiting.reject(new LiveError(message.problem));
  }

  private delivered = false;

  private closed(code: number): void {
    this.open = false;
    this.socket = null;
    for (const { reject } of this.answers.values()) reject(new LiveDisconnected());
    this.answers.clear();
    if (this.ended !== null || (refused(code) && code !== unavailable)) return this.end(this.ended?.error ?? null);
    const { firstMs, maxMs } = this.options.backoff ?? { firstMs: 100, maxMs: 5000 };
    const delay = this.retryAfterMs ?? Math.min(maxMs, firstMs * 2 ** this.attempts++);
    this.retryAfterMs = null;
    this.timer = setTimeout(() => this.dial(), delay);
  }

  private end(error: unknown): void {
    if (this.ended !== null) return;
    this.ended = { error };
    if (this.timer !== null) clearTimeout(this.timer);
    this.socket?.close(1000, 'done');
    for (const reader of this.readers.splice(0)) {
      if (error === null) reader.resolve({ value: undefined, done: true });
      else reader.reject(error);
    }
    for (const { reject } of this.answers.values()) reject(error ?? new LiveDisconnected());
    this.answers.clear();
  }
}
