// Tournament formats for N-player tables and the arithmetic of seating a field at
// tables whose size lies in a range. Pure: the routes parse with `formatSchema`, and
// `validateFormat` checks a format against a game and a field before anything is paired.
import { z } from 'zod';
import { findGame } from '../games.ts';

/** Seats per table, inclusive; must lie within the game's player range. */
export type TableSize = { readonly min: number; readonly max: number };
/** `byes`: when no mix of sizes seats the whole field, the fewest players sit the round
 * out (Swiss must say; a rotation and a knockout have them unless `byes: false`). */
export type Format =
  | { readonly kind: 'swiss'; readonly rounds: number; readonly tableSize: TableSize; readonly byes: boolean }
  | { readonly kind: 'rotation'; readonly rounds: number; readonly tableSize: TableSize; readonly byes?: boolean }
  /** The top `advance` of each table go on, until one final table is played; a bye
   * goes on too. `placement`: beside the final, the players knocked out in the round
   * before it play one table for the places after the final's. */
  | { readonly kind: 'knockout'; readonly tableSize: TableSize; readonly advance: number; readonly byes?: boolean; readonly placement?: boolean };

/** Whether the format sits players out rather than refuse a field it cannot seat. */
export const byesAllowed = (format: Format): boolean => (format.kind === 'swiss' ? format.byes : format.byes ?? true);

const tableSizeSchema = z
  .strictObject({ min: z.int().min(2).max(100), max: z.int().min(2).max(100) })
  .refine((s) => s.min <= s.max, { message: 'tableSize.min must not exceed tableSize.max' });
const rounds = z.int().min(1).max(100);

const byes = z.boolean().describe('When no mix of table sizes seats everyone, the fewest players sit the round out (a bye): Swiss must say; rotation and knockout have byes unless false. A knockout bye goes on to the next round');

export const formatSchema: z.ZodType<Format> = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('swiss'), rounds, tableSize: tableSizeSchema, byes }),
  z.strictObject({ kind: z.literal('rotation'), rounds, tableSize: tableSizeSchema, byes: byes.optional() }),
  z.strictObject({
    kind: z.literal('knockout'),
    tableSize: tableSizeSchema,
    advance: z.int().min(1).max(99),
    byes: byes.optional(),
    placement: z.boolean().optional().describe('Beside the final, the players knocked out in the round before it play one table for the places after the final (a 3rd-place match at tables of 2), when they fit one table'),
  }),
]);

/**
 * The table sizes for `n` players, largest first: as few tables as the range allows,
 * their sizes differing by at most one (13 players at 3–5 seats: 5, 4, 4). Null when
 * no mix of sizes in the range seats exactly `n`.
 */
export function tableSizes(n: number, size: TableSize): number[] | null {
  if (n < size.min || n <= 0) return null;
  const tables = Math.ceil(n / size.max);
  const base = Math.floor(n / tables);
  if (base < size.min) return null;
  const larger = n % tables;
  return Array.from({ length: tables }, (_, i) => (i < larger ? base + 1 : base));
}

/** The fewest players who must sit out so that the rest can be seated (0 if all can),
 * or null when fewer than a smallest table remain. */
export function byesNeeded(n: number, size: TableSize): number | null {
  for (let out = 0; n - out >= size.min; out++) if (tableSizes(n - out, size)) return out;
  return null;
}

/** How a field of `n` sits in one round: the table sizes and how many sit out, or null
 * when it cannot be seated (with `byes` false, any field that needs a bye). */
export function seating(n: number, size: TableSize, byes: boolean): { tables: number[]; byes: number } | null {
  const out = byes ? byesNeeded(n, size) : tableSizes(n, size) === null ? null : 0;
  return out === null ? null : { tables: tableSizes(n - out, size)!, byes: out };
}

export interface KnockoutRound {
  readonly tables: readonly number[];
  readonly byes: number;
}

/** A knockout's rounds (the last is the final: one table, no bye), or a message saying
 * where the field cannot be seated. Every table sends `advance` on, a bye itself. */
export function knockoutRounds(n: number, size: TableSize, advance: number, byes = false): KnockoutRound[] | string {
  const plan: KnockoutRound[] = [];
  for (let field = n; ; ) {
    const round = seating(field, size, byes);
    if (round === null) {
      return plan.length === 0
        ? `${field} players cannot be seated at tables of ${range(size)} players`
        : `after round ${plan.length}, ${field} players go on, and they cannot be seated at tables of ${range(size)} players`;
    }
    plan.push(round);
    if (round.tables.length === 1 && round.byes === 0) return plan;
    // Each table keeps fewer than it seats (advance < min), so the field shrinks every round.
    field = round.tables.length * advance + round.byes;
  }
}

const range = (size: TableSize) => (size.min === size.max ? `${size.min}` : `${size.min}–${size.max}`);

/** Null when the format can be played by `playerCount` players of `gameType`, else
 * what is wrong, for a human. */
export function validateFormat(format: Format, gameType: string, playerCount: number): string | null {
  const game = findGame(gameType);
  if (!game) return `unknown game type "${gameType}"`;
  const { tableSize } = format;
  if (tableSize.min > tableSize.max) return `tableSize.min (${tableSize.min}) exceeds tableSize.max (${tableSize.max})`;
  if (tableSize.min < game.players.min || tableSize.max > game.players.max) {
    return `tables of ${range(tableSize)} players are outside ${game.title}'s ${range(game.players)} players`;
  }
  if (!Number.isInteger(playerCount) || playerCount < tableSize.min) {
    return `${playerCount} players are too few: a table needs at least ${tableSize.min}`;
  }
  switch (format.kind) {
    case 'swiss':
    case 'rotation':
      if (seating(playerCount, tableSize, byesAllowed(format))) return null;
      return `${playerCount} players cannot be seated at tables of ${range(tableSize)} players: allow byes or widen the range`;
    case 'knockout': {
      if (format.advance >= tableSize.min) {
        return `advance (${format.advance}) must be less than the smallest table (${tableSize.min}), or nobody is knocked out`;
      }
      const plan = knockoutRounds(playerCount, tableSize, format.advance, byesAllowed(format));
      return typeof plan === 'string' ? plan : null;
    }
  }
}
