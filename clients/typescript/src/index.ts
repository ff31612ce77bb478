// @spielwerk/client: a typed REST client over the server's OpenAPI document, and the
// live socket of a game, whose messages are checked against its AsyncAPI schemas.
export { bearer, createRestClient, sendCommand } from './rest.js';
export type { Answered, DataOf, ErrorOf, RequestOptions, RestAnswer, RestClient, RestClientOptions, RestRequest, RestResponse, RestTransport } from './rest.js';
export type { CommandAnswerOf, CommandOf, CommandOptions, EventOf, GameDetailsOf, GameType, Problem, Schemas, ViewOf, components, paths } from './types.js';
export { LiveDisconnected, LiveError, LiveGame, LiveProtocolError } from './live.js';
export type { Ack, LiveOptions, SocketLike, Update } from './live.js';
