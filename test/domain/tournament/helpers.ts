// Playing tournaments without games: each table's places are drawn, so pairing and
// standings can be driven round after round (by the tests and by scripts/bench-pairing.ts).
import { serverChance, type Chance } from '../../../src/domain/chance.ts';
import type { Format } from '../../../src/domain/tournament/format.ts';
import { isComplete, pairRound, type Pairing } from '../../../src/domain/tournament/pairing.ts';
import type { TableResult } from '../../../src/domain/tournament/results.ts';

export const ids = (n: number) => Array.from({ length: n }, (_, i) => `p${String(i).padStart(4, '0')}`);

/** Drawn places for every table of `pairing` (now and then two players tie). */
export function drawnResults(pairing: Pairing, round: number, rng: Chance): TableResult[] {
  return pairing.tables.map((table, k) => {
    const order = rng.draw(table.players, table.players.length);
    const scores = table.players.map((p) => 100 - 10 * order.indexOf(p));
    if (rng.roll([false, false, false, true], 1)[0]) scores[0] = scores[1] ?? scores[0]!;
    const ranks = scores.map((s) => 1 + scores.filter((t) => t > s).length);
    return { tableId: `r${round}t${k}`, round, players: table.players, ranks, scores };
  });
}

export interface Played {
  readonly pairings: Pairing[];
  readonly results: TableResult[];
  readonly byes: { round: number; player: string }[];
}

/** Pairs and plays `rounds` rounds of `format` for `players`. Throws on a violation. */
export function playRounds(format: Format, players: readonly string[], rounds: number, seed = 'test'): Played {
  const rng = serverChance(seed, 'results');
  const played: Played = { pairings: [], results: [], byes: [] };
  for (let round = 1; round <= rounds; round++) {
    const pairing = pairRound({
      format,
      round,
      players: players.map((id) => ({ id })),
      results: played.results,
      byes: played.byes,
      seed,
    });
    if ('violation' in pairing) throw new Error(`round ${round}: ${pairing.violation}`);
    played.pairings.push(pairing);
    played.results.push(...drawnResults(pairing, round, rng));
    played.byes.push(...pairing.byes.map((player) => ({ round, player })));
  }
  return played;
}

/** Plays a knockout of `format` until its final; returns every round played. */
export function playKnockout(format: Format & { kind: 'knockout' }, players: readonly string[], seed = 'test'): Played {
  const rng = serverChance(seed, 'results');
  const played: Played = { pairings: [], results: [], byes: [] };
  for (let round = 1; !isComplete(format, round - 1, played.results, played.byes) || round === 1; round++) {
    if (round > 20) throw new Error('the knockout does not end');
    const pairing = pairRound({ format, round, players: players.map((id) => ({ id })), results: played.results, byes: played.byes, seed });
    if ('violation' in pairing) throw new Error(`round ${round}: ${pairing.violation}`);
    played.pairings.push(pairing);
    played.results.push(...drawnResults(pairing, round, rng).map((r, k) => (pairing.tables[k]!.placement ? { ...r, placement: true } : r)));
    played.byes.push(...pairing.byes.map((player) => ({ round, player })));
  }
  return played;
}
