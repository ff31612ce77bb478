// Standings: a projection of the finished tables and the byes, nothing else. Points
// come from each player's place at the table (tied places share their points), then
// named tie-breaks order players on equal points.
import { z } from 'zod';
import { places, type TableResult } from './results.ts';

export interface PointsScheme {
  /** Points per place (index 0 = first) for each table size. */
  readonly byTableSize?: Readonly<Record<number, readonly number[]>>;
  /** Points for a round sat out. */
  readonly bye: number;
}

/** From 3 points for first down to 0 for last at every table size, evenly spaced
 * (4 players 3/2/1/0, 3 players 3/1.5/0, 5 players 3/2.25/1.5/0.75/0). Every size then
 * averages 1.5 a player, so a field split over tables of different sizes scores fairly;
 * a bye scores that average. */
const linearPlaces = (size: number): number[] =>
  size === 1 ? [3] : Array.from({ length: size }, (_, k) => (3 * (size - 1 - k)) / (size - 1));

export const defaultPointsScheme: PointsScheme = {
  byTableSize: Object.fromEntries([2, 3, 4, 5, 6, 7, 8].map((s) => [s, linearPlaces(s)])),
  bye: 1.5,
};

export const pointsSchemeSchema: z.ZodType<PointsScheme> = z.strictObject({
  byTableSize: z.record(z.string().regex(/^[1-9][0-9]*$/), z.array(z.number().min(0)).min(1)).optional(),
  bye: z.number().min(0),
});

/** The named tie-breaks (what each counts: see `standings`); routes build their enum from it. */
export const tieBreakNames = ['score', 'opponents-points', 'head-to-head', 'wins'] as const;
export type TieBreak = (typeof tieBreakNames)[number];
export const defaultTieBreaks: readonly TieBreak[] = ['opponents-points', 'head-to-head', 'score', 'wins'];

export interface Standing {
  readonly player: string;
  /** 1 = first; players equal on points and every tie-break share a rank. */
  readonly rank: number;
  readonly points: number;
  /** Tables sat at (forfeited ones included), byes not. */
  readonly played: number;
  /** Tables finished first (shared first places count). */
  readonly wins: number;
  readonly byes: number;
  readonly tieBreaks: Readonly<Record<TieBreak, number>>;
  /** A knockout's: the last round the player sat at a main table or had a bye. */
  readonly reached?: number;
}

/** The points of each place at a table of `size`: the scheme's list, or the linear
 * default for a size it does not list; a place beyond the list scores 0. */
export function placePoints(scheme: PointsScheme, size: number): number[] {
  const listed = scheme.byTableSize?.[size] ?? linearPlaces(size);
  return Array.from({ length: size }, (_, k) => listed[k] ?? 0);
}

/** Points per player of one table (same order as `result.players`): tied players
 * share the points of the places they occupy together. */
export function tablePoints(result: TableResult, scheme: PointsScheme, placed = places(result)): number[] {
  const worth = placePoints(scheme, result.players.length);
  return placed.map((place) => {
    const tied = placed.filter((p) => p === place).length;
    let sum = 0;
    for (let k = place - 1; k < place - 1 + tied; k++) sum += worth[k] ?? 0;
    return sum / tied;
  });
}

/** Sums of place points are shown and compared without float dust (1.8 + 1.2 = 3). */
const clean = (x: number) => Math.round(x * 1e9) / 1e9;

interface Tally {
  points: number;
  played: number;
  wins: number;
  byes: number;
  score: number;
  /** The results of the tables sat at (indices). */
  tables: number[];
}

export function standings(
  players: readonly string[],
  results: readonly TableResult[],
  byes: readonly { readonly round: number; readonly player: string }[],
  scheme: PointsScheme = defaultPointsScheme,
  tieBreaks: readonly TieBreak[] = defaultTieBreaks,
): Standing[] {
  // Sums of fractions depend on their order in the last bits: a canonical order makes
  // the standings the same however the results were listed.
  results = [...results].sort((a, b) => a.round - b.round || (a.tableId < b.tableId ? -1 : a.tableId > b.tableId ? 1 : 0));
  const tallies = new Map<string, Tally>();
  const tally = (p: string) => {
    let t = tallies.get(p);
    if (!t) tallies.set(p, (t = { points: 0, played: 0, wins: 0, byes: 0, score: 0, tables: [] }));
    return t;
  };
  const placedAt = results.map(places);
  results.forEach((result, r) => {
    const placed = placedAt[r]!;
    const points = tablePoints(result, scheme, placed);
    result.players.forEach((p, i) => {
      const t = tally(p);
      t.points += points[i]!;
      t.played++;
      const forfeited = result.forfeited?.includes(p) === true;
      if (placed[i] === 1 && !forfeited) t.wins++;
      // A forfeited seat was a bot's from the withdrawal on, an absent one's (a no-show)
      // from the start: its in-game score is not the player's.
      if (!forfeited && result.absent?.includes(p) !== true) t.score += result.scores[i] ?? 0;
      t.tables.push(r);
    });
  });
  for (const bye of byes) {
    const t = tally(bye.player);
    t.points += scheme.bye;
    t.byes++;
  }
  for (const p of players) tally(p);
  for (const t of tallies.values()) t.points = clean(t.points);

  const pointsOf = (p: string) => tallies.get(p)!.points;
  const headToHead = headToHeadWithinPointGroups(tallies, results, placedAt);
  const values = new Map(
    players.map((p) => {
      const t = tallies.get(p)!;
      let opponents = 0;
      for (const r of t.tables) {
        const table = results[r]!.players;
        let sum = 0;
        for (const q of table) if (q !== p) sum += pointsOf(q);
        opponents += sum / Math.max(1, table.length - 1);
      }
      const record: Record<TieBreak, number> = {
        score: t.score,
        'opponents-points': clean(opponents),
        'head-to-head': headToHead.get(p) ?? 0,
        wins: t.wins,
      };
      return [p, record] as const;
    }),
  );
  const compare = (a: string, b: string) => {
    const byPoints = pointsOf(b) - pointsOf(a);
    if (byPoints !== 0) return byPoints;
    for (const name of tieBreaks) {
      const d = values.get(b)![name] - values.get(a)![name];
      if (d !== 0) return d;
    }
    return 0;
  };
  // Stable: players equal in everything keep the order they were given in.
  const order = [...players].sort(compare);
  let rank = 0;
  return order.map((p, i) => {
    const t = tallies.get(p)!;
    if (i === 0 || compare(order[i - 1]!, p) !== 0) rank = i + 1;
    return {
      player: p,
      rank,
      points: t.points,
      played: t.played,
      wins: t.wins,
      byes: t.byes,
      tieBreaks: values.get(p)!,
    };
  });
}

/** Head-to-head among players equal on points: at every table where two of them sat
 * together, the better place scores +1 and the worse −1 (equal places 0). Counted
 * within the group equal on points, whatever tie-breaks come before it. */
function headToHeadWithinPointGroups(
  tallies: ReadonlyMap<string, Tally>,
  results: readonly TableResult[],
  placedAt: readonly number[][],
) {
  const h2h = new Map<string, number>();
  results.forEach((result, r) => {
    const placed = placedAt[r]!;
    result.players.forEach((a, i) => {
      result.players.forEach((b, j) => {
        if (i === j || tallies.get(a)!.points !== tallies.get(b)!.points) return;
        const d = Math.sign(placed[j]! - placed[i]!);
        h2h.set(a, (h2h.get(a) ?? 0) + d);
      });
    });
  });
  return h2h;
}
