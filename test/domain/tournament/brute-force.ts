// The fewest rematches any seating can give, by trying every seating: the yardstick
// for the pairing's search on small fields.

/** Every way to split `players` into unordered tables of the given sizes. */
export function* seatings(players: readonly string[], sizes: readonly number[]): Generator<string[][]> {
  if (players.length === 0) {
    yield [];
    return;
  }
  const [first, ...rest] = players;
  for (const size of new Set(sizes)) {
    const others = [...sizes];
    others.splice(others.indexOf(size), 1);
    for (const companions of combinations(rest, size - 1)) {
      const left = rest.filter((p) => !companions.includes(p));
      for (const tables of seatings(left, others)) yield [[first!, ...companions], ...tables];
    }
  }
}

function* combinations<T>(items: readonly T[], k: number, from = 0): Generator<T[]> {
  if (k === 0) {
    yield [];
    return;
  }
  for (let i = from; i <= items.length - k; i++) {
    for (const tail of combinations(items, k - 1, i + 1)) yield [items[i]!, ...tail];
  }
}

/** Pairs at these tables who met before (`met` says whether two players did). */
export function rematches(tables: readonly (readonly string[])[], met: (a: string, b: string) => boolean): number {
  let count = 0;
  for (const t of tables) for (let i = 0; i < t.length; i++) for (let j = i + 1; j < t.length; j++) if (met(t[i]!, t[j]!)) count++;
  return count;
}

export function fewestRematches(players: readonly string[], sizes: readonly number[], met: (a: string, b: string) => boolean): number {
  let best = Infinity;
  for (const tables of seatings(players, sizes)) best = Math.min(best, rematches(tables, met));
  return best;
}
