// Knockout by tables: who goes on from a finished round, and when it is over.
import type { Format } from './format.ts';
import { places, type TableResult } from './results.ts';

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
    .filter((r) => r.round === round)
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

/** Knockout: whether `round` was the final, i.e. its one table has a result. Call it
 * once every table of `round` has finished. Swiss and rotation: whether `round` was
 * the last of their `rounds`. */
export function isComplete(format: Format, round: number, results: readonly TableResult[]): boolean {
  if (format.kind !== 'knockout') return round >= format.rounds;
  return results.filter((r) => r.round === round).length === 1;
}
