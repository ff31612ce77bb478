// How the MCP tools reach the game service: the same HTTP API every client uses, either
// in-process (the /mcp route injects into its own app, so routes, validation, limits and
// problem documents are exactly the REST API's) or over the network (the stdio server
// talking to a Spielwerk instance at SPIELWERK_URL).
import type { FastifyInstance } from 'fastify';
import { problem } from '../routes/problem.ts';

export interface ApiRequest {
  method: 'GET' | 'POST';
  /** Path and query, e.g. `/games/ID?x=1`. */
  path: string;
  token?: string | undefined;
  body?: unknown;
  idempotencyKey?: string | undefined;
}

export interface ApiAnswer {
  status: number;
  body: unknown;
}

export type Api = (request: ApiRequest) => Promise<ApiAnswer>;

function headersOf(request: ApiRequest): Record<string, string> {
  return {
    ...(request.token === undefined ? {} : { authorization: `Bearer ${request.token}` }),
    ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
    ...(request.idempotencyKey === undefined ? {} : { 'idempotency-key': request.idempotencyKey }),
  };
}

const parse = (text: string): unknown => {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { text };
  }
};

/** The app's own routes, as the client at `remoteAddress` (so its rate limits count). */
export function injectedApi(app: FastifyInstance, remoteAddress: string): Api {
  return async (request) => {
    const response = await app.inject({
      method: request.method,
      url: request.path,
      headers: headersOf(request),
      remoteAddress,
      ...(request.body === undefined ? {} : { payload: JSON.stringify(request.body) }),
    });
    return { status: response.statusCode, body: parse(response.body) };
  };
}

/** A Spielwerk instance at `baseUrl`; an unreachable one answers 503 mcp/service-unreachable. */
export function httpApi(baseUrl: string): Api {
  return async (request) => {
    try {
      const response = await fetch(new URL(request.path, baseUrl), {
        method: request.method,
        headers: headersOf(request),
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      });
      return { status: response.status, body: parse(await response.text()) };
    } catch (error) {
      return { status: 503, body: problem(503, 'mcp/service-unreachable', `No Spielwerk answers at ${baseUrl}: ${(error as Error).message}`) };
    }
  };
}
