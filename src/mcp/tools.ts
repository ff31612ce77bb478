// The MCP server of Spielwerk: one definition of the tools and resources, whichever way
// it reaches the service (see api.ts). Every tool is a thin translation of one or two API
// calls made with the session's token, so an agent sees exactly what the same token sees
// over REST, and a refusal is the API's own problem document.
import { createHash, randomUUID } from 'node:crypto';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { maxBotThinkMs } from '../events/records.ts';
import { problem } from '../routes/problem.ts';
import type { Api, ApiAnswer } from './api.ts';

/** One line per tool call, like a request log line: never a token or an argument value. */
export type ToolLog = (line: { tool: string; gameId?: string; ms: number; outcome: string; error?: string }) => void;

export interface SessionOptions {
  api: Api;
  /** The bearer token the session presented (seat token or organizer key), if any. */
  token?: string | undefined;
  log: ToolLog;
  /** How often a subscription or wait_for_turn looks for a new version. */
  pollMs?: number;
}

/** The longest a wait_for_turn call blocks. */
export const WAIT_LIMIT_SECONDS = 30;

const GameId = z.uuid().describe('The game id, as list_open_tables, create_game or join_seat gave it');
const Problem = z.object({ code: z.string(), status: z.number(), detail: z.string().optional() }).loose();
const loose = <T extends z.ZodRawShape>(shape: T) => z.object(shape).loose();

/** What to do after a refusal, by its code: a model recovers from advice, not from a status. */
function nextStep(code: string): string {
  if (code === 'command/stale-version') return 'The game moved on: call get_view for the new version and legal commands, then act again.';
  if (code === 'auth/token-required' || code === 'auth/forbidden') return 'This session holds no seat of that game: join_seat or create_game first (or connect with the seat token).';
  if (code === 'game/not-found') return 'No such game: list_open_tables shows games you can join.';
  if (code === 'game/not-running') return 'The game is not running: call get_view to see whether it waits for players or is over.';
  if (code === 'game/not-finished') return 'The game still runs: the replay and full log come once it is over.';
  if (code === 'mcp/unknown-tool') return 'Call tools/list for the tools there are.';
  if (code === 'request/invalid') return 'Fix the arguments as the issues say and call again.';
  if (code === 'mcp/service-unreachable') return 'The game service does not answer: try again later.';
  return 'Call get_view and choose one of legalCommands by its id.';
}

/** A tool error: the API's problem document and the next step, as JSON text. Not as
 * structuredContent: the SDK's client checks that against the tool's output schema even
 * in an error, and would throw away the problem. */
export function problemResult(body: unknown): CallToolResult {
  const p = Problem.safeParse(body);
  const doc = p.success ? p.data : problem(500, 'mcp/unexpected-answer', 'The service gave an answer without a problem document');
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ problem: doc, next: nextStep(doc.code) }) }] };
}

/** The problem code of a tool error (for clients and the log). */
export function problemCode(result: unknown): string | undefined {
  const first = ((result as { content?: unknown }).content as { type: string; text?: string }[] | undefined)?.[0];
  try {
    return (JSON.parse(first?.text ?? '') as { problem?: { code?: string } }).problem?.code;
  } catch {
    return undefined;
  }
}

const ok = (value: Record<string, unknown>): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value });

interface Details {
  version: number;
  status: string;
  gameType: string;
  you: { kind: string; seat?: number };
  pending: { seats: number[]; deadline?: number };
  view: unknown;
  legalCommands: unknown[];
  result: unknown;
  game: { seats: unknown[] };
}

/** The seat's view as a tool answers it: the legal commands numbered, so acting is choosing. */
function seatView(gameId: string, d: Details) {
  const seat = d.you.seat;
  return {
    gameId,
    gameType: d.gameType,
    version: d.version,
    status: d.status,
    you: d.you,
    yourTurn: d.status === 'running' && seat !== undefined && d.pending.seats.includes(seat),
    pending: d.pending,
    seats: d.game.seats,
    view: d.view,
    legalCommands: d.legalCommands.map((command, id) => ({ id, command })),
    result: d.result,
  };
}

const ViewOut = {
  gameId: z.string(),
  gameType: z.string(),
  version: z.int().describe('Pass it as expectedVersion to act'),
  status: z.string().describe('open (waiting for players), running or finished'),
  you: loose({ kind: z.string(), seat: z.int().optional() }),
  yourTurn: z.boolean().describe('Your seat may act now'),
  pending: loose({ seats: z.array(z.int()) }),
  seats: z.array(z.unknown()),
  view: z.unknown().describe('The game as your seat sees it'),
  legalCommands: z.array(z.object({ id: z.int(), command: z.unknown() })).describe('What you may send now; act with one id'),
  result: z.unknown(),
};

export function createMcpServer(options: SessionOptions): McpServer {
  const { api, log } = options;
  const pollMs = options.pollMs ?? 100;
  /** Seats this session took (create_game, join_seat): their tokens act for it in those games. */
  const seatTokens = new Map<string, string>();
  const tokenFor = (gameId?: string) => (gameId === undefined ? undefined : seatTokens.get(gameId)) ?? options.token;

  const server = new McpServer({ name: 'spielwerk', version: '0.1.0' }, { capabilities: { resources: { subscribe: true, listChanged: false } } });
  // The SDK answers an unknown tool and arguments that do not fit the schema with a bare
  // message; an agent gets the same problem document as for any other refusal instead.
  Object.assign(server, {
    createToolError: (message: string) =>
      problemResult(problem(400, /Tool .* not found|disabled/.test(message) ? 'mcp/unknown-tool' : 'request/invalid', message)),
  });

  const details = async (gameId: string): Promise<ApiAnswer> => api({ method: 'GET', path: `/games/${gameId}`, token: tokenFor(gameId) });

  /** Registers a tool whose every call is logged in one line. */
  function tool<S extends z.ZodRawShape>(
    name: string,
    config: { title: string; description: string; inputSchema: S; outputSchema?: z.ZodRawShape; annotations: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean } },
    run: (args: z.infer<z.ZodObject<S>>) => Promise<CallToolResult>,
  ): void {
    server.registerTool(name, config, (async (args: z.infer<z.ZodObject<S>>) => {
      const started = performance.now();
      // A failure inside the service is the operator's to read in the log, not the
      // agent's: the agent gets the code, never the message.
      let failure: string | undefined;
      const result = await run(args).catch((error: unknown) => {
        failure = error instanceof Error ? error.message : String(error);
        return problemResult(problem(500, 'mcp/internal', 'the tool failed inside the service'));
      });
      const code = result.isError ? (problemCode(result) ?? 'error') : 'ok';
      const gameId = (args as { gameId?: unknown }).gameId;
      log({ tool: name, ...(typeof gameId === 'string' ? { gameId } : {}), ms: Math.round(performance.now() - started), outcome: code, ...(failure === undefined ? {} : { error: failure }) });
      return result;
    }) as never);
  }

  const answerOr = (answer: ApiAnswer, shape: (body: never) => Record<string, unknown>): CallToolResult =>
    answer.status >= 400 ? problemResult(answer.body) : ok(shape(answer.body as never));

  tool(
    'list_games_catalog',
    {
      title: 'Game catalog',
      description: 'The four game types on offer: type, title, number of players, traits (hidden information, simultaneous play) and the JSON Schema of each game\'s options. Read the full rules and command shapes as the resource spielwerk://rules/{gameType}.',
      inputSchema: {},
      outputSchema: { games: z.array(loose({ type: z.string(), title: z.string() })) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async () =>
      answerOr(await api({ method: 'GET', path: '/catalog' }), (body: { games: Record<string, unknown>[] }) => ({
        games: body.games.map(({ type, title, rulesVersion, players, traits, options, docs }) => ({ type, title, rulesVersion, players, traits, options, docs })),
      })),
  );

  tool(
    'list_open_tables',
    {
      title: 'Open tables',
      description: 'Games waiting for players, newest first, with their open seats. Join one with join_seat.',
      inputSchema: { gameType: z.string().max(64).optional().describe('Only games of this type, e.g. pechvogel'), limit: z.int().min(1).max(100).default(20) },
      outputSchema: { games: z.array(z.unknown()) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ gameType, limit }) => {
      const query = new URLSearchParams({ status: 'open', limit: String(limit), ...(gameType === undefined ? {} : { type: gameType }) });
      return answerOr(await api({ method: 'GET', path: `/games?${query}` }), (body: { games: unknown[] }) => ({ games: body.games }));
    },
  );

  tool(
    'create_game',
    {
      title: 'Create a game',
      description:
        'Creates a game. seats lists every seat in order: {name} for a person (this session plays the first such seat unless you say otherwise), {open: true} for a seat someone else joins later, {bot: "greedy"} or {bot: "random"} for a server-side bot. The game starts once every seat is taken. The answer gives the tokens of the person seats: this session acts with the token of `playAs`; hand the others to the other players.',
      inputSchema: {
        gameType: z.string().max(64).describe('A type from list_games_catalog'),
        seats: z.array(z.object({ name: z.string().max(64).optional(), open: z.boolean().optional(), bot: z.string().max(32).optional() })).min(1).max(16),
        options: z.record(z.string(), z.unknown()).optional().describe('Game options (see list_games_catalog); defaults apply'),
        seed: z.string().min(1).max(128).optional(),
        playAs: z.int().min(0).max(15).optional().describe('The person seat this session plays; default: the first person seat'),
        botThinkMs: z.int().min(0).max(maxBotThinkMs).optional().describe("How long the server's bots think before each move, in ms; default: the server's (watchable); 0: at once"),
      },
      outputSchema: { gameId: z.string(), playing: z.int().nullable(), seats: z.array(z.object({ seat: z.int(), token: z.string().nullable() })), game: z.unknown() },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async ({ gameType, seats, options: gameOptions, seed, playAs, botThinkMs }) => {
      const answer = await api({ method: 'POST', path: '/games', token: options.token, body: { type: gameType, seats, ...(gameOptions === undefined ? {} : { options: gameOptions }), ...(seed === undefined ? {} : { seed }), ...(botThinkMs === undefined ? {} : { botThinkMs }) } });
      if (answer.status >= 400) return problemResult(answer.body);
      const created = answer.body as { game: { id: string }; seats: { seat: number; token: string | null }[] };
      const mine = created.seats.find((s) => s.token !== null && (playAs === undefined || s.seat === playAs));
      if (mine?.token) seatTokens.set(created.game.id, mine.token);
      return ok({ gameId: created.game.id, playing: mine?.seat ?? null, seats: created.seats, game: created.game });
    },
  );

  tool(
    'join_seat',
    {
      title: 'Join a seat',
      description: 'Takes an open seat of a game (a particular one, or the first open). This session then plays that seat in that game. The game starts when every seat is taken.',
      inputSchema: { gameId: GameId, seat: z.int().min(0).max(15).optional(), name: z.string().max(64).optional() },
      outputSchema: { gameId: z.string(), seat: z.int(), token: z.string(), game: z.unknown() },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async ({ gameId, seat, name }) => {
      const answer = await api({ method: 'POST', path: `/games/${gameId}/join`, body: { ...(seat === undefined ? {} : { seat }), ...(name === undefined ? {} : { name }) } });
      if (answer.status >= 400) return problemResult(answer.body);
      const joined = answer.body as { seat: number; token: string; game: unknown };
      seatTokens.set(gameId, joined.token);
      return ok({ gameId, ...joined });
    },
  );

  tool(
    'get_view',
    {
      title: 'See the game',
      description: 'The game as your seat sees it now: version, status, whether it is your turn, the view (your hand, the table; never what others hide) and your legal commands, each with an id. To act, call act with one id and this version.',
      inputSchema: { gameId: GameId },
      outputSchema: ViewOut,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ gameId }) => answerOr(await details(gameId), (body: Details) => seatView(gameId, body)),
  );

  tool(
    'act',
    {
      title: 'Act',
      description:
        'Sends one of your legal commands: commandId (an id from get_view\'s legalCommands at expectedVersion) or the full command object. With expectedVersion the service refuses (command/stale-version) if the game moved on; omit it only in Porca Miseria races. Retrying with the same idempotencyKey never acts twice. A refusal is the API\'s problem document with what to do next. The answer is your new view.',
      inputSchema: {
        gameId: GameId,
        commandId: z.int().min(0).optional().describe('The id of a legal command, from get_view at expectedVersion'),
        command: z.record(z.string(), z.unknown()).optional().describe('A full command, e.g. {"type":"roll"}'),
        expectedVersion: z.int().min(0).optional(),
        idempotencyKey: z.string().min(1).max(200).optional().describe('Default: derived from game, version and command, so a retry is safe'),
      },
      outputSchema: ViewOut,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ gameId, commandId, command, expectedVersion, idempotencyKey }) => {
      if ((commandId === undefined) === (command === undefined)) return problemResult(problem(400, 'request/invalid', 'Give either commandId or command, not both and not neither'));
      let chosen: unknown = command;
      if (commandId !== undefined) {
        const now = await details(gameId);
        if (now.status >= 400) return problemResult(now.body);
        const d = now.body as Details;
        if (expectedVersion !== undefined && d.version !== expectedVersion) return problemResult(problem(409, 'command/stale-version', `The game is at version ${d.version}, not ${expectedVersion}`));
        chosen = d.legalCommands[commandId];
        if (chosen === undefined) return problemResult(problem(422, 'command/invalid', `No legal command has id ${commandId} at version ${d.version} (there are ${d.legalCommands.length})`));
      }
      const key = idempotencyKey ?? (expectedVersion === undefined ? randomUUID() : createHash('sha256').update(JSON.stringify([tokenFor(gameId) ?? '', gameId, expectedVersion, chosen])).digest('base64url'));
      const sent = await api({ method: 'POST', path: `/games/${gameId}/commands`, token: tokenFor(gameId), idempotencyKey: key, body: { command: chosen, ...(expectedVersion === undefined ? {} : { expectedVersion }) } });
      if (sent.status >= 400) return problemResult(sent.body);
      return answerOr(await details(gameId), (body: Details) => seatView(gameId, body));
    },
  );

  tool(
    'wait_for_turn',
    {
      title: 'Wait for my turn',
      description: `Blocks until your seat may act or the game is over, at most timeoutSeconds (≤ ${WAIT_LIMIT_SECONDS}); then answers your view as get_view does. If yourTurn is false and the status is running, call it again.`,
      inputSchema: { gameId: GameId, timeoutSeconds: z.number().min(0).max(WAIT_LIMIT_SECONDS).default(WAIT_LIMIT_SECONDS) },
      outputSchema: ViewOut,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ gameId, timeoutSeconds }) => {
      const until = Date.now() + timeoutSeconds * 1000;
      for (;;) {
        const now = await details(gameId);
        if (now.status >= 400) return problemResult(now.body);
        const view = seatView(gameId, now.body as Details);
        if (view.yourTurn || view.status === 'finished' || Date.now() >= until) return ok(view);
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
    },
  );

  tool(
    'resign',
    {
      title: 'Resign',
      description: 'Gives up your seat in a running game: you lose, and the game goes on or ends as its rules say. Cannot be undone.',
      inputSchema: { gameId: GameId },
      outputSchema: ViewOut,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ gameId }) => {
      const sent = await api({ method: 'POST', path: `/games/${gameId}/commands`, token: tokenFor(gameId), idempotencyKey: `resign-${gameId}`, body: { command: { type: 'resign' } } });
      if (sent.status >= 400) return problemResult(sent.body);
      return answerOr(await details(gameId), (body: Details) => seatView(gameId, body));
    },
  );

  tool(
    'get_replay',
    {
      title: 'Replay of a finished game',
      description: 'Every step of a finished game with everything revealed (hands, seed). Refused with game/not-finished while the game runs.',
      inputSchema: { gameId: GameId },
      outputSchema: { replay: z.unknown() },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ gameId }) => answerOr(await api({ method: 'GET', path: `/games/${gameId}/replay` }), (body: unknown) => ({ replay: body })),
  );

  tool(
    'get_event_log',
    {
      title: 'Event log',
      description: 'The game\'s events after seq `after`, as your seat may see them (all of them once the game is over). Page on with `next`.',
      inputSchema: { gameId: GameId, after: z.int().min(0).default(0), limit: z.int().min(1).max(1000).default(200) },
      outputSchema: { events: z.array(z.unknown()), next: z.int().nullable() },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ gameId, after, limit }) =>
      answerOr(await api({ method: 'GET', path: `/games/${gameId}/events?after=${after}&limit=${limit}`, token: tokenFor(gameId) }), (body: { events: unknown[]; next: number | null }) => ({ events: body.events, next: body.next })),
  );

  const json = (uri: string, value: unknown) => ({ contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(value) }] });
  /** A resource read that failed: the problem document as the resource's text, never another seat's data. */
  const read = async (uri: string, answer: ApiAnswer, shape: (body: never) => unknown) => json(uri, answer.status >= 400 ? { problem: answer.body } : shape(answer.body as never));

  server.registerResource(
    'game-view',
    new ResourceTemplate('spielwerk://games/{gameId}/view', { list: undefined }),
    { title: 'A game through your seat\'s eyes', description: 'What get_view answers; subscribe to hear of every new version.', mimeType: 'application/json' },
    async (uri, { gameId }) => read(uri.href, await details(String(gameId)), (body: Details) => seatView(String(gameId), body)),
  );
  server.registerResource(
    'rules',
    new ResourceTemplate('spielwerk://rules/{gameType}', { list: undefined }),
    { title: 'A game\'s rules and command shapes', description: 'The catalog entry: players, options, the JSON Schemas of commands and events, edition data, where the rules are written down.', mimeType: 'application/json' },
    async (uri, { gameType }) => read(uri.href, await api({ method: 'GET', path: `/catalog/${encodeURIComponent(String(gameType))}` }), (body: unknown) => body),
  );

  // Subscriptions: a new version of a subscribed game is told with
  // notifications/resources/updated; the client reads the resource for what changed.
  const watches = new Map<string, NodeJS.Timeout>();
  const viewUri = /^spielwerk:\/\/games\/([0-9a-f-]{36})\/view$/;
  server.server.setRequestHandler(SubscribeRequestSchema, async ({ params: { uri } }) => {
    const gameId = viewUri.exec(uri)?.[1];
    if (gameId === undefined || watches.has(uri)) return {};
    let seen = -1;
    const look = async () => {
      const now = await details(gameId);
      const version = now.status < 400 ? (now.body as Details).version : seen;
      if (version !== seen) {
        if (seen !== -1) await server.server.sendResourceUpdated({ uri }).catch(() => undefined);
        seen = version;
      }
      if (now.status < 400 && (now.body as Details).status === 'finished') stop(uri);
    };
    await look();
    const timer = setInterval(() => void look().catch(() => undefined), pollMs);
    watches.set(uri, timer);
    return {};
  });
  const stop = (uri: string) => {
    clearInterval(watches.get(uri));
    watches.delete(uri);
  };
  server.server.setRequestHandler(UnsubscribeRequestSchema, async ({ params: { uri } }) => {
    stop(uri);
    return {};
  });
  const closing = server.server.onclose;
  server.server.onclose = () => {
    for (const uri of [...watches.keys()]) stop(uri);
    closing?.();
  };
  return server;
}
