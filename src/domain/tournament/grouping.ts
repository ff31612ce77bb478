// Grouping players into tables of given sizes: on a small field by trying every
// arrangement; otherwise a greedy fill, then a local search of swaps (and moves
// between tables one seat apart in size) until no change improves.
// The cost is lexicographic: pairs who met before, then how often they met, then (for
// Swiss) the spread of points and of standing at a table. Repeats come first because
// a rematch is what players notice; standing decides among arrangements with equally
// few rematches.
import type { History } from './history.ts';

export interface GroupingOptions {
  /** Points per player (Swiss); tables of equal points cost nothing more. */
  readonly points?: Float64Array;
  /** Whether a player's index is their standing (Swiss): neighbours belong together. */
  readonly byStanding: boolean;
  /** How many tables each side a swap looks at. */
  readonly window: number;
  /** Unseated players the greedy fill considers for each seat. */
  readonly candidates: number;
}

/** [repeat pairs, meetings, points spread, standing spread] */
type Cost = [number, number, number, number];
const EPS = 1e-9;

function less(a: Cost, b: Cost): boolean {
  for (let k = 0; k < 4; k++) {
    if (a[k]! < b[k]! - EPS) return true;
    if (a[k]! > b[k]! + EPS) return false;
  }
  return false;
}

export class Grouping {
  constructor(
    private readonly h: History,
    private readonly options: GroupingOptions,
  ) {}

  /** Adds to `into` the cost of `x` sitting with every player of `table` except `skip`. */
  private add(into: Cost, x: number, table: readonly number[], skip: number, sign: number): void {
    const { meetings, n } = this.h;
    const points = this.options.points;
    for (const y of table) {
      if (y === skip || y === x) continue;
      const met = meetings[x * n + y]!;
      if (met > 0) {
        into[0] += sign;
        into[1] += sign * met;
      }
      if (points) {
        const d = points[x]! - points[y]!;
        into[2] += sign * d * d;
      }
      if (this.options.byStanding) into[3] += sign * Math.abs(x - y);
    }
  }

  cost(tables: readonly (readonly number[])[]): Cost {
    const c: Cost = [0, 0, 0, 0];
    for (const t of tables) for (const x of t) this.add(c, x, t, -1, 0.5);
    return c;
  }

  /** Fills tables of `sizes` in turn: each opens with the first unseated player of
   * `order` and takes, seat by seat, the cheapest of the next few unseated. */
  greedy(order: readonly number[], sizes: readonly number[]): number[][] {
    const seated = new Uint8Array(this.h.n);
    let first = 0;
    return sizes.map((size) => {
      while (seated[order[first]!]) first++;
      const table = [order[first]!];
      seated[order[first]!] = 1;
      while (table.length < size) {
        let best = -1;
        let bestCost: Cost | null = null;
        for (let k = first, seen = 0; k < order.length && seen < this.options.candidates; k++) {
          const x = order[k]!;
          if (seated[x]) continue;
          seen++;
          const c: Cost = [0, 0, 0, 0];
          this.add(c, x, table, -1, 1);
          if (!bestCost || less(c, bestCost)) [best, bestCost] = [x, c];
        }
        table.push(best);
        seated[best] = 1;
      }
      return table;
    });
  }

  /**
   * Improves `tables` in place until no swap or move with a table within the window
   * helps. `everywhere`: every pair of tables in reach (small fields); otherwise only
   * tables with a rematch look for a way out of it, since the greedy fill already
   * keeps standings together and a big field has room enough.
   */
  improve(tables: number[][], everywhere: boolean, maxPasses = 50): void {
    const window = this.options.window;
    for (let pass = 0, improved = true; improved && pass < maxPasses; pass++) {
      improved = false;
      for (let a = 0; a < tables.length; a++) {
        if (!everywhere && !this.hasRepeat(tables[a]!)) continue;
        const from = everywhere ? a + 1 : Math.max(0, a - window);
        for (let b = from; b < tables.length && b <= a + window; b++) {
          if (b !== a && this.improvePair(tables[a]!, tables[b]!)) improved = true;
        }
      }
    }
  }

  private hasRepeat(table: readonly number[]): boolean {
    const { meetings, n } = this.h;
    for (let i = 0; i < table.length; i++) {
      for (let j = i + 1; j < table.length; j++) if (meetings[table[i]! * n + table[j]!]! > 0) return true;
    }
    return false;
  }

  private improvePair(ta: number[], tb: number[]): boolean {
    let improved = false;
    const zero: Cost = [0, 0, 0, 0];
    for (let i = 0; i < ta.length; i++) {
      for (let j = 0; j < tb.length; j++) {
        const x = ta[i]!;
        const y = tb[j]!;
        const d: Cost = [0, 0, 0, 0];
        this.add(d, y, ta, x, 1);
        this.add(d, x, ta, x, -1);
        this.add(d, x, tb, y, 1);
        this.add(d, y, tb, y, -1);
        if (less(d, zero)) {
          ta[i] = y;
          tb[j] = x;
          improved = true;
        }
      }
    }
    // A player may change tables when that only swaps which table is the larger one.
    const move = (from: number[], to: number[]) => {
      if (from.length !== to.length + 1) return;
      for (let i = 0; i < from.length; i++) {
        const x = from[i]!;
        const d: Cost = [0, 0, 0, 0];
        this.add(d, x, to, -1, 1);
        this.add(d, x, from, x, -1);
        if (less(d, zero)) {
          from.splice(i, 1);
          to.push(x);
          improved = true;
          return;
        }
      }
    };
    move(ta, tb);
    move(tb, ta);
    return improved;
  }

  /**
   * The cheapest arrangement of players 0..n-1 at tables of `sizes`, by trying them
   * all (`allSeatings`); a partial arrangement already as dear as the best is dropped,
   * since every part of the cost only grows. For small fields (see `seatings`).
   */
  exact(sizes: readonly number[]): number[][] {
    let best: number[][] = [];
    let bestCost: Cost = [Infinity, Infinity, Infinity, Infinity];
    // The cost of the partial arrangement, one entry per player seated at a table with others.
    const costs: Cost[] = [[0, 0, 0, 0]];
    const pruning: Pruning = {
      seat: (x, table) => {
        const next: Cost = [...costs.at(-1)!];
        this.add(next, x, table, -1, 1);
        if (!less(next, bestCost)) return false;
        costs.push(next);
        return true;
      },
      unseat: () => void costs.pop(),
    };
    for (const arrangement of allSeatings(this.h.n, sizes, pruning)) {
      // A table of one is opened without a `seat`, so the last check may be older than the best.
      if (!less(costs.at(-1)!, bestCost)) continue;
      best = arrangement;
      bestCost = costs.at(-1)!;
    }
    return best;
  }

  /** The cheaper of two arrangements. */
  better(a: number[][], b: number[][]): number[][] {
    return less(this.cost(b), this.cost(a)) ? b : a;
  }
}

/** Asked before a player joins a table that has others: false leaves out every
 * arrangement with that player there; `unseat` follows each `seat` that said true. */
export interface Pruning {
  seat(x: number, table: readonly number[]): boolean;
  unseat(): void;
}

/** Every way to seat players 0..n-1 at unordered tables of `sizes`: the lowest unseated
 * player opens the next table, so each comes once. */
export function* allSeatings(n: number, sizes: readonly number[], pruning?: Pruning): Generator<number[][]> {
  const seated = new Uint8Array(n);
  const tables: number[][] = [];
  const left = [...sizes];
  function* open(): Generator<number[][]> {
    let first = 0;
    while (first < n && seated[first]) first++;
    if (first === n) {
      yield tables.map((t) => [...t]);
      return;
    }
    for (const size of new Set(left)) {
      left.splice(left.indexOf(size), 1);
      const table = [first];
      seated[first] = 1;
      tables.push(table);
      yield* fill(table, size, first + 1);
      tables.pop();
      seated[first] = 0;
      left.push(size);
    }
  }
  function* fill(table: number[], size: number, from: number): Generator<number[][]> {
    if (table.length === size) {
      yield* open();
      return;
    }
    for (let x = from; x < n; x++) {
      if (seated[x] || pruning?.seat(x, table) === false) continue;
      table.push(x);
      seated[x] = 1;
      yield* fill(table, size, x + 1);
      seated[x] = 0;
      table.pop();
      pruning?.unseat();
    }
  }
  yield* open();
}

/** How many ways there are to seat the players at unordered tables of `sizes`,
 * n! / (Π size! · Π (tables of equal size)!), or Infinity past `limit`. */
export function seatings(sizes: readonly number[], limit: number): number {
  let count = 1;
  let n = 0;
  const equal = new Map<number, number>();
  for (const size of sizes) {
    for (let k = 1; k <= size; k++) {
      n++;
      count = (count * n) / k;
    }
    const same = (equal.get(size) ?? 0) + 1;
    equal.set(size, same);
    count /= same;
  }
  return count > limit ? Infinity : Math.round(count);
}

/** Up to this many arrangements, all are tried (12 players at three tables of 4: 5,775). */
const EXACT_UP_TO = 20_000;

/** Up to this many players, every table pair is searched and restarts are tried. */
const SMALL_FIELD = 40;

/** Extra tries from shuffled starts: many for a small field, none for a big one (whose
 * local search has room enough to avoid rematches). */
const restarts = (n: number) => (n <= SMALL_FIELD ? Math.ceil(400 / n) : 0);

/**
 * Players `order` (0..n-1, in the order the greedy fill takes them) at tables of
 * `sizes`: every arrangement when there are at most `exactUpTo`; else the greedy fill
 * and local search, on a small field restarted from `shuffle`d orders so that local
 * optima do not stick.
 */
export function arrange(
  grouping: Grouping,
  order: readonly number[],
  sizes: readonly number[],
  shuffle: (xs: readonly number[]) => number[],
  exactUpTo = EXACT_UP_TO,
): number[][] {
  if (seatings(sizes, exactUpTo) !== Infinity) return grouping.exact(sizes);
  let best = grouping.greedy(order, sizes);
  grouping.improve(best, order.length <= SMALL_FIELD);
  for (let r = 0; r < restarts(order.length); r++) {
    const tables = grouping.greedy(shuffle(order), sizes);
    grouping.improve(tables, true);
    best = grouping.better(best, tables);
  }
  return best;
}
