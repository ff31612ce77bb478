// A faster REST transport for Node (`@spielwerk/client/node`): the client's requests go
// over an undici Pool with keep-alive connections to one origin instead of the global
// fetch. openapi-fetch builds a WHATWG Request for every call and reads a WHATWG
// Response back; on Node both are undici's fetch objects, and building and reading them
// cost about as much again as the request itself (a load generator on the server's
// machine ran about half as fast with them). Here a request is a small record of what
// openapi-fetch sets (method, URL, headers, body) and the answer a small Response with
// what openapi-fetch and callers read (status, ok, read-only headers, text, json).
// Browsers keep the default transport: this module is for Node only (needs `undici`).
import { Pool, type Dispatcher } from 'undici';
import type { RestTransport } from './rest.js';

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

/** A request as openapi-fetch builds one; undici sends it as it is. */
class PooledRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: string | null;
  readonly signal: AbortSignal | null;

  constructor(input: string | URL, init: RequestInit = {}) {
    this.url = String(input);
    this.method = init.method ?? 'GET';
    // openapi-fetch hands over the Headers it merged: kept, not copied.
    this.headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
    if (init.body !== undefined && init.body !== null && typeof init.body !== 'string') {
      throw new TypeError('the pool transport sends string bodies only (JSON, as openapi-fetch serializes them)');
    }
    this.body = init.body ?? null;
    this.signal = init.signal ?? null;
  }
}

type RawHeaders = Record<string, string | string[] | undefined>;

/** A Response's headers, read-only as a fetch Response's are, read straight from what
 * undici received (names in lower case) instead of copied into a Headers first. */
class AnswerHeaders {
  constructor(private readonly raw: RawHeaders) {}

  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    return value === undefined ? null : typeof value === 'string' ? value : value.join(', ');
  }

  has(name: string): boolean {
    return this.raw[name.toLowerCase()] !== undefined;
  }

  getSetCookie(): string[] {
    const value = this.raw['set-cookie'];
    return value === undefined ? [] : typeof value === 'string' ? [value] : [...value];
  }

  forEach(callback: (value: string, name: string, headers: AnswerHeaders) => void): void {
    for (const [name, value] of this.entries()) callback(value, name, this);
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of Object.keys(this.raw).sort()) {
      const value = this.get(name);
      if (value !== null) yield [name, value];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  append(): never {
    throw new TypeError("a response's headers are immutable");
  }

  set(): never {
    return this.append();
  }

  delete(): never {
    return this.append();
  }
}

/** An answer read whole: what openapi-fetch reads of a Response, and what a caller may. */
class PooledResponse {
  readonly ok: boolean;
  readonly statusText = '';
  readonly redirected = false;
  readonly type = 'basic';
  readonly bodyUsed = true;
  readonly headers: AnswerHeaders;

  constructor(
    readonly status: number,
    raw: RawHeaders,
    readonly url: string,
    private readonly body: string,
  ) {
    this.ok = status >= 200 && status < 300;
    this.headers = new AnswerHeaders(raw);
  }

  text(): Promise<string> {
    return Promise.resolve(this.body);
  }

  json(): Promise<unknown> {
    return Promise.resolve(JSON.parse(this.body));
  }
}

/** A transport over keep-alive connections to `baseUrl`'s origin:
 * `createRestClient({ baseUrl, transport: poolTransport(baseUrl) })`. Every request of
 * the client must go to that origin. */
export function poolTransport(baseUrl: string | URL, options: PoolTransportOptions = {}): PoolTransport {
  const origin = new URL(baseUrl).origin;
  const timeout = options.timeoutMs ?? 30_000;
  const pool = new Pool(origin, { connections: options.connections ?? 16 });
  const fetch = async (request: PooledRequest): Promise<PooledResponse> => {
    if (!request.url.startsWith(`${origin}/`)) throw new TypeError(`this transport speaks to ${origin} only, not to ${request.url}`);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    const answer = await pool.request({
      path: request.url.slice(origin.length),
      method: request.method as Dispatcher.HttpMethod,
      headers,
      body: request.body,
      signal: request.signal,
      headersTimeout: timeout,
      bodyTimeout: timeout,
    });
    return new PooledResponse(answer.statusCode, answer.headers, request.url, await answer.body.text());
  };
  return {
    // openapi-fetch asks for the platform's Request and Response; these two carry every
    // part of them it uses, which is what the casts below stand for.
    Request: PooledRequest as unknown as typeof Request,
    fetch: fetch as unknown as RestTransport['fetch'],
    close: () => pool.close(),
  };
}
