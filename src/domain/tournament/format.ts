// Tournament formats for N-player tables and the arithmetic of seating a field at
// tables whose size lies in a range. Pure: the routes parse with `formatSchema`, and
// `validateFormat` checks a format against a game and a field before anything is paired.
import { z } from 'zod';
import { findGame } from '../games.ts';

/** Seats per table, inclusive; must lie within the game's player range. */
export type TableSize = { readonly min: number; readonly max: number };
export type Format =
  | { readonly kind: 'swiss'; readonly rounds: number; readonly tableSize: TableSize; readonly byes: boolean }
  | { readonly kind: 'rotation'; readonly rounds: number; readonly tableSize: TableSize }
  /** The top `advance` of each table go on, until one final table is played. */
  | { readonly kind: 'knockout'; readonly tableSize: TableSize; readonly advance: number };

const tableSizeSchema = z
  .strictObject({ min: z.int().min(2).max(100), max: z.int().min(2).max(100) })
  .refine((s) => s.min <= s.max, { message: 'tableSize.min must not exceed tableSize.max' });
const rounds = z.int().min(1).max(100);

export const formatSchema: z.ZodType<Format> = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('swiss'), rounds, tableSize: tableSizeSchema, byes: z.boolean() }),
  z.strictObject({ kind: z.literal('rotation'), rounds, tableSize: tableSizeSchema }),
  z.strictObject({ kind: z.literal('knockout'), tableSize: tableSizeSchema, advance: z.int().min(1).max(99) }),
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

/** A knockout's table sizes round by round (the last entry is the final table), or a
 * message saying where the field cannot be seated. Every table sends `advance` on. */
export function knockoutRounds(n: number, size: TableSize, advance: number): number[][] | string {
  const plan: number[][] = [];
  for (let field = n; ; ) {
    const sizes = tableSizes(field, size);
    if (!sizes) {
      return plan.length === 0
        ? `${field} players cannot be seated at tables of ${range(size)} players`
        : `after round ${plan.length}, ${field} players go on, and they cannot be seated at tables of ${range(size)} players`;
    }
    plan.push(sizes);
    if (sizes.length === 1) return plan;
    field = sizes.length * advance;
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
      if (tableSizes(playerCount, tableSize)) return null;
      return format.kind === 'swiss' && format.byes
        ? null
        : `${playerCount} players cannot be seated at tables of ${range(tableSize)} players` +
            (format.kind === 'swiss' ? ': allow byes or widen the range' : ': widen the range');
    case 'knockout': {
      if (format.advance >= tableSize.min) {
        return `advance (${format.advance}) must be less than the smallest table (${tableSize.min}), or nobody is knocked out`;
      }
      const plan = knockoutRounds(playerCount, tableSize, format.advance);
      return typeof plan === 'string' ? plan : null;
    }
  }
}
