// Checks a value against a JSON Schema of the live socket's messages (messages.ts, from
// the server's AsyncAPI document, which the server's own zod schemas generate): the
// keywords those schemas use, no more. A message that does not fit is not handed on as
// if it were typed.

/** A JSON Schema as the documents write them (booleans, objects). */
export type JsonSchema = boolean | { readonly [keyword: string]: unknown };

type Schema = { readonly [keyword: string]: unknown };

const typeOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;

const fitsType = (value: unknown, type: string): boolean => {
  switch (type) {
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'integer':
      return Number.isInteger(value);
    default:
      return typeof value === type;
  }
};

const equal = (a: unknown, b: unknown): boolean => a === b || (typeof a === 'object' && a !== null && JSON.stringify(a) === JSON.stringify(b));

type Definitions = { readonly [name: string]: JsonSchema };

/** Where `value` first departs from `schema` (`$.view.hands.0: string, not integer`),
 * or null when it fits. `definitions` resolves `#/$defs/<name>` references. A message
 * is checked without building a word of explanation (most of the cost once was the
 * paths and complaints of union alternatives that did not fit); only a message that
 * does not fit is walked again, to say where. */
export function mismatch(schema: JsonSchema, value: unknown, definitions: Definitions): string | null {
  return check(schema, value, definitions, null) === null ? null : check(schema, value, definitions, '$');
}

/** null when `value` fits; else, with a path `at`, what departs where, and without
 * one, a word that says only that. */
function check(schema: JsonSchema, value: unknown, definitions: Definitions, at: string | null): string | null {
  if (schema === true) return null;
  const fail = (why: () => string): string => (at === null ? 'no' : `${at}: ${why()}`);
  if (schema === false) return fail(() => 'nothing may be here');
  const s = schema as Schema;
  const inner = (key: string | number) => (at === null ? null : `${at}.${key}`);
  if (typeof s.$ref === 'string') {
    const target = definitions[s.$ref.slice(s.$ref.lastIndexOf('/') + 1)];
    if (target === undefined) return fail(() => `unknown schema ${String(s.$ref)}`);
    const found = check(target, value, definitions, at);
    if (found !== null) return found;
  }
  if (s.type !== undefined) {
    const fits = typeof s.type === 'string' ? fitsType(value, s.type) : (s.type as string[]).some((type) => fitsType(value, type));
    if (!fits) return fail(() => `${typeOf(value)}, not ${[s.type].flat().join(' or ')}`);
  }
  if ('const' in s && !equal(value, s.const)) return fail(() => `not ${JSON.stringify(s.const)}`);
  if (Array.isArray(s.enum) && !s.enum.some((option) => equal(value, option))) return fail(() => `not one of ${JSON.stringify(s.enum)}`);
  if (typeof value === 'number') {
    if (typeof s.minimum === 'number' && value < s.minimum) return fail(() => `below ${String(s.minimum)}`);
    if (typeof s.maximum === 'number' && value > s.maximum) return fail(() => `above ${String(s.maximum)}`);
  }
  // Characters (code points), as JSON Schema counts them; UTF-16 units are never fewer.
  if (typeof value === 'string' && typeof s.maxLength === 'number' && value.length > s.maxLength && [...value].length > s.maxLength) return fail(() => `longer than ${String(s.maxLength)}`);
  if (Array.isArray(value)) {
    if (typeof s.minItems === 'number' && value.length < s.minItems) return fail(() => `fewer than ${String(s.minItems)} items`);
    if (typeof s.maxItems === 'number' && value.length > s.maxItems) return fail(() => `more than ${String(s.maxItems)} items`);
    if (s.items !== undefined) {
      for (let i = 0; i < value.length; i++) {
        const found = check(s.items as JsonSchema, value[i], definitions, inner(i));
        if (found !== null) return found;
      }
    }
  } else if (typeof value === 'object' && value !== null) {
    const object = value as Record<string, unknown>;
    if (Array.isArray(s.required)) for (const key of s.required as string[]) if (!(key in object)) return at === null ? 'no' : `${at}.${key}: missing`;
    const properties = s.properties as Record<string, JsonSchema> | undefined;
    for (const key in object) {
      const known = properties?.[key];
      const rule = known !== undefined ? known : (s.additionalProperties as JsonSchema | undefined);
      if (rule === undefined) continue;
      const found = check(rule, object[key], definitions, inner(key));
      if (found !== null) return found;
    }
  }
  if (Array.isArray(s.allOf)) {
    for (const part of s.allOf as JsonSchema[]) {
      const found = check(part, value, definitions, at);
      if (found !== null) return found;
    }
  }
  // oneOf is checked as anyOf: the documents' unions are discriminated (a `type` or a
  // `gameType` each alternative fixes), so no value fits two of them.
  const alternatives = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(alternatives)) {
    const candidates = candidatesFor(s, alternatives, value, definitions);
    if (candidates.some((alternative) => check(alternative, value, definitions, null) === null)) return null;
    return at === null ? 'no' : closest(alternatives.map((alternative) => check(alternative, value, definitions, at)!));
  }
  return null;
}

/** A union's alternatives by the value of the property each fixes (`type` of events,
 * `gameType` of answers), nested unions and references flattened: a message's union
 * is then one lookup instead of a try of each of dozens of alternatives. */
interface Dispatch {
  readonly key: string;
  readonly byValue: Map<unknown, JsonSchema[]>;
}
const dispatches = new WeakMap<object, Dispatch | null>();

function resolved(schema: JsonSchema, definitions: Definitions): JsonSchema {
  let at = schema;
  while (typeof at === 'object' && typeof at.$ref === 'string' && Object.keys(at).length === 1) at = definitions[at.$ref.slice(at.$ref.lastIndexOf('/') + 1)] ?? at;
  return at;
}

function dispatchOf(union: Schema, alternatives: JsonSchema[], definitions: Definitions): Dispatch | null {
  const known = dispatches.get(union);
  if (known !== undefined) return known;
  const leaves: Schema[] = [];
  const flatten = (schema: JsonSchema): boolean => {
    const at = resolved(schema, definitions);
    if (typeof at !== 'object') return false;
    const inner = (at.anyOf ?? at.oneOf) as JsonSchema[] | undefined;
    if (Array.isArray(inner) && at.properties === undefined) return inner.every(flatten);
    leaves.push(at);
    return true;
  };
  let dispatch: Dispatch | null = null;
  if (alternatives.every(flatten) && leaves.length > 1) {
    const constOf = (leaf: Schema, key: string) => (leaf.properties as Record<string, Schema> | undefined)?.[key]?.const;
    const key = Object.keys((leaves[0]!.properties as object | undefined) ?? {}).find((name) => leaves.every((leaf) => constOf(leaf, name) !== undefined));
    if (key !== undefined) {
      const byValue = new Map<unknown, JsonSchema[]>();
      for (const leaf of leaves) byValue.set(constOf(leaf, key), [...(byValue.get(constOf(leaf, key)) ?? []), leaf]);
      dispatch = { key, byValue };
    }
  }
  dispatches.set(union, dispatch);
  return dispatch;
}

function candidatesFor(union: Schema, alternatives: JsonSchema[], value: unknown, definitions: Definitions): JsonSchema[] {
  const dispatch = dispatchOf(union, alternatives, definitions);
  if (dispatch === null || typeof value !== 'object' || value === null) return alternatives;
  return dispatch.byValue.get((value as Record<string, unknown>)[dispatch.key]) ?? [];
}

/** Of the alternatives' complaints, the one from deepest inside: the alternative that
 * fitted longest is most likely the one the value was meant to be. */
const closest = (complaints: string[]): string => complaints.reduce((best, complaint) => (complaint.split(':')[0]!.length > best.split(':')[0]!.length ? complaint : best));
