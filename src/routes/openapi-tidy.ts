// The last step of the OpenAPI document: what the zod-to-OpenAPI transform leaves that
// linters and client generators stumble over. Every registered schema comes out twice
// (as output and as `…Input`), also where both are the same; every component is
// listed whether used or not; `z.int()` says ±2^53 as its bounds; failures are
// declared as `application/json` though they leave as `application/problem+json`;
// every response is described as "Default Response".
type Json = unknown;
type JsonObject = Record<string, Json>;
type Document = JsonObject & { components: JsonObject & { schemas: Record<string, Json> }; paths: Record<string, Record<string, JsonObject>> };

const REF = '#/components/schemas/';
const isObject = (x: Json): x is JsonObject => typeof x === 'object' && x !== null && !Array.isArray(x);

/** A copy of `value` with every node passed through `visit` (children first). */
function rewrite(value: Json, visit: (node: JsonObject) => JsonObject): Json {
  if (Array.isArray(value)) return value.map((v) => rewrite(v, visit));
  if (!isObject(value)) return value;
  return visit(Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewrite(v, visit)])));
}

const renameRefs = (value: Json, renames: ReadonlyMap<string, string>): Json =>
  rewrite(value, (node) => {
    const ref = node.$ref;
    if (typeof ref !== 'string' || !ref.startsWith(REF)) return node;
    const target = renames.get(ref.slice(REF.length));
    return target === undefined ? node : { ...node, $ref: `${REF}${target}` };
  });

/** `XInput` is dropped for `X` wherever the two are the same once their own
 * references are merged too; repeated until nothing more merges. */
function mergeInputTwins(document: Document): Document {
  const schemas = document.components.schemas;
  const renames = new Map<string, string>();
  for (let merged = true; merged; ) {
    merged = false;
    for (const name of Object.keys(schemas)) {
      const base = name.slice(0, -'Input'.length);
      if (!name.endsWith('Input') || renames.has(name) || !(base in schemas)) continue;
      const trial = new Map([...renames, [name, base]]);
      if (JSON.stringify(renameRefs(schemas[name], trial)) === JSON.stringify(renameRefs(schemas[base], trial))) {
        renames.set(name, base);
        merged = true;
      }
    }
  }
  const kept = Object.fromEntries(Object.entries(schemas).filter(([name]) => !renames.has(name)));
  return renameRefs({ ...document, components: { ...document.components, schemas: kept } }, renames) as Document;
}

/** Schemas reachable from `roots` (through other schemas), by name; the rest go. */
export function dropUnusedSchemas<D extends { components: { schemas: Record<string, Json> } }>(document: D, roots: Json): D {
  const schemas = document.components.schemas;
  const used = new Set<string>();
  const visit = (value: Json) =>
    rewrite(value, (node) => {
      const ref = node.$ref;
      if (typeof ref === 'string' && ref.startsWith(REF)) {
        const name = ref.slice(REF.length);
        if (!used.has(name)) {
          used.add(name);
          visit(schemas[name]);
        }
      }
      return node;
    });
  visit(roots);
  // Sorted: the order schemas were registered in depends on which module was imported first.
  const kept = Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { ...document, components: { ...document.components, schemas: kept } };
}

/** zod writes the safe-integer range as the bounds of every integer: say nothing instead. */
export const dropSafeIntegerBounds = <D>(document: D): D =>
  rewrite(document, (node) => {
    const { minimum, maximum, ...rest } = node;
    return {
      ...rest,
      ...(minimum === undefined || minimum === Number.MIN_SAFE_INTEGER ? {} : { minimum }),
      ...(maximum === undefined || maximum === Number.MAX_SAFE_INTEGER ? {} : { maximum }),
    };
  }) as D;

/** What each failure status means in this API (the codes are in Problem.code). */
const failures: Record<string, string> = {
  '400': 'The request or command does not fit its schema, or asks to upgrade a route that is no WebSocket (request/invalid, command/invalid, request/not-websocket, …)',
  '401': 'Acting needs a seat or referee token (auth/token-required)',
  '403': 'The token belongs to no seat of this game, or may not do this (auth/forbidden)',
  '404': 'No such game (game/not-found), game type (game/unknown-type) or route',
  '409': 'The game moved on or is not in a state for this (command/stale-version, game/not-running, …)',
  '422': 'The rules or the catalog say no (a rule code such as pechvogel/not-your-turn, game/invalid-setup, …)',
  '429': 'Too many requests from this client (request/rate-limited); retry after Retry-After',
  '503': 'The database cannot be reached or the server is shutting down (server/database-unavailable, server/shutting-down); retry after Retry-After',
};

/** A 304 has no body, whatever the schema that declared it said. */
const notModified = 'Not modified: the finished game\'s answer named by If-None-Match is still the answer (no body)';

/** Failures as problem documents; every response described by what it means. */
function describeResponses(document: Document): Document {
  const paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, operations]) => [
      path,
      Object.fromEntries(
        Object.entries(operations).map(([method, operation]) => {
          const responses = Object.fromEntries(
            Object.entries((operation.responses ?? {}) as Record<string, JsonObject>).map(([status, response]) => {
              if (status === '304') return [status, { description: notModified }];
              const failure = failures[status];
              if (failure === undefined) return [status, { ...response, description: String(operation.summary ?? 'Success') }];
              const content = response.content as Record<string, Json> | undefined;
              return [status, { ...response, description: failure, content: { 'application/problem+json': content?.['application/json'] } }];
            }),
          );
          return [method, { ...operation, responses }];
        }),
      ),
    ]),
  );
  return { ...document, paths };
}

export function tidyOpenApi(document: Document): Document {
  // The roots are the merged document's paths: they name the twins that were kept.
  const merged = mergeInputTwins(dropSafeIntegerBounds(document));
  return describeResponses(dropUnusedSchemas(merged, merged.paths));
}
