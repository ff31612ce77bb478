// What the earlier rounds tell the pairing about the players of this round: who sat
// with whom and who started how often. Players are numbered 0..n-1 in the
// order given, so the pairing works on small integer arrays.
import type { TableResult } from './results.ts';

export interface History {
  readonly n: number;
  /** meetings[i * n + j]: how many tables players i and j shared before. */
  readonly meetings: Uint16Array;
  /** How often each player had seat 0 (started). */
  readonly starts: Int32Array;
  /** Each player's seats summed as a share of the way round (0 = first, 1 = last). */
  readonly lateness: Float64Array;
}

export function history(ids: readonly string[], results: readonly TableResult[]): History {
  const n = ids.length;
  const index = new Map(ids.map((id, i) => [id, i]));
  const meetings = new Uint16Array(n * n);
  const starts = new Int32Array(n);
  const lateness = new Float64Array(n);
  for (const result of results) {
    // Players no longer in the field (withdrawn) are dropped; their seats still count.
    const seats = result.players.map((p) => index.get(p));
    seats.forEach((i, seat) => {
      if (i === undefined) return;
      if (seat === 0) starts[i]!++;
      lateness[i]! += seats.length > 1 ? seat / (seats.length - 1) : 0;
      for (const j of seats) if (j !== undefined && j !== i) meetings[i * n + j]!++;
    });
  }
  return { n, meetings, starts, lateness };
}

/** Pairs at these tables who had met before. */
export function repeatPairs(tables: readonly (readonly number[])[], h: History): number {
  let repeats = 0;
  for (const table of tables) {
    for (let a = 0; a < table.length; a++) {
      for (let b = a + 1; b < table.length; b++) if (h.meetings[table[a]! * h.n + table[b]!]! > 0) repeats++;
    }
  }
  return repeats;
}
