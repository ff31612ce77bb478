// A faster REST transport for Node (`@spielwerk/client/node`): the client's requests go
// over an undici Pool with keep-alive connections to one origin instead of the global
// fetch. On Node, fetch builds a WHATWG Request for every call and a WHATWG Response
// for its answer, which cost about as much again as the request itself (a load
// generator on the server's machine ran about half as fast with them). Here a request
// goes to undici as it is, and the answer is a small object with what the client reads
// (status, ok, headers, text). Browsers keep the default transport: this module is for
// Node only (needs `undici`).
import { Pool, type Dispatcher } from 'undici';
import type { RestRequest, RestResponse, RestTransport } from './rest.js';

export interface PoolTransportOptions {
  /** Keep-alive connections at most, e.g. one per request in flight. Default 16. */
  readonly connections?: number;
  /** Milliseconds to wait for an answer's headers and for each part of its body. Default 30,000. */
  readonly timeoutMs?: number;
}

export interface PoolTransport extends RestTransport {
  /** Closes the pool's connections once the requests under way have their answers. */
  close(): Promise<void>;
}

type RawHeaders = Record<string, string | string[] | undefined>;

/** An answer read whole; its headers read straight from what undici received (names
 * in lower case), by any case. */
class PooledResponse implements RestResponse {
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };

  constructor(
    readonly status: number,
    raw: RawHeaders,
    private readonly body: string,
  ) {
    this.ok = status >= 200 && status < 300;
    this.headers = {
      get: (name) => {
        const value = raw[name.toLowerCase()];
        return value === undefined ? null : typeof value === 'string' ? value : value.join(', ');
      },
    };
  }

  text(): Promise<string> {
    return Promise.resolve(this.body);
  }
}

/** A transport over keep-alive connections to `baseUrl`'s origin:
 * `createRestClient({ baseUrl, transport: poolTransport(baseUrl) })`. Every request of
 * the client must go to that origin. */
export function poolTransport(baseUrl: string | URL, options: PoolTransportOptions = {}): PoolTransport {
  const origin = new URL(baseUrl).origin;
  const timeout = options.timeoutMs ?? 30_000;
  const pool = new Pool(origin, { connections: options.connections ?? 16 });
  return {
    send: async (request: RestRequest) => {
      if (!request.url.startsWith(`${origin}/`)) throw new TypeError(`this transport speaks to ${origin} only, not to ${request.url}`);
      const answer = await pool.request({
        path: request.url.slice(origin.length),
        method: request.method as Dispatcher.HttpMethod,
        headers: request.headers,
        body: request.body ?? null,
        signal: request.signal ?? null,
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
      return new PooledResponse(answer.statusCode, answer.headers, await answer.body.text());
    },
    close: () => pool.close(),
  };
}
