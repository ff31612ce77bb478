// @spielwerk/client: typed REST (openapi-fetch over types generated from the server's
// OpenAPI document) and the live socket of a game.
export { bearer, createRestClient } from './rest.js';
export type { CommandAnswerOf, CommandOf, CommandOptions, GameDetailsOf, GameType, Problem, RestClient, RestTransport, Schemas, ViewOf, components, paths } from './rest.js';
export { LiveDisconnected, LiveError, LiveGame } from './live.js';
export type { Ack, LiveOptions, SocketLike, Update } from './live.js';
