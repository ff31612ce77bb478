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
  /** Players who forfeited (no-show / withdrawn mid-game): they rank last, and a bot's
   * in-game score on their seat is not theirs. */
  readonly forfeited?: readonly string[];
  /** Players who never played the table (no-shows): it is not rated for them. */
  readonly absent?: readonly string[];
  /** A knockout's table for the places after the final's, played beside it. */
  readonly placement?: boolean;
}

/**
 * The place of each player (same order as `result.players`), 1 = first, as standard
 * competition ranking (1, 1, 3): only the order of the reported ranks counts, so dense
 * ranks (1, 1, 2) mean the same. Forfeited players share the last place, below everyone
 * who played on, whatever rank the game gave them.
 */
export function places(result: TableResult): number[] {
  const { players, ranks } = result;
  const out = result.forfeited?.length ? players.map((p) => result.forfeited!.includes(p)) : null;
  const rankOf = (i: number) => ranks[i] ?? Infinity;
  let playing = players.length;
  if (out) for (const o of out) if (o) playing--;
  return players.map((_, i) => {
    if (out?.[i]) return playing + 1;
    let ahead = 0;
    for (let j = 0; j < players.length; j++) if (!out?.[j] && rankOf(j) < rankOf(i)) ahead++;
    return ahead + 1;
  });
}
