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

/** The nonce a seed's commitment covers: 128 random bits, so that the commitment of
 * a short seed a creator chose ("4823") cannot be searched for. */
export const newSeedNonce = (): string => randomBytes(16).toString('hex');

/** The published commitment to a game's seed: SHA-256 of `${nonce}:${seed}`. Games
 * created before nonces (nonce null) committed to the seed alone. Anyone can check it
 * once the game is over and both are revealed. */
export const seedCommitment = (nonce: string | null, seed: string): string => sha256(nonce === null ? seed : `${nonce}:${seed}`);

