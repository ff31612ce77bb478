// Seat order at a table. Seat 0 starts, which is an edge in most games, so it goes
// to the player who started least often so far; among equals, to who sat furthest
// round the table before; then by the round's draw.
import type { History } from './history.ts';

export function seatOrder(table: readonly number[], h: History, draw: Int32Array): number[] {
  return [...table].sort(
    (a, b) => h.starts[a]! - h.starts[b]! || h.lateness[b]! - h.lateness[a]! || draw[a]! - draw[b]!,
  );
}

/** Deals players over tables of `sizes` like cards (1, 2, 3, 3, 2, 1, …), so that
 * neighbours in `order` (e.g. the strongest seeds) sit at different tables. */
export function snake(order: readonly number[], sizes: readonly number[]): number[][] {
  const tables = sizes.map(() => [] as number[]);
  let t = 0;
  let step = 1;
  for (const x of order) {
    while (tables[t]!.length >= sizes[t]!) [t, step] = next(t, step, sizes.length);
    tables[t]!.push(x);
    [t, step] = next(t, step, sizes.length);
  }
  return tables;
}

function next(t: number, step: number, count: number): [number, number] {
  if (count === 1) return [0, step];
  const u = t + step;
  if (u < 0 || u >= count) return [t, -step];
  return [u, step];
}
