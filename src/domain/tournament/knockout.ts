// Knockout by tables: who goes on from a finished round, and when it is over.
import type { Format } from './format.ts';
import { places, type TableResult } from './results.ts';
import { standings, type PointsScheme, type Standing, type TieBreak } from './standings.ts';

/**
 * The top `advance` of each table of `round`, by place; a tie at the cut goes to the
 * higher in-game score, then to `tieOrder` (lower first). Forfeited players and
 * players no longer `active` never go on: the next places move up, so the field
 * keeps its planned size unless a table has too few players left.
 */
export function advancers(
  results: readonly TableResult[],
  round: number,
  advance: number,
  active: ReadonlySet<string>,
  tieOrder: (player: string) => number,
): string[] {
  return results
    .filter((r) => r.round === round && r.placement !== true)
    .flatMap((result) => {
      const placed = places(result);
      const forfeited = new Set(result.forfeited ?? []);
      return result.players
        .map((player, i) => ({ player, place: placed[i]!, score: result.scores[i] ?? 0 }))
        .filter((p) => !forfeited.has(p.player) && active.has(p.player))
        .sort((a, b) => a.place - b.place || b.score - a.score || tieOrder(a.player) - tieOrder(b.player))
        .slice(0, advance)
        .map((p) => p.player);
    });
}

/** Knockout: whether `round` was the final, i.e. it had one table (besides a placement
 * table) and no bye, and that table has a result. Call it once every table of `round`
 * has finished. Swiss and rotation: whether `round` was the last of their `rounds`. */
export function isComplete(format: Format, round: number, results: readonly TableResult[], byes: readonly { readonly round: number }[] = []): boolean {
  if (format.kind !== 'knockout') return round >= format.rounds;
  return results.filter((r) => r.round === round && r.placement !== true).length === 1 && !byes.some((b) => b.round === round);
}

/**
 * A knockout's standings: by the stage reached (the last round a player sat at one of
 * its main tables or had a bye), then, among those knocked out in the same round, the
 * place at the placement table (who played one), then the place at the table of that
 * round (a bye counts as first: it goes on), then as `standings` orders them (points,
 * tie-breaks). Players equal in all of it share a rank.
 */
export function knockoutStandings(
  players: readonly string[],
  results: readonly TableResult[],
  byes: readonly { readonly round: number; readonly player: string }[],
  scheme?: PointsScheme,
  tieBreaks?: readonly TieBreak[],
): Standing[] {
  const base = standings(players, results, byes, scheme, tieBreaks);
  const stage = new Map(players.map((p) => [p, { reached: 0, placement: Infinity, place: Infinity }]));
  const reach = (player: string, round: number, place: number) => {
    const s = stage.get(player);
    if (s !== undefined && round > s.reached) Object.assign(s, { reached: round, place });
  };
  for (const result of results) {
    const placed = places(result);
    result.players.forEach((player, i) => {
      const s = stage.get(player);
      if (result.placement === true) {
        if (s !== undefined) s.placement = placed[i]!;
      } else reach(player, result.round, placed[i]!);
    });
  }
  for (const bye of byes) reach(bye.player, bye.round, 1);
  const baseRank = new Map(base.map((s) => [s.player, s.rank]));
  const key = (p: string) => {
    const s = stage.get(p)!;
    return [-s.reached, s.placement, s.place, baseRank.get(p)!];
  };
  const compare = (a: string, b: string) => {
    const [ka, kb] = [key(a), key(b)];
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! < kb[i]! ? -1 : 1;
    return 0;
  };
  const byPlayer = new Map(base.map((s) => [s.player, s]));
  const order = base.map((s) => s.player).sort(compare);
  let rank = 0;
  return order.map((p, i) => {
    if (i === 0 || compare(order[i - 1]!, p) !== 0) rank = i + 1;
    return { ...byPlayer.get(p)!, rank, reached: stage.get(p)!.reached };
  });
}
