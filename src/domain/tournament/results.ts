// A finished table as the tournament sees it, and the places it gives: forfeits rank
// last, and tied players share a place.

export interface TableResult {
  /** E.g. the game id. */
  readonly tableId: string;
  /** 1-based. */
  readonly round: number;
  /** Player ids in seat order (seat 0 starts). */
  readonly players: readonly string[];
  /** Rank per player, same order as players: 1 = first; ties share a rank. */
  readonly ranks: readonly number[];
  /** In-game score per player, same order (for tie-breaks). */
  readonly scores: readonly number[];
  /** Players who forfeited (no-show / withdrawn mid-game): they rank last. */
  readonly forfeited?: readonly string[];
}

/**
 * The place of each player (same order as `result.players`), 1 = first, as standard
 * competition ranking (1, 1, 3): only the order of the reported ranks counts, so dense
 * ranks (1, 1, 2) mean the same. Forfeited players share the last place, below everyone
 * who played on, whatever rank the game gave them.
 */
export function places(result: TableResult): number[] {
  const forfeited = new Set(result.forfeited ?? []);
  const playing = result.players.flatMap((p, i) => (forfeited.has(p) ? [] : [result.ranks[i] ?? Infinity]));
  return result.players.map((p, i) => {
    if (forfeited.has(p)) return playing.length + 1;
    const rank = result.ranks[i] ?? Infinity;
    return 1 + playing.filter((r) => r < rank).length;
  });
}
