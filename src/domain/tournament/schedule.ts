// Planning a balanced rotation's rounds together: seating every round as well as it
// can on its own (round by round) can leave later rounds no way out of rematches that
// another choice earlier would have avoided. The plan's cost is lexicographic: the
// rematches over all its rounds (a pair seated together who met before, at an earlier
// round or in the history), then the sum over pairs of their meetings squared (so
// meetings are spread evenly). Small plans are searched exhaustively; bigger ones start
// from the round-by-round seating and improve it by swaps between tables of any round.
import type { Chance } from '../chance.ts';
import { allSeatings, arrange, Grouping, seatings } from './grouping.ts';
import type { History } from './history.ts';

/** [rematches, Σ meetings²] */
type Cost = [number, number];

/** Up to this many schedules (seatings of a round to the power of the rounds), all are
 * tried (6 players at two tables of 3 for 5 rounds: 10⁵). */
const EXACT_SCHEDULES = 100_000;
/** Up to this many players, every pair of tables of every round is searched and the
 * search is restarted from perturbed plans. */
const SMALL_FIELD = 40;
/** Tables either side a big field's rematch looks at for a way out of it. */
const WINDOW = 16;

/** The planned meetings of a pair and what they cost, given their meetings before. */
const pairCost = (before: number, planned: number): Cost => [before > 0 ? planned : Math.max(0, planned - 1), (before + planned) ** 2];

/**
 * `rounds` rounds of players 0..n-1 (`h` says who met before) at tables of `sizes`,
 * with as few rematches over all the rounds as the search finds. `order` is the
 * round-by-round fill's order (the round's draw); `rng` shuffles restarts.
 */
export function planRounds(h: History, sizes: readonly number[], rounds: number, order: readonly number[], rng: Chance): number[][][] {
  const plan = new Plan(h, rounds);
  const perRound = seatings(sizes, EXACT_SCHEDULES);
  // With no history every first round is as good as any other: it is fixed.
  const fresh = h.meetings.every((m) => m === 0);
  if (perRound <= EXACT_SCHEDULES && perRound ** (fresh ? rounds - 1 : rounds) <= EXACT_SCHEDULES) return plan.exact(sizes, fresh);
  const shuffle = (xs: readonly number[]) => rng.draw(xs, xs.length);
  for (let r = 0; r < rounds; r++) plan.seat(r, arrange(new Grouping(plan.historyBefore(r), { byStanding: false, window: WINDOW, candidates: 6 * Math.max(...sizes) }), order, sizes, shuffle));
  const small = h.n <= SMALL_FIELD;
  plan.improve(small);
  if (!small) return plan.rounds();
  let best = plan.rounds();
  let bestCost = plan.cost();
  // Iterated local search: kick the best plan with a few random swaps, improve, keep
  // the better; a bounded number of times.
  for (let k = 0; k < Math.ceil(400 / h.n); k++) {
    if (bestCost[0] === 0) break;
    const trial = new Plan(h, rounds);
    best.forEach((tables, r) => trial.seat(r, tables.map((t) => [...t])));
    for (let kick = 0; kick < 3; kick++) trial.randomSwap(rng);
    trial.improve(true);
    const cost = trial.cost();
    if (less(cost, bestCost)) [best, bestCost] = [trial.rounds(), cost];
  }
  return best;
}

function less(a: Cost, b: Cost): boolean {
  return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
}

class Plan {
  private readonly n: number;
  /** planned[i * n + j]: the tables i and j share in the plan. */
  private readonly planned: Uint16Array;
  private readonly tables: number[][][];

  constructor(
    private readonly h: History,
    rounds: number,
  ) {
    this.n = h.n;
    this.planned = new Uint16Array(h.n * h.n);
    this.tables = Array.from({ length: rounds }, () => []);
  }

  rounds(): number[][][] {
    return this.tables.map((round) => round.map((t) => [...t]));
  }

  /** The history the round-by-round fill sees before round `r`: the real one and the
   * plan's rounds before `r`. */
  historyBefore(r: number): History {
    const meetings = Uint16Array.from(this.h.meetings);
    for (let k = 0; k < r; k++) for (const t of this.tables[k]!) for (const x of t) for (const y of t) if (x !== y) meetings[x * this.n + y]!++;
    return { ...this.h, meetings };
  }

  seat(r: number, tables: number[][]): void {
    this.tables[r] = tables;
    for (const t of tables) for (const x of t) for (const y of t) if (x !== y) this.planned[x * this.n + y]!++;
  }

  cost(): Cost {
    const c: Cost = [0, 0];
    for (let i = 0; i < this.n; i++) {
      for (let j = i + 1; j < this.n; j++) {
        const [repeats, squares] = pairCost(this.h.meetings[i * this.n + j]!, this.planned[i * this.n + j]!);
        c[0] += repeats;
        c[1] += squares;
      }
    }
    return c;
  }

  /** Adds to `into` what changes when x's meetings with y change by `by`. */
  private change(into: Cost, x: number, y: number, by: number): void {
    const before = this.h.meetings[x * this.n + y]!;
    const p = this.planned[x * this.n + y]!;
    const [r0, s0] = pairCost(before, p);
    const [r1, s1] = pairCost(before, p + by);
    into[0] += r1 - r0;
    into[1] += s1 - s0;
  }

  private bump(x: number, y: number, by: number): void {
    this.planned[x * this.n + y]! += by;
    this.planned[y * this.n + x]! += by;
  }

  /** What swapping `ta[i]` and `tb[j]` (tables of one round) would change. */
  private swapDelta(ta: readonly number[], i: number, tb: readonly number[], j: number): Cost {
    const x = ta[i]!;
    const y = tb[j]!;
    const d: Cost = [0, 0];
    for (const z of ta) if (z !== x) (this.change(d, x, z, -1), this.change(d, y, z, 1));
    for (const z of tb) if (z !== y) (this.change(d, y, z, -1), this.change(d, x, z, 1));
    return d;
  }

  private swap(ta: number[], i: number, tb: number[], j: number): void {
    const x = ta[i]!;
    const y = tb[j]!;
    for (const z of ta) if (z !== x) (this.bump(x, z, -1), this.bump(y, z, 1));
    for (const z of tb) if (z !== y) (this.bump(y, z, -1), this.bump(x, z, 1));
    ta[i] = y;
    tb[j] = x;
  }

  /** Moving `from[i]` to `to`, a table one seat smaller: only which table is larger changes. */
  private moveDelta(from: readonly number[], i: number, to: readonly number[]): Cost {
    const x = from[i]!;
    const d: Cost = [0, 0];
    for (const z of from) if (z !== x) this.change(d, x, z, -1);
    for (const z of to) this.change(d, x, z, 1);
    return d;
  }

  private move(from: number[], i: number, to: number[]): void {
    const x = from[i]!;
    for (const z of from) if (z !== x) this.bump(x, z, -1);
    for (const z of to) this.bump(x, z, 1);
    from.splice(i, 1);
    to.push(x);
  }

  /** Whether a pair at the table costs a rematch. */
  private hasRepeat(table: readonly number[]): boolean {
    for (let a = 0; a < table.length; a++) {
      for (let b = a + 1; b < table.length; b++) {
        const k = table[a]! * this.n + table[b]!;
        if (pairCost(this.h.meetings[k]!, this.planned[k]!)[0] > 0) return true;
      }
    }
    return false;
  }

  /** Swaps and moves within each round until none helps: between every pair of tables
   * (`everywhere`), or from tables with a rematch to those within the window. */
  improve(everywhere: boolean, maxPasses = 50): void {
    const zero: Cost = [0, 0];
    for (let pass = 0, improved = true; improved && pass < maxPasses; pass++) {
      improved = false;
      for (const round of this.tables) {
        for (let a = 0; a < round.length; a++) {
          if (!everywhere && !this.hasRepeat(round[a]!)) continue;
          const from = everywhere ? a + 1 : Math.max(0, a - WINDOW);
          for (let b = from; b < round.length && b <= a + WINDOW; b++) {
            if (b === a) continue;
            const ta = round[a]!;
            const tb = round[b]!;
            for (let i = 0; i < ta.length; i++) {
              for (let j = 0; j < tb.length; j++) {
                if (less(this.swapDelta(ta, i, tb, j), zero)) {
                  this.swap(ta, i, tb, j);
                  improved = true;
                }
              }
            }
            for (const [x, y] of [[ta, tb], [tb, ta]] as const) {
              if (x.length !== y.length + 1) continue;
              for (let i = 0; i < x.length; i++) {
                if (less(this.moveDelta(x, i, y), zero)) {
                  this.move(x, i, y);
                  improved = true;
                  break;
                }
              }
            }
          }
        }
      }
    }
  }

  /** Swaps two players at different tables of a random round. */
  randomSwap(rng: Chance): void {
    const round = rng.draw(this.tables, 1)[0]!;
    if (round.length < 2) return;
    const [ta, tb] = rng.draw(round, 2) as [number[], number[]];
    const [i] = rng.draw([...ta.keys()], 1);
    const [j] = rng.draw([...tb.keys()], 1);
    this.swap(ta, i!, tb, j!);
  }

  /**
   * Every schedule, by branch and bound: each round tries every seating of the players
   * at tables of `sizes` (`fixFirst`: the first round takes the first one), a partial
   * plan as dear as the best is dropped, since the cost only grows round by round.
   */
  exact(sizes: readonly number[], fixFirst: boolean): number[][][] {
    const all = [...allSeatings(this.n, sizes)];
    let best: number[][][] = [];
    let bestCost: Cost = [Infinity, Infinity];
    const chosen: number[][][] = [];
    const search = (r: number, cost: Cost) => {
      if (!less(cost, bestCost)) return;
      if (r === this.tables.length) {
        best = chosen.map((round) => round.map((t) => [...t]));
        bestCost = cost;
        return;
      }
      for (const seating of fixFirst && r === 0 ? all.slice(0, 1) : all) {
        const next: Cost = [...cost];
        for (const t of seating) for (let a = 0; a < t.length; a++) for (let b = a + 1; b < t.length; b++) this.change(next, t[a]!, t[b]!, 1);
        for (const t of seating) for (const x of t) for (const y of t) if (x < y) this.bump(x, y, 1);
        chosen.push(seating);
        search(r + 1, next);
        chosen.pop();
        for (const t of seating) for (const x of t) for (const y of t) if (x < y) this.bump(x, y, -1);
      }
    };
    search(0, [0, 0]);
    return best;
  }
}
