// Pairing one round of a tournament for N-player tables. Pure and deterministic: the
// same input (in any order of players) gives the same tables; the only chance is a
// draw seeded by the tournament's seed and the round, which breaks ties.
import { hash } from 'node:crypto';
import { serverChance, type Chance } from '../chance.ts';
import { byesAllowed, byesNeeded, seating, tableSizes, type Format } from './format.ts';
import { arrange, Grouping } from './grouping.ts';
import { history, repeatPairs, type History } from './history.ts';
import { planRounds } from './schedule.ts';
import { advancers } from './knockout.ts';
import type { TableResult } from './results.ts';
import { seatOrder, snake } from './seating.ts';
import { standings, type PointsScheme, type TieBreak } from './standings.ts';

export { isComplete } from './knockout.ts';

type Bye = { readonly round: number; readonly player: string };

export interface PairingInput {
  readonly format: Format;
  /** The round to pair, 1-based. */
  readonly round: number;
  /** Active players only. `seed` is a strength on the rating scale: higher is stronger. */
  readonly players: readonly { readonly id: string; readonly seed?: number }[];
  /** Every finished table so far (tables of this round or later are ignored). */
  readonly results: readonly TableResult[];
  readonly byes: readonly Bye[];
  /** The tournament's seed: same input, same pairing. */
  readonly seed: string;
  /** The standings' scheme and tie-breaks, which order a Swiss field (defaults otherwise). */
  readonly scheme?: PointsScheme;
  readonly tieBreaks?: readonly TieBreak[];
}

export interface Pairing {
  /** Seat order: seat 0 starts. `placement`: a knockout's table for the places after
   * the final's, played beside it. */
  readonly tables: readonly { readonly players: readonly string[]; readonly placement?: true }[];
  readonly byes: readonly string[];
  /** Pairs of players seated together in this round who had met before. */
  readonly repeats: number;
}

type Violation = { readonly violation: string };

/** Throws nothing: returns a violation message when the round cannot be paired. */
export function pairRound(input: PairingInput): Pairing | Violation {
  const { format, round } = input;
  if (!Number.isInteger(round) || round < 1) return { violation: `round must be a whole number from 1, not ${round}` };
  if (format.tableSize.min > format.tableSize.max) return { violation: 'tableSize.min exceeds tableSize.max' };
  const ids = input.players.map((p) => p.id).sort();
  const duplicate = ids.find((id, i) => ids[i + 1] === id);
  if (duplicate !== undefined) return { violation: `player "${duplicate}" is listed twice` };
  if (format.kind !== 'knockout' && round > format.rounds) {
    return { violation: `the tournament has ${format.rounds} rounds, so there is no round ${round}` };
  }
  const context = new RoundContext(input, ids);
  switch (format.kind) {
    case 'swiss':
      return context.swiss(format.byes);
    case 'rotation':
      return context.rotation(format.rounds, byesAllowed(format));
    case 'knockout':
      return context.knockout(format.advance, byesAllowed(format), format.placement === true);
  }
}

class RoundContext {
  private readonly results: readonly TableResult[];
  private readonly byes: readonly Bye[];
  private readonly seedOf: ReadonlyMap<string, number>;
  /** The round's draw: a place per player id, for breaking ties. */
  private readonly draw: ReadonlyMap<string, number>;
  /** Shuffles for the restarts of the local search. */
  private readonly rng: Chance;

  constructor(
    private readonly input: PairingInput,
    private readonly ids: readonly string[],
  ) {
    this.results = input.results.filter((r) => r.round < input.round);
    this.byes = input.byes.filter((b) => b.round < input.round);
    this.seedOf = new Map(input.players.flatMap((p) => (p.seed === undefined ? [] : [[p.id, p.seed]])));
    this.rng = serverChance(input.seed, `tournament-pairing:${input.round}`);
    this.draw = drawOrder(ids, `${input.seed}:${input.round}`);
  }

  /** Ids by standing so far (players equal in standing by seed, then the draw), with
   * their points. */
  private byStanding(ids: readonly string[]): { order: string[]; points: ReadonlyMap<string, number> } {
    const table = standings(ids, this.results, this.byes, this.input.scheme, this.input.tieBreaks);
    const rank = new Map(table.map((s) => [s.player, s.rank]));
    const points = new Map(table.map((s) => [s.player, s.points]));
    const seed = (id: string) => this.seedOf.get(id) ?? -Infinity;
    const sorted = [...ids].sort(
      (a, b) => rank.get(a)! - rank.get(b)! || seed(b) - seed(a) || this.draw.get(a)! - this.draw.get(b)!,
    );
    return { order: sorted, points };
  }

  swiss(byesAllowed: boolean): Pairing | Violation {
    const size = this.input.format.tableSize;
    const { order, points: pointsOf } = this.byStanding(this.ids);
    const out = byesNeeded(order.length, size);
    if (out === null) return { violation: `${order.length} players are too few for a table of ${size.min}` };
    if (out > 0 && !byesAllowed) {
      return { violation: `${order.length} players cannot be seated at tables of ${size.min}–${size.max} without byes` };
    }
    // The bye goes to the lowest-standing player with the fewest byes so far.
    const sitOut = this.sittingOut(order, out, 'last');
    const field = out === 0 ? order : order.filter((id) => !sitOut.includes(id));
    const sizes = tableSizes(field.length, size)!;
    const h = history(field, this.results);
    const indices = field.map((_, i) => i);
    if (this.input.round === 1) return this.finish(field, h, snake(indices, sizes), sitOut);
    const points = Float64Array.from(field, (id) => pointsOf.get(id) ?? 0);
    const grouping = new Grouping(h, { points, byStanding: true, window: 8, candidates: 3 * size.max });
    return this.finish(field, h, arrange(grouping, indices, sizes, (xs) => this.rng.draw(xs, xs.length)), sitOut);
  }

  /** The `count` players of `order` who sit out: those with the fewest byes so far,
   * among them the `first` or the `last` in `order`. */
  private sittingOut(order: readonly string[], count: number, from: 'first' | 'last'): string[] {
    if (count === 0) return [];
    const byeCount = new Map<string, number>();
    for (const bye of this.byes) byeCount.set(bye.player, (byeCount.get(bye.player) ?? 0) + 1);
    const direction = from === 'first' ? 1 : -1;
    return order
      .map((id, k) => ({ id, k, byes: byeCount.get(id) ?? 0 }))
      .sort((a, b) => a.byes - b.byes || direction * (a.k - b.k))
      .slice(0, count)
      .map((p) => p.id);
  }

  /**
   * A balanced rotation plans its rounds together (schedule.ts): from the first round
   * since which the field has not changed, to the last. As the plan is deterministic
   * for that field, its history before that round and the seed, every later round of
   * an unchanged field recomputes the same plan and plays its next round; a withdrawal
   * or a late entry plans the rounds left afresh.
   *
   * A field no mix of sizes seats has byes: they rotate, to the players with the fewest
   * so far (the round's draw among equals), and the rest are planned as a changed field.
   */
  rotation(lastRound: number, byesAllowed: boolean): Pairing | Violation {
    const { format, round, seed } = this.input;
    const size = format.tableSize;
    const seated = seating(this.ids.length, size, byesAllowed);
    if (!seated) return { violation: `${this.ids.length} players cannot be seated at tables of ${size.min}–${size.max}${byesAllowed ? '' : ' without byes'}` };
    const sitOut = this.sittingOut([...this.ids].sort((a, b) => this.draw.get(a)! - this.draw.get(b)!), seated.byes, 'first');
    const ids = this.ids.filter((id) => !sitOut.includes(id));
    let from = round;
    while (from > 1 && this.seatedIn(from - 1) === ids.join(',')) from--;
    const draw = drawOrder(ids, `${seed}:plan:${from}`);
    const field = [...ids].sort((a, b) => draw.get(a)! - draw.get(b)!);
    const before = history(field, this.results.filter((r) => r.round < from));
    const plan = planRounds(before, seated.tables, lastRound - from + 1, field.map((_, i) => i), serverChance(seed, `tournament-rotation:${from}`));
    return this.finish(field, history(field, this.results), plan[round - from]!, sitOut);
  }

  /** The players seated at the round's tables, sorted and joined. */
  private seatedIn(round: number): string {
    return this.results.filter((r) => r.round === round).flatMap((r) => r.players).sort().join(',');
  }

  /**
   * The players who go on from the previous round (its tables' top `advance` and its
   * byes) at tables dealt by standing; byes, when the field needs them, to those with
   * the fewest so far, the best standing first. With `placement`, the final round also
   * seats the previous round's knocked-out players at one table of their own, if they
   * fit one.
   */
  knockout(advance: number, byesAllowed: boolean, placement: boolean): Pairing | Violation {
    const { round } = this.input;
    const size = this.input.format.tableSize;
    const active = new Set(this.ids);
    let field: readonly string[] = this.ids;
    let knockedOut: readonly string[] = [];
    if (round > 1) {
      const previous = this.results.filter((r) => r.round === round - 1 && r.placement !== true);
      const wentOn = this.byes.filter((b) => b.round === round - 1).map((b) => b.player);
      if (previous.length === 0) return { violation: `round ${round - 1} has no results yet` };
      if (previous.length === 1 && wentOn.length === 0) return { violation: `round ${round - 1} was the final: the knockout is over` };
      field = [...advancers(this.results, round - 1, advance, active, (id) => this.draw.get(id) ?? 0), ...wentOn.filter((p) => active.has(p))];
      const forfeited = new Set(previous.flatMap((r) => r.forfeited ?? []));
      knockedOut = previous.flatMap((r) => r.players).filter((p) => active.has(p) && !forfeited.has(p) && !field.includes(p));
    }
    const seated = seating(field.length, size, byesAllowed);
    if (!seated) return { violation: `${field.length} players go on, and they cannot be seated at tables of ${size.min}–${size.max}` };
    const { order: ranked } = this.byStanding(field);
    const sitOut = this.sittingOut(ranked, seated.byes, 'first');
    const playing = ranked.filter((id) => !sitOut.includes(id));
    const final = seated.tables.length === 1 && seated.byes === 0;
    const placed = placement && final && tableSizes(knockedOut.length, size)?.length === 1 ? this.byStanding(knockedOut).order : [];
    const order = [...playing, ...placed];
    const h = history(order, this.results);
    const tables = snake(playing.map((_, i) => i), seated.tables);
    if (placed.length > 0) tables.push(placed.map((_, i) => playing.length + i));
    return this.finish(order, h, tables, sitOut, placed.length > 0);
  }

  /** `placementLast`: the last table is a knockout's placement table. */
  private finish(field: readonly string[], h: History, tables: number[][], byes: readonly string[], placementLast = false): Pairing {
    const draw = Int32Array.from(field, (id) => this.draw.get(id)!);
    return {
      tables: tables.map((t, k) => ({ players: seatOrder(t, h, draw).map((i) => field[i]!), ...(placementLast && k === tables.length - 1 ? { placement: true as const } : {}) })),
      byes,
      repeats: repeatPairs(tables, h),
    };
  }
}

/** A draw of `ids` keyed by `key`: each id's place comes from a hash of (key, id), so
 * the draw does not depend on the order the ids came in and costs one hash an id. */
function drawOrder(ids: readonly string[], key: string): Map<string, number> {
  const hashed = ids.map((id) => ({ id, h: hash('sha256', `${key}:${id}`, 'hex') }));
  hashed.sort((a, b) => (a.h < b.h ? -1 : a.h > b.h ? 1 : a.id < b.id ? -1 : 1));
  return new Map(hashed.map((x, k) => [x.id, k]));
}
