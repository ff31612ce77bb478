// Organizers' API keys: `sw_<id>_<secret>`. The id is public (it names the key in
// lists and logs); the secret is random, shown once at creation and stored only as its
// SHA-256. A 32-byte random secret needs no slow hash: nobody can guess it, and the
// stored hash gives no way back to it.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { hashMatches, sha256 } from '../access/tokens.ts';

export const scopes = ['games:create', 'tournaments:run', 'results:read', 'keys:manage'] as const;
export type Scope = (typeof scopes)[number];
export const Scope = z.enum(scopes);

/** The scope an environment-provided admin key has beside every organizer scope. */
export const adminScope = 'organizers:admin';

const KEY_PATTERN = /^sw_([A-Za-z0-9]{12})_([A-Za-z0-9_-]{43})$/;

/** Whether a bearer token is shaped like an API key (rather than a seat token). */
export const looksLikeKey = (token: string): boolean => token.startsWith('sw_');

export interface NewKey {
  readonly id: string;
  /** The whole key, to be shown once. */
  readonly key: string;
  readonly secretHash: string;
}

const alphanumeric = (bytes: number, length: number): string => randomBytes(bytes).toString('base64url').replace(/[-_]/g, '').slice(0, length);

export function newKey(): NewKey {
  let id = alphanumeric(16, 12);
  while (id.length < 12) id += alphanumeric(8, 12 - id.length);
  const secret = randomBytes(32).toString('base64url');
  return { id, key: `sw_${id}_${secret}`, secretHash: sha256(secret) };
}

/** The id and the hash of the secret of a presented key, or null when it is not shaped like one. */
export function parseKey(key: string): { id: string; secretHash: string } | null {
  const match = KEY_PATTERN.exec(key);
  return match === null ? null : { id: match[1]!, secretHash: sha256(match[2]!) };
}

/** Constant-time comparison of a presented secret's hash with the stored one. */
export const secretMatches = (presentedHash: string, storedHash: string): boolean => hashMatches(presentedHash, storedHash);
