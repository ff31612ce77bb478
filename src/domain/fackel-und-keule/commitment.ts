// The public commitment to a secret choice: anyone can check it after the reveal.
import { createHash } from 'node:crypto';

/** The canonical form of a choice: JSON of the card ids in ascending order. */
export const canonicalCards = (cards: readonly number[]): string =>
  JSON.stringify([...cards].sort((a, b) => a - b));

export const commitmentOf = (salt: string, cards: readonly number[]): string =>
  createHash('sha256').update(salt + canonicalCards(cards)).digest('hex');

/** True when the revealed cards and salt are the ones committed to. */
export const verifyCommitment = (commitment: string, salt: string, cards: readonly number[]): boolean =>
  commitmentOf(salt, cards) === commitment;
