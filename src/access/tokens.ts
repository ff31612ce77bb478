// Seat and referee tokens: random, shown once, stored only as SHA-256.
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

// Every command presents its token: the one-shot hash is four times cheaper than a Hash object.
export const sha256 = (text: string): string => hash('sha256', text);

export const newToken = (): string => randomBytes(24).toString('base64url');

/** What is stored of a token, and what a presented one is compared by. */
export const hashToken = (token: string): string => sha256(token);

/** Compares a presented token's hash with a stored hash without leaking where they differ. */
export function hashMatches(presentedHash: string, storedHash: string | null): boolean {
  if (storedHash === null) return false;
  const a = Buffer.from(presentedHash, 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

export const newSeed = (): string => randomBytes(16).toString('hex');

