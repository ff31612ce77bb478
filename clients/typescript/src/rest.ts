// The REST half: a typed client over the paths of the OpenAPI document (api.ts). Each
// call answers `{ data }` (the success's JSON, typed by path and method) or `{ error }`
// (the problem document), and `response` (status, headers). The answers are typed as
// the documents write them: no key is dropped on the way (openapi-fetch's types, used
// before, lost every key typed exactly `null`, such as `you: null`, so an answer was not
// assignable to the client's own GameDetails types).
import type { paths } from './api.js';
import type { CommandAnswerOf, CommandOf, CommandOptions, GameType, Problem } from './types.js';

type Method = 'get' | 'post' | 'delete';
type OperationOf<P extends keyof paths, M extends Method> = paths[P] extends { [K in M]: infer O } ? O : never;
/** The paths that have method `M`. */
type PathsWith<M extends Method> = { [P in keyof paths]: paths[P] extends { [K in M]: { responses: unknown } } ? P : never }[keyof paths];

type Successful = 200 | 201 | 202 | 203 | 204 | 206 | 304;
type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : R extends { content: { 'application/problem+json': infer J } } ? J : never;
type Responses<O> = O extends { responses: infer R } ? R : never;
/** The JSON of the operation's successful answers. */
export type DataOf<O> = { [S in keyof Responses<O>]: S extends Successful ? JsonOf<Responses<O>[S]> : never }[keyof Responses<O>];
/** The problem documents of its failures. */
export type ErrorOf<O> = { [S in keyof Responses<O>]: S extends Successful ? never : JsonOf<Responses<O>[S]> }[keyof Responses<O>];

type ParametersOf<O> = O extends { parameters: infer P } ? P : never;
type BodyOf<O> = O extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type ParamsOption<O> = {} extends ParametersOf<O> ? { readonly params?: ParametersOf<O> } : { readonly params: ParametersOf<O> };
type BodyOption<O> = [BodyOf<O>] extends [never] ? { readonly body?: never } : O extends { requestBody: unknown } ? { readonly body: BodyOf<O> } : { readonly body?: BodyOf<O> };

/** What one call takes besides its path: the path's and query's parameters, the body,
 * headers (e.g. `bearer(token)`), an AbortSignal. */
export type RequestOptions<O> = ParamsOption<O> & BodyOption<O> & { readonly headers?: Readonly<Record<string, string>>; readonly signal?: AbortSignal };
type OptionsArgument<O> = {} extends RequestOptions<O> ? [options?: RequestOptions<O>] : [options: RequestOptions<O>];

/** What the client reads of an HTTP answer (a fetch Response has all of it). */
export interface RestResponse {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
}

/** A call's outcome: the success's data, or the failure's problem document. */
export type Answered<D, E> = { readonly data: D; readonly error?: undefined; readonly response: RestResponse } | { readonly data?: undefined; readonly error: E; readonly response: RestResponse };
export type RestAnswer<O> = Answered<DataOf<O>, ErrorOf<O>>;

export interface RestClient {
  GET<P extends PathsWith<'get'>>(path: P, ...options: OptionsArgument<OperationOf<P, 'get'>>): Promise<RestAnswer<OperationOf<P, 'get'>>>;
  POST<P extends PathsWith<'post'>>(path: P, ...options: OptionsArgument<OperationOf<P, 'post'>>): Promise<RestAnswer<OperationOf<P, 'post'>>>;
  DELETE<P extends PathsWith<'delete'>>(path: P, ...options: OptionsArgument<OperationOf<P, 'delete'>>): Promise<RestAnswer<OperationOf<P, 'delete'>>>;
}

/** A request as a transport sends it. */
export interface RestRequest {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** The whole URL. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** JSON, when there is a body. */
  readonly body?: string;
  readonly signal?: AbortSignal;
}

/** How requests travel: the platform's fetch by default; in Node, `poolTransport` of
 * `@spielwerk/client/node` sends them over keep-alive connections much faster. */
export interface RestTransport {
  send(request: RestRequest): Promise<RestResponse>;
}

const fetchTransport: RestTransport = {
  send: ({ method, url, headers, body, signal }) => fetch(url, { method, headers, ...(body === undefined ? {} : { body }), ...(signal === undefined ? {} : { signal }) }),
};

export interface RestClientOptions {
  /** The server, e.g. http://localhost:3000 (a path after it is kept as a prefix). */
  readonly baseUrl: string;
  /** Sent with every request; without it, pass `headers: bearer(token)` per request
   * (e.g. one client for several seats). */
  readonly token?: string;
  /** Headers for every request. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly transport?: RestTransport;
}

type Parameters = { readonly path?: Readonly<Record<string, string | number>>; readonly query?: Readonly<Record<string, unknown>> };

/** `/games/{id}` with its parameters filled in, and the query (arrays as repeated keys). */
function address(path: string, parameters: Parameters = {}): string {
  const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = parameters.path?.[name];
    if (value === undefined) throw new TypeError(`${path} needs params.path.${name}`);
    return encodeURIComponent(String(value));
  });
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters.query ?? {})) {
    for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined && one !== null) query.append(name, String(one));
  }
  const search = query.toString();
  return search === '' ? filled : `${filled}?${search}`;
}

/** A client for the whole REST API. */
export function createRestClient(options: RestClientOptions): RestClient {
  const base = options.baseUrl.replace(/\/+$/, '');
  const transport = options.transport ?? fetchTransport;
  const common: Record<string, string> = { accept: 'application/json, application/problem+json', ...options.headers };
  if (options.token !== undefined) common.authorization = `Bearer ${options.token}`;
  const call = async (method: RestRequest['method'], path: string, call: { params?: Parameters; body?: unknown; headers?: Readonly<Record<string, string>>; signal?: AbortSignal } = {}) => {
    const headers = { ...common, ...call.headers, ...(call.body === undefined ? {} : { 'content-type': 'application/json' }) };
    const response = await transport.send({
      method,
      url: `${base}${address(path, call.params)}`,
      headers,
      ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
      ...(call.signal === undefined ? {} : { signal: call.signal }),
    });
    const text = await response.text();
    // JSON answers and problem documents are parsed; anything else (a proxy's error
    // page) is handed on as its text.
    const content = /json/.test(response.headers.get('content-type') ?? '') && text !== '' ? (JSON.parse(text) as unknown) : text === '' ? undefined : text;
    return response.ok ? { data: content, response } : { error: content, response };
  };
  // The typed methods are this one call: the types above say what each path takes and gives.
  return {
    GET: (path: string, options?: object) => call('GET', path, options),
    POST: (path: string, options?: object) => call('POST', path, options),
    DELETE: (path: string, options?: object) => call('DELETE', path, options),
  } as unknown as RestClient;
}

export const bearer = (token: string): { authorization: string } => ({ authorization: `Bearer ${token}` });

/** One way to send a command to a game of any type `T`, also where `T` is a type
 * parameter: `POST /games/{id}/commands/<T>`, the route where only that game's commands
 * fit, without a `switch` over the game types. */
export function sendCommand<T extends GameType>(
  rest: RestClient,
  game: { readonly type: T; readonly id: string },
  command: CommandOf<T>,
  options: CommandOptions & { readonly headers?: Readonly<Record<string, string>>; readonly idempotencyKey?: string } = {},
): Promise<Answered<CommandAnswerOf<T>, Problem>> {
  const { headers, idempotencyKey, ...request } = options;
  const route = `/games/{id}/commands/${game.type}` as '/games/{id}/commands';
  return rest.POST(route, {
    params: { path: { id: game.id } },
    headers: { ...headers, ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }) },
    body: { ...request, command } as never,
  }) as never;
}
