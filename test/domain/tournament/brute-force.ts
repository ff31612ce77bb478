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

/** The fewest rematches over `rounds` rounds of `players` at tables of `sizes` that any
 * schedule allows, by trying them all (branch and bound; the first round is any one
 * seating, as nobody has met). */
export function fewestScheduleRematches(players: readonly string[], sizes: readonly number[], rounds: number): number {
  const all = [...seatings(players, sizes)];
  const met = new Map<string, number>();
  const key = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);
  let best = Infinity;
  const search = (r: number, cost: number) => {
    if (cost >= best) return;
    if (r === rounds) return void (best = cost);
    for (const tables of r === 0 ? all.slice(0, 1) : all) {
      const pairs = tables.flatMap((t) => t.flatMap((a, i) => t.slice(i + 1).map((b) => key(a, b))));
      const added = pairs.filter((p) => (met.get(p) ?? 0) > 0).length;
      for (const p of pairs) met.set(p, (met.get(p) ?? 0) + 1);
      search(r + 1, cost + added);
      for (const p of pairs) met.set(p, met.get(p)! - 1);
    }
  };
  search(0, 0);
  return best;
}
