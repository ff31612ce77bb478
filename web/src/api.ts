// The public API as the page uses it: typed fetches of the same routes any client
// calls, and problem documents turned into errors that say what went wrong in words.
// Types come from the TypeScript client's types, generated from the server's OpenAPI
// document (type-only imports, nothing bundled).
import type { z } from 'zod';
import type { components } from '../../clients/typescript/src/api.ts';
import type { Problem as ProblemSchema } from '../../src/routes/problem.ts';

type Schemas = components['schemas'];
// The pages handle every game through one shape and leave views to each game's module,
// so the per-game parts are loosened here.
export type GameSummary = Omit<Schemas['GameSummary'], 'type' | 'options'> & { readonly type: string; readonly options: Readonly<Record<string, unknown>> };
export type Game = Omit<Schemas['GameDetails'], 'gameType' | 'game' | 'view' | 'legalCommands'> & { readonly gameType: string; readonly game: GameSummary; readonly view: unknown; readonly legalCommands: readonly Command[] };
export type Replay = Omit<Schemas['Replay'], 'gameType' | 'game' | 'initialView' | 'steps'> & {
  readonly gameType: string;
  readonly game: GameSummary;
  readonly initialView: unknown;
  readonly steps: readonly (Logged & { readonly actor: string; readonly at: string; readonly view: unknown })[];
};
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

async function call<T>(method: string, url: string, token?: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, { method, headers, body: body === undefined ? null : JSON.stringify(body) });
  const json: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const problem = (json ?? {}) as Partial<Problem>;
    throw new ApiError({ type: 'about:blank', title: response.statusText, status: response.status, code: 'http/error', detail: `${response.status} ${response.statusText}`, ...problem });
  }
  return json as T;
}

export const api = {
  catalog: () => call<{ games: CatalogEntry[] }>('GET', '/catalog').then((r) => r.games),
  list: (filter: { type?: string; status?: string; cursor?: string }) => {
    const query = new URLSearchParams({ limit: '50' });
    for (const [key, value] of Object.entries(filter)) if (value) query.set(key, value);
    return call<{ games: GameSummary[]; next: string | null }>('GET', `/games?${query}`);
  },
  game: (id: string, token?: string) => call<Game>('GET', `/games/${id}`, token),
  replay: (id: string) => call<Replay>('GET', `/games/${id}/replay`),
  create: (request: CreateRequest) => call<Created>('POST', '/games', undefined, request),
  join: (id: string, name: string) => call<{ seat: number; token: string; game: GameSummary }>('POST', `/games/${id}/join`, undefined, { name }),
  command: (id: string, token: string, command: Command, expectedVersion?: number) =>
    call<Answer>('POST', `/games/${id}/commands`, token, expectedVersion === undefined ? { command } : { command, expectedVersion }),
};

export const seatName = (game: GameSummary, seat: number): string => game.seats[seat]?.name ?? `Seat ${seat + 1}`;
