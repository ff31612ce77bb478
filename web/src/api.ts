// The public API as the page uses it: the client kit's typed REST client
// (@spielwerk/client, clients/typescript) on the same routes any client calls, and
// problem documents turned into errors that say what went wrong in words.
import { bearer, createRestClient, type RestResponse, type Schemas } from '@spielwerk/client';
import type { z } from 'zod';
import type { Problem as ProblemSchema } from '../../src/routes/problem.ts';

// The pages handle every game through one shape and leave views to each game's module,
// so the per-game parts are loosened here.
export type GameSummary = Omit<Schemas['GameSummary'], 'type' | 'options'> & { readonly type: string; readonly options: Readonly<Record<string, unknown>> };
export type Game = Omit<Schemas['GameDetails'], 'gameType' | 'game' | 'view' | 'legalCommands'> & { readonly gameType: string; readonly game: GameSummary; readonly view: unknown; readonly legalCommands: readonly Command[] };
export type Snapshot = Omit<Schemas['GameSnapshot'], 'gameType' | 'view' | 'legalCommands'> & { readonly gameType: string; readonly view: unknown };
export type Created = Omit<Schemas['CreatedGame'], 'game'> & { readonly game: GameSummary };
export type CreateRequest = Omit<Schemas['CreateGameRequestInput'], 'type' | 'options'> & { readonly type: string; readonly options?: Readonly<Record<string, unknown>> };
export type Answer = Omit<Schemas['CommandAnswer'], 'gameType' | 'view' | 'legalCommands' | 'events'> & { readonly gameType: string; readonly view: unknown; readonly legalCommands: readonly Command[]; readonly events: readonly Logged[] };
export type Problem = z.infer<typeof ProblemSchema>;
export type AnyEvent = { readonly type: string; readonly [field: string]: unknown };
/** An event with its place in the log (the API types it per game, here it is any). */
export type Logged = { readonly seq: number; readonly event: AnyEvent };
export type Command = { readonly type: string; readonly [field: string]: unknown };

export interface CatalogEntry {
  readonly type: string;
  readonly title: string;
  readonly players: { readonly min: number; readonly max: number };
  readonly traits: { readonly hiddenInformation: boolean; readonly simultaneous: boolean; readonly realTime: boolean };
  /** JSON Schema (input side) of the options. */
  readonly options: JsonSchema;
  readonly edition: unknown;
}

export interface JsonSchema {
  readonly type?: string;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly default?: unknown;
  readonly description?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly $ref?: string;
  readonly $defs?: Readonly<Record<string, JsonSchema>>;
}

/** The options' properties; the catalog names each game's schema, so the document
 * is a `$ref` into its own `$defs`. */
export function optionProperties(schema: JsonSchema): Readonly<Record<string, JsonSchema>> {
  const named = schema.$ref?.startsWith('#/$defs/') ? schema.$defs?.[schema.$ref.slice('#/$defs/'.length)] : schema;
  return named?.properties ?? {};
}

/** A refusal from the API: its problem document, shown to people as `detail`. */
export class ApiError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail || problem.title);
  }
}

// The client kit's typed REST client (typed by the OpenAPI document), on this page's own origin.
export const rest = createRestClient({ baseUrl: location.origin });

// How far the server's clock is ahead of this browser's, from each answer's Date
// header. The header counts whole seconds, so an offset under 1.5 s is taken for
// rounding and the browser's clock is trusted; beyond that the server's clock wins
// (deadlines are the server's).
let offset = 0;
const noteServerClock = (response: RestResponse): void => {
  const date = Date.parse(response.headers.get('date') ?? '');
  if (Number.isNaN(date)) return;
  const ahead = date + 500 - Date.now();
  offset = Math.abs(ahead) > 1500 ? ahead : 0;
};

/** Now on the server's clock (epoch ms), to count down its deadlines. */
export const serverNow = (): number => Date.now() + offset;

/** The answer's body, or its problem document as an ApiError. */
export async function answer<T>(call: Promise<{ data?: unknown; error?: unknown; response: RestResponse }>): Promise<T> {
  const { data, error, response } = await call;
  noteServerClock(response);
  if (!response.ok || error !== undefined) {
    const problem = (typeof error === 'object' && error !== null ? error : {}) as Partial<Problem>;
    throw new ApiError({ type: 'about:blank', title: `HTTP ${response.status}`, status: response.status, code: 'http/error', detail: `HTTP ${response.status}`, ...problem });
  }
  return data as T;
}

const game = (id: string) => ({ path: { id } });
const auth = (token: string | undefined) => (token === undefined ? {} : bearer(token));

export const api = {
  catalog: () => answer<{ games: CatalogEntry[] }>(rest.GET('/catalog')).then((r) => r.games),
  list: (filter: { type?: string; status?: string; cursor?: string }) => {
    const query = Object.fromEntries(Object.entries({ limit: 50, ...filter }).filter(([, value]) => value !== '' && value !== undefined));
    return answer<{ games: GameSummary[]; next: string | null }>(rest.GET('/games', { params: { query } }));
  },
  game: (id: string, token?: string) => answer<Game>(rest.GET('/games/{id}', { params: game(id), headers: auth(token) })),
  /** A finished game at `version`, everything revealed (what a replay shows). */
  viewAt: (id: string, version: number) => answer<Snapshot>(rest.GET('/games/{id}/view', { params: { ...game(id), query: { version, viewer: 'all' } } })),
  /** A finished game's events after `after`, everything revealed, a page at a time. */
  events: (id: string, after: number, limit: number) => answer<{ events: Logged[]; next: number | null }>(rest.GET('/games/{id}/events', { params: { ...game(id), query: { after, limit, viewer: 'all' } } })),
  // The pages build requests for any game type from the catalog's schemas; the
  // server validates them against the game's own schema.
  create: (request: CreateRequest) => answer<Created>(rest.POST('/games', { body: request as Schemas['CreateGameRequestInput'] })),
  join: (id: string, name: string) => answer<{ seat: number; token: string; game: GameSummary }>(rest.POST('/games/{id}/join', { params: game(id), body: { name } })),
  command: (id: string, token: string, command: Command, expectedVersion?: number) =>
    answer<Answer>(rest.POST('/games/{id}/commands', { params: game(id), headers: bearer(token), body: (expectedVersion === undefined ? { command } : { command, expectedVersion }) as Schemas['CommandRequestInput'] })),
  /** The finished game's rematch (made by this call or found), and the caller's new seat in it. */
  rematch: (id: string, token: string) =>
    answer<{ game: GameSummary; seat: number; token: string; refereeToken: string | null }>(rest.POST('/games/{id}/rematch', { params: game(id), headers: bearer(token) })),
};

export const seatName = (game: GameSummary, seat: number): string => game.seats[seat]?.name ?? `Seat ${seat + 1}`;
