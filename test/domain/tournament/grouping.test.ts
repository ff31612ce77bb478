// The two searches behind the pairing, on small fields whose earlier rounds were
// seated at random or by the Swiss pairing itself (with one more player, who then
// withdrew): the exhaustive one must find the fewest
// rematches brute force finds; the local search (used above 20,000 arrangements)
// never beats that (a sanity check of the counting) and must match it nearly always.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import t from 'tap';
import { serverChance } from '../../../src/domain/chance.ts';
import { tableSizes } from '../../../src/domain/tournament/format.ts';
import { arrange, Grouping } from '../../../src/domain/tournament/grouping.ts';
import { history, repeatPairs } from '../../../src/domain/tournament/history.ts';
import type { TableResult } from '../../../src/domain/tournament/results.ts';
import { standings } from '../../../src/domain/tournament/standings.ts';
import { fewestRematches } from './brute-force.ts';
import { ids, playRounds } from './helpers.ts';

const field = fc
  .record({
    n: fc.integer({ min: 4, max: 10 }),
    min: fc.integer({ min: 2, max: 5 }),
    span: fc.nat(2),
    rounds: fc.integer({ min: 1, max: 5 }),
    seed: fc.string(),
    played: fc.boolean(),
  })
  .map(({ n, min, span, rounds, seed, played }) => ({ n, size: { min, max: Math.min(8, min + span) }, rounds, seed, played }))
  .filter(({ n, size }) => tableSizes(n, size) !== null);

/** `rounds` earlier rounds, each the field shuffled and cut into the same table sizes. */
function randomHistory(n: number, sizes: readonly number[], rounds: number, seed: string): TableResult[] {
  const rng = serverChance(seed, 'history');
  const players = ids(n);
  return Array.from({ length: rounds }, (_, r) => {
    const order = rng.draw(players, n);
    let k = 0;
    return sizes.map((size, i) => {
      const seated = order.slice(k, (k += size));
      return { tableId: `${r}.${i}`, round: r + 1, players: seated, ranks: seated.map((_, j) => j + 1), scores: seated.map(() => 0) };
    });
  }).flat();
}

t.test('exhaustive search = brute force; local search ≥ brute force, and equal in at least 99% of fields', async (t) => {
  let fields = 0;
  let localMisses = 0;
  let worstExcess = 0;
  fc.assert(
    fc.property(field, ({ n, size, rounds, seed, played }) => {
      const sizes = tableSizes(n, size)!;
      const results = played
        ? // one more player, who then withdraws: the field's meetings no longer fit its tables
          playRounds({ kind: 'swiss', rounds, tableSize: size, byes: true }, ids(n + 1), rounds, seed).results
        : randomHistory(n, sizes, rounds, seed);
      const players = played ? standings(ids(n), results, []).map((s) => s.player) : ids(n);
      const h = history(players, results);
      const met = (a: string, b: string) => h.meetings[players.indexOf(a) * n + players.indexOf(b)]! > 0;
      const best = fewestRematches(players, sizes, met);
      // As the Swiss pairing does after played rounds: standing and points count too.
      const points = played ? Float64Array.from(standings(players, results, []), (s) => s.points) : undefined;
      const grouping = new Grouping(h, { points, byStanding: played, window: 8, candidates: 3 * size.max });
      const order = players.map((_, i) => i);
      const rng = serverChance(seed, 'search');
      const shuffle = (xs: readonly number[]) => rng.draw(xs, xs.length);
      assert.equal(repeatPairs(arrange(grouping, order, sizes, shuffle), h), best, 'exhaustive');
      const local = repeatPairs(arrange(grouping, order, sizes, shuffle, 0), h);
      assert.ok(local >= best, 'nothing beats brute force');
      fields++;
      if (local > best) localMisses++;
      worstExcess = Math.max(worstExcess, local - best);
    }),
    { numRuns: Number(process.env.RUNS ?? 300), seed: process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined },
  );
  t.comment(`local search alone missed the fewest rematches in ${localMisses} of ${fields} fields, by at most ${worstExcess}`);
  t.ok(localMisses <= fields * 0.01, `local search: ${localMisses} misses in ${fields}`);
});
