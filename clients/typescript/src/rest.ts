// The REST half: openapi-fetch over the types generated from openapi.json, and the
// names a client needs to talk about games without spelling out schema paths.
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './api.js';

export type { components, paths };
export type Schemas = components['schemas'];
export type GameType = Schemas['GameSummary']['type'];
export type Problem = Schemas['Problem'];

type Body<P extends keyof paths> = paths[P] extends { post: { requestBody: { content: { 'application/json': infer B } } } } ? B : never;
/** A command of game type `T`, as its route /games/{id}/commands/<T> takes it. */
export type CommandOf<T extends GameType> = Body<`/games/{id}/commands/${T}`> extends { command: infer C } ? C : never;
/** What a command request of game type `T` may carry besides the command. */
export type CommandOptions = Omit<Body<'/games/{id}/commands'>, 'command'>;

/** The answers that carry a view, narrowed to one game type. */
export type GameDetailsOf<T extends GameType> = Extract<Schemas['GameDetails'], { gameType: T }>;
export type CommandAnswerOf<T extends GameType> = Extract<Schemas['CommandAnswer'], { gameType: T }>;
export type ViewOf<T extends GameType> = GameDetailsOf<T>['view'];

/** The media types the client reads: JSON answers and problem documents (the streamed
 * NDJSON replay, `Accept: application/x-ndjson`, is read with fetch itself). */
type Json = 'application/json' | 'application/problem+json';
export type RestClient = Client<paths, Json>;

/** How requests travel: the platform's fetch by default; in Node, `poolTransport` of
 * `@spielwerk/client/node` sends them over keep-alive connections much faster. */
export interface RestTransport {
  readonly Request: NonNullable<ClientOptions['Request']>;
  readonly fetch: NonNullable<ClientOptions['fetch']>;
}

/** A client for the whole REST API. With `token` every request carries it; without,
 * pass `headers: bearer(token)` per request (e.g. one client for several seats). */
export function createRestClient(options: Omit<ClientOptions, 'Request' | 'fetch'> & { readonly token?: string; readonly transport?: RestTransport }): RestClient {
  const { token, transport, ...rest } = options;
  const client = createClient<paths, Json>(transport === undefined ? rest : { ...rest, Request: transport.Request, fetch: transport.fetch });
  if (token !== undefined) {
    client.use({
      onRequest: ({ request }) => {
        request.headers.set('authorization', `Bearer ${token}`);
        return request;
      },
    });
  }
  return client;
}

export const bearer = (token: string): { authorization: string } => ({ authorization: `Bearer ${token}` });
