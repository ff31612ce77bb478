// The AsyncAPI 3.0 document of the live sockets, generated from the zod schemas the
// socket routes use (src/routes/live-messages.ts, src/routes/tournament-live-messages.ts). `npm run openapi` writes it beside
// the OpenAPI document; a test checks that the committed one is current and valid.
import { z } from 'zod';
import { AckMessage, closeCodeMeanings, CommandMessage, ErrorMessage, UpdateMessage } from './routes/live-messages.ts';
import { defaultLiveLimits } from './live/socket-limits.ts';
import { closeCodes } from './live/live-sockets.ts';
import { packageVersion } from './lib/package-version.ts';
import { dropSafeIntegerBounds, dropUnusedSchemas } from './routes/openapi-tidy.ts';
import { TournamentEventsMessage } from './routes/tournament-live-messages.ts';

export const asyncApiPath = new URL('../asyncapi/asyncapi.json', import.meta.url);

const SCHEMAS = '#/components/schemas/';
const idOf = (schema: z.ZodType): string => {
  const id = z.globalRegistry.get(schema)?.id;
  if (id === undefined) throw new Error('a socket message schema has no component name');
  return id;
};

const messages = {
  update: { schema: UpdateMessage, title: 'Update', summary: 'The game moved (server to client)' },
  ack: { schema: AckMessage, title: 'Ack', summary: 'A command on this socket was accepted (server to client)' },
  error: { schema: ErrorMessage, title: 'Error', summary: 'A command was refused, or the connection (server to client)' },
  command: { schema: CommandMessage, title: 'Command', summary: 'Send a command as your seat (client to server)' },
  tournamentEvents: { schema: TournamentEventsMessage, title: 'Tournament events', summary: "The tournament's log grew (server to client)" },
} as const;

export function generateAsyncApi(): string {
  const { schemas } = z.toJSONSchema(z.globalRegistry, { target: 'draft-7', uri: (id) => `${SCHEMAS}${id}`, unrepresentable: 'any' });
  const componentMessages = Object.fromEntries(
    Object.entries(messages).map(([key, m]) => [
      key,
      { name: key, title: m.title, summary: m.summary, contentType: 'application/json', payload: { $ref: `${SCHEMAS}${idOf(m.schema)}` } },
    ]),
  );
  const channel = '#/channels/live';
  const tournamentChannel = '#/channels/tournamentLive';
  const document = {
    asyncapi: '3.0.0',
    info: {
      title: 'Spielwerk live sockets',
      version: packageVersion,
      description: [
        "One WebSocket per game and watcher: `GET /games/{id}/live` upgrades. It pushes every move as an `update`, redacted for the connection's seat (or spectator), and takes commands.",
        '',
        `Authenticate with \`Authorization: Bearer <token>\` or \`?token=<token>\`; without one you are a spectator. After connecting, the first update brings the game as it is; with \`?after=N\` it also carries every event after version N, so a client that reconnects misses nothing. A catch-up of more than ${defaultLiveLimits.catchUpEvents} events (by default, LIVE_CATCH_UP_EVENTS) comes as several updates, each with at most that many events and the view at its own version, the last one at the current version.`,
        '',
        "Every update and ack carries `gameType`, which tells which game's view, events and commands it holds.",
        '',
        'One WebSocket per tournament and follower: `GET /tournaments/{id}/live` upgrades and pushes every event of the tournament\'s log (rounds paired, tables finished, standings changed, …) as `events`, in order and without gaps. It is public and takes no messages. It keeps the resume contract of a game\'s socket: with `?after=N` it first sends every event after seq N.',
        '',
        '**Close codes** (both sockets)',
        '',
        ...closeCodeMeanings.map(({ code, meaning }) => `- \`${code}\`: ${meaning}`),
      ].join('\n'),
    },
    defaultContentType: 'application/json',
    servers: {
      local: { host: 'localhost:3000', protocol: 'ws', description: '`npm start` on your own machine' },
    },
    channels: {
      live: {
        address: '/games/{id}/live',
        title: 'A game, live',
        parameters: { id: { description: 'The game id (a UUID)' } },
        messages: Object.fromEntries(Object.keys(messages).map((key) => [key, { $ref: `#/components/messages/${key}` }])),
        bindings: {
          ws: {
            method: 'GET',
            query: {
              type: 'object',
              properties: {
                after: { type: 'integer', minimum: 0, description: 'The last version the client has seen; missed events come first' },
                token: { type: 'string', description: 'Seat or referee token, for clients that cannot set headers' },
              },
            },
          },
        },
      },
      tournamentLive: {
        address: '/tournaments/{id}/live',
        title: 'A tournament, live',
        parameters: { id: { description: 'The tournament id (a UUID)' } },
        messages: { tournamentEvents: { $ref: '#/components/messages/tournamentEvents' }, error: { $ref: '#/components/messages/error' } },
        bindings: {
          ws: {
            method: 'GET',
            query: {
              type: 'object',
              properties: { after: { type: 'integer', minimum: 0, description: 'The last seq the client has seen; missed events come first' } },
            },
          },
        },
      },
    },
    operations: {
      receiveUpdates: {
        action: 'receive',
        channel: { $ref: channel },
        summary: 'Every move of the game, in order, as the connection may see it',
        messages: [{ $ref: `${channel}/messages/update` }],
      },
      sendCommand: {
        action: 'send',
        channel: { $ref: channel },
        summary: 'Send a command; the answer is an ack or an error with the same id',
        messages: [{ $ref: `${channel}/messages/command` }],
        reply: { channel: { $ref: channel }, messages: [{ $ref: `${channel}/messages/ack` }, { $ref: `${channel}/messages/error` }] },
      },
      receiveTournamentEvents: {
        action: 'receive',
        channel: { $ref: tournamentChannel },
        summary: "Every event of the tournament's log, in order; an error when the connection is refused",
        description: `The server sends; what the client sends is not read. Closed with ${closeCodes.sendBufferFull} when the client does not read (as the game socket: reconnect with ?after=N), 1001 at shutdown, 4000 + status when refused.`,
        messages: [{ $ref: `${tournamentChannel}/messages/tournamentEvents` }, { $ref: `${tournamentChannel}/messages/error` }],
      },
    },
    components: { messages: componentMessages, schemas: schemas as Record<string, unknown> },
  };
  const tidy = dropUnusedSchemas(dropSafeIntegerBounds(document), componentMessages);
  return `${JSON.stringify(tidy, null, 2)}\n`;
}
