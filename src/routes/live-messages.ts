// The messages of the live socket (/games/{id}/live) and its close codes: the server
// parses what clients send with these schemas, and the AsyncAPI document
// (asyncapi/asyncapi.json) is generated from them.
import { z } from 'zod';
import { closeCodes } from '../live/live-sockets.ts';
import { defaultLiveLimits } from '../live/socket-limits.ts';
import { named, perGame } from './game-schemas.ts';
import { Problem } from './problem.ts';
import { commandAnswerShape, CommandRequestEnvelope, CommandRequest } from './schemas.ts';

const messageId = z.string().max(64).describe('Echoed in the ack or error, to match answers to commands');

/** What the server validates: the command is checked against the game's own schema
 * when it is handled, so that the error can name the game. */
export const ClientMessage = z.discriminatedUnion('type', [
  CommandRequestEnvelope.extend({ type: z.literal('command'), id: messageId.optional(), idempotencyKey: z.string().min(1).max(128).optional() }),
]);

/** The command message as documented: the command of any game (see CommandRequest). */
export const CommandMessage = named(
  CommandRequest.extend({
    type: z.literal('command'),
    id: messageId.optional(),
    idempotencyKey: z.string().min(1).max(128).optional().describe('A retry with the same key returns the first answer and appends nothing'),
  }).describe('A command, as POST /games/{id}/commands takes it'),
  'CommandMessage',
);

export const UpdateMessage = perGame(
  'UpdateMessage',
  'gameType',
  (g) => ({ type: z.literal('update'), ...commandAnswerShape(g) }),
  'The game moved: the events since the previous update, in order, and the view after them (commands committed together arrive as one update)',
).any;

export const AckMessage = perGame(
  'AckMessage',
  'gameType',
  (g) => ({ type: z.literal('ack'), id: messageId.optional(), ...commandAnswerShape(g) }),
  'A command sent on this socket was accepted: its answer, as POST /games/{id}/commands gives it',
).any;

export const ErrorMessage = named(
  z.object({ type: z.literal('error'), id: messageId.optional().describe('The message this refuses, whenever its id can be read (a string of at most 64 characters), also when the rest of the message is malformed; absent when the connection itself is refused or the message has no readable id'), problem: Problem }).describe(
    `A command sent on this socket was refused, or the connection is refused (then the socket closes with 4000 + status). A message past the socket's rate (${defaultLiveLimits.messagesPerSecond} a second by default, LIVE_MESSAGES_PER_SECOND) is refused with live/rate-limited (429) and not handled; a socket that sends as many again while refused gets one more such error, without an id, and is closed with 4429`,
  ),
  'ErrorMessage',
);
export type ErrorMessage = z.infer<typeof ErrorMessage>;

/** The close codes the server uses (live/live-sockets.ts), with what each means. */

export const closeCodeMeanings: readonly { readonly code: string; readonly meaning: string }[] = [
  { code: String(closeCodes.goingAway), meaning: 'The server is shutting down; reconnect (with ?after=N) to another instance or later.' },
  { code: String(closeCodes.unsupportedData), meaning: 'The client sent a binary frame; messages are JSON in text frames. Nothing of it was handled.' },
  { code: String(closeCodes.tooLarge), meaning: 'A message was over the size limit (64 KiB by default).' },
  {
    code: String(closeCodes.sendBufferFull),
    meaning: `The client did not read: more was waiting to be sent to it than the server buffers per socket (${defaultLiveLimits.sendBufferBytes / 1024} KiB by default, LIVE_SEND_BUFFER_BYTES). Reconnect with ?after=N, the last version seen; nothing is lost. A catch-up never causes it: its parts wait for the socket.`,
  },
  {
    code: '4000 + HTTP status',
    meaning: 'The connection was refused, e.g. 4400 bad token header, 4403 auth/forbidden, 4404 game/not-found, 4429 live/rate-limited (it kept sending past its message rate); the reason is the problem code, sent first as an error message. Do not reconnect unchanged, but after 4503 (server/database-unavailable: the database cannot be reached, e.g. while it fails over): reconnect with ?after=N after the problem\'s retryAfter seconds. An open socket is closed with 4403 too when its token stops holding its seat (a withdrawn tournament player, whose seat a bot plays on).',
  },
];
