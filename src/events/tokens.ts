// Seat and referee tokens: random, shown once, stored only as SHA-256.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const newToken = (): string => randomBytes(24).toString('base64url');

export const hashToken = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

/** Compares a presented token's hash with a stored hash without leaking where they differ. */
export function hashMatches(presentedHash: string, storedHash: string | null): boolean {
  if (storedHash === null) return false;
  const a = Buffer.from(presentedHash, 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

export const newSeed = (): string => randomBytes(16).toString('hex');

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
