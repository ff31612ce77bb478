// PostgreSQL's text and jsonb cannot hold U+0000: a NUL in any string a client sends
// (a seat name, a seed, a filter, an Idempotency-Key, a command's field) would fail the
// statement. It is refused at the boundary as the client's mistake.
import { ServiceError, serviceCodes } from '../errors.ts';

/** Where in `value` a string (or an object key) holds U+0000, or null. */
export function nulAt(value: unknown, path: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, inner] of Object.entries(value)) {
    const at = key.includes('\u0000') ? path : nulAt(inner, `${path}.${key}`);
    if (at !== null) return at;
  }
  return null;
}

export function refuseNul(value: unknown, path: string): void {
  const at = nulAt(value, path);
  if (at !== null) throw new ServiceError(serviceCodes.validation, `${at}: a NUL character (U+0000) cannot be stored`);
}
