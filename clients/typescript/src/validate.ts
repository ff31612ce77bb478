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
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
};

const equal = (a: unknown, b: unknown): boolean => a === b || JSON.stringify(a) === JSON.stringify(b);

/** Where `value` first departs from `schema` (`view.hands.0: not an integer`), or null
 * when it fits. `definitions` resolves `#/$defs/<name>` references. */
export function mismatch(schema: JsonSchema, value: unknown, definitions: { readonly [name: string]: JsonSchema }, at = '$'): string | null {
  if (schema === true) return null;
  if (schema === false) return `${at}: nothing may be here`;
  const s = schema as Schema;
  if (typeof s.$ref === 'string') {
    const target = definitions[s.$ref.slice(s.$ref.lastIndexOf('/') + 1)];
    if (target === undefined) return `${at}: unknown schema ${s.$ref}`;
    const found = mismatch(target, value, definitions, at);
    if (found !== null) return found;
  }
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    if (!types.some((type) => fitsType(value, type))) return `${at}: ${typeOf(value)}, not ${types.join(' or ')}`;
  }
  if ('const' in s && !equal(value, s.const)) return `${at}: not ${JSON.stringify(s.const)}`;
  if (Array.isArray(s.enum) && !s.enum.some((option) => equal(value, option))) return `${at}: not one of ${JSON.stringify(s.enum)}`;
  if (typeof value === 'number') {
    if (typeof s.minimum === 'number' && value < s.minimum) return `${at}: below ${s.minimum}`;
    if (typeof s.maximum === 'number' && value > s.maximum) return `${at}: above ${s.maximum}`;
  }
  if (typeof value === 'string' && typeof s.maxLength === 'number' && [...value].length > s.maxLength) return `${at}: longer than ${s.maxLength}`;
  if (Array.isArray(value)) {
    if (typeof s.minItems === 'number' && value.length < s.minItems) return `${at}: fewer than ${s.minItems} items`;
    if (typeof s.maxItems === 'number' && value.length > s.maxItems) return `${at}: more than ${s.maxItems} items`;
    if (s.items !== undefined) {
      for (let i = 0; i < value.length; i++) {
        const found = mismatch(s.items as JsonSchema, value[i], definitions, `${at}.${i}`);
        if (found !== null) return found;
      }
    }
  }
  if (typeOf(value) === 'object') {
    const object = value as Record<string, unknown>;
    for (const key of (s.required as string[] | undefined) ?? []) if (!(key in object)) return `${at}.${key}: missing`;
    const properties = (s.properties as Record<string, JsonSchema> | undefined) ?? {};
    for (const [key, member] of Object.entries(object)) {
      const known = properties[key];
      const found = known !== undefined ? mismatch(known, member, definitions, `${at}.${key}`) : s.additionalProperties === undefined ? null : mismatch(s.additionalProperties as JsonSchema, member, definitions, `${at}.${key}`);
      if (found !== null) return found;
    }
  }
  for (const part of (s.allOf as JsonSchema[] | undefined) ?? []) {
    const found = mismatch(part, value, definitions, at);
    if (found !== null) return found;
  }
  if (Array.isArray(s.anyOf)) {
    const complaints: string[] = [];
    for (const alternative of s.anyOf as JsonSchema[]) {
      const found = mismatch(alternative, value, definitions, at);
      if (found === null) break;
      complaints.push(found);
    }
    if (complaints.length === s.anyOf.length) return closest(complaints);
  }
  if (Array.isArray(s.oneOf)) {
    const complaints = (s.oneOf as JsonSchema[]).map((alternative) => mismatch(alternative, value, definitions, at));
    const fitting = complaints.filter((complaint) => complaint === null).length;
    if (fitting === 0) return closest(complaints as string[]);
    if (fitting > 1) return `${at}: fits ${fitting} of its alternatives, not one`;
  }
  return null;
}

/** Of the alternatives' complaints, the one from deepest inside: the alternative that
 * fitted longest is most likely the one the value was meant to be. */
const closest = (complaints: string[]): string => complaints.reduce((best, complaint) => (complaint.split(':')[0]!.length > best.split(':')[0]!.length ? complaint : best));
