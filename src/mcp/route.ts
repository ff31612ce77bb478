// `/mcp`: the MCP server over Streamable HTTP on the service itself. A session is created
// by an initialize request and named by the Mcp-Session-Id header after it; its bearer
// token (seat token or organizer key) is its identity for its whole life, and without one
// it reads what a spectator reads. Tools call the app's own routes (api.ts), so rate
// limits, validation and problem documents are the REST API's, counted for the client's
// address. Sessions are bounded in number, per client, and closed when idle.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { problem } from '../routes/problem.ts';
import { bearer } from '../routes/games.ts';
import { injectedApi } from './api.ts';
import { createMcpServer } from './tools.ts';

export interface McpLimits {
  /** Sessions open at once (MCP_SESSIONS). */
  sessions: number;
  /** Sessions one client address holds at once (MCP_SESSIONS_PER_CLIENT). */
  sessionsPerClient: number;
  /** A session nobody used for this long is closed (MCP_SESSION_IDLE_SECONDS). */
  idleMs: number;
  /** How often wait_for_turn and subscriptions look for a new version. */
  pollMs: number;
}

export const defaultMcpLimits: McpLimits = { sessions: 1000, sessionsPerClient: 20, idleMs: 300_000, pollMs: 100 };

interface Session {
  transport: StreamableHTTPServerTransport;
  client: string;
  token: string | undefined;
  idle: NodeJS.Timeout;
}

const refuse = (reply: FastifyReply, status: number, code: string, detail: string) =>
  reply.code(status).type('application/problem+json').send(problem(status, code, detail));

export async function mcpRoutes(app: FastifyInstance, limits: McpLimits): Promise<void> {
  const sessions = new Map<string, Session>();
  const held = (client: string) => [...sessions.values()].filter((s) => s.client === client).length;
  const touch = (id: string, session: Session) => {
    clearTimeout(session.idle);
    session.idle = setTimeout(() => void session.transport.close(), limits.idleMs);
    session.idle.unref();
  };

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearer(request);
    const id = request.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const session = sessions.get(id);
      if (session === undefined) return refuse(reply, 404, 'mcp/session-not-found', 'No such MCP session (it was closed, or it expired): initialize a new one');
      // The token is the session's identity: another token cannot borrow the session.
      if (session.token !== token) return refuse(reply, 403, 'auth/forbidden', 'This MCP session was opened with another token');
      touch(id, session);
      reply.hijack();
      await session.transport.handleRequest(request.raw, reply.raw, request.body);
      return reply;
    }
    if (request.method !== 'POST' || !isInitializeRequest(request.body)) return refuse(reply, 400, 'mcp/session-not-found', 'Send Mcp-Session-Id, or initialize a session first');
    if (sessions.size >= limits.sessions) return refuse(reply, 429, 'mcp/too-many-sessions', 'The service holds as many MCP sessions as it takes: try again later');
    if (held(request.ip) >= limits.sessionsPerClient) return refuse(reply, 429, 'mcp/too-many-sessions', `At most ${limits.sessionsPerClient} MCP sessions per client: close one first`);
    const client = request.ip;
    const server = createMcpServer({
      api: injectedApi(app, client),
      token,
      pollMs: limits.pollMs,
      log: (line) => app.log[line.error === undefined ? 'info' : 'error']({ mcp: line }, 'mcp tool call'),
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        const session: Session = { transport, client, token, idle: setTimeout(() => undefined, 0) };
        sessions.set(sessionId, session);
        touch(sessionId, session);
      },
    });
    transport.onclose = () => {
      const sessionId = transport.sessionId;
      if (sessionId === undefined) return;
      clearTimeout(sessions.get(sessionId)?.idle);
      sessions.delete(sessionId);
      void server.close();
    };
    await server.connect(transport);
    reply.hijack();
    await transport.handleRequest(request.raw, reply.raw, request.body);
    return reply;
  };

  for (const method of ['GET', 'POST', 'DELETE'] as const) app.route({ method, url: '/mcp', schema: { hide: true }, handler: handle });
  app.addHook('onClose', async () => {
    await Promise.all([...sessions.values()].map((s) => s.transport.close()));
  });
}
