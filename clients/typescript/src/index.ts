// @spielwerk/client: typed REST (openapi-fetch over types generated from the server's
// OpenAPI document) and the live socket of a game.
export { bearer, createRestClient } from './rest.ts';
export type { CommandAnswerOf, CommandOf, CommandOptions, GameDetailsOf, GameType, Problem, RestClient, RestTransport, Schemas, ViewOf, components, paths } from './rest.ts';
export { LiveDisconnected, LiveError, LiveGame } from './live.ts';
export type { Ack, LiveOptions, SocketLike, Update } from './live.ts';
