// Known pairings: Swiss groups by standing and spreads seeds in round 1, byes go to the
// bottom, a knockout runs down to one final table, and what cannot be paired says why.
import t from 'tap';
import type { Format } from '../../../src/domain/tournament/format.ts';
import { isComplete, pairRound, type Pairing, type PairingInput } from '../../../src/domain/tournament/pairing.ts';
import type { TableResult } from '../../../src/domain/tournament/results.ts';
import { ids, playKnockout, playRounds } from './helpers.ts';

const swiss = (min: number, max: number, byes = false): Format => ({ kind: 'swiss', rounds: 5, tableSize: { min, max }, byes });
const input = (format: Format, players: readonly string[], extra: Partial<PairingInput> = {}): PairingInput => ({
  format,
  round: 1,
  players: players.map((id) => ({ id })),
  results: [],
  byes: [],
  seed: 'examples',
  ...extra,
});
const paired = (x: Pairing | { violation: string }): Pairing => {
  if ('violation' in x) throw new Error(x.violation);
  return x;
};
/** Every table finishes in seat order: seat 0 first. */
const seatOrderResults = (pairing: Pairing, round: number): TableResult[] =>
  pairing.tables.map((table, k) => ({
    tableId: `r${round}t${k}`,
    round,
    players: table.players,
    ranks: table.players.map((_, i) => i + 1),
    scores: table.players.map((_, i) => 10 - i),
  }));
const sets = (pairing: Pairing) => pairing.tables.map((table) => [...table.players].sort()).sort((a, b) => (a[0]! < b[0]! ? -1 : 1));

t.test('Swiss round 2 seats the winners together, then the seconds, the thirds, the fourths', async (t) => {
  const players = ids(16);
  const round1 = paired(pairRound(input(swiss(4, 4), players)));
  const results = seatOrderResults(round1, 1);
  const round2 = paired(pairRound(input(swiss(4, 4), players, { round: 2, results })));
  const bySeat = (seat: number) => round1.tables.map((table) => table.players[seat]!).sort();
  t.strictSame(sets(round2), [bySeat(0), bySeat(1), bySeat(2), bySeat(3)].sort((a, b) => (a[0]! < b[0]! ? -1 : 1)));
  t.equal(round2.repeats, 0, 'each group comes from four different tables');
});

t.test('Swiss round 1 deals the seeds like cards, so the strongest sit apart', async (t) => {
  const players = ids(8).map((id, i) => ({ id, seed: 100 - i })); // p0000 strongest
  const round1 = paired(pairRound({ ...input(swiss(4, 4), []), players }));
  t.strictSame(sets(round1), [
    ['p0000', 'p0003', 'p0004', 'p0007'],
    ['p0001', 'p0002', 'p0005', 'p0006'],
  ]);
});

t.test('Swiss with byes: as many as the sizes need, to the lowest standing without a bye yet', async (t) => {
  const players = ids(10);
  const format = swiss(4, 4, true);
  const round1 = paired(pairRound(input(format, players.map((id) => id))));
  t.equal(round1.byes.length, 2);
  t.equal(round1.tables.length, 2);
  const results = seatOrderResults(round1, 1);
  const byes = round1.byes.map((player) => ({ round: 1, player }));
  const round2 = paired(pairRound(input(format, players, { round: 2, results, byes })));
  // The two fourths are last on 0 points (the byes have 1.5): they sit out now.
  const fourths = round1.tables.map((table) => table.players[3]!).sort();
  t.strictSame([...round2.byes].sort(), fourths);
  t.equal(paired(pairRound(input(swiss(4, 5, true), ids(9)))).byes.length, 0, 'sizes absorb it: 5 + 4, no bye');
});

t.test('a knockout of 64 at 4-player tables, top 2 go on: 16, 8, 4, 2 tables, then the final', async (t) => {
  const format = { kind: 'knockout', tableSize: { min: 4, max: 4 }, advance: 2 } as const;
  const played = playKnockout(format, ids(64));
  t.strictSame(played.pairings.map((p) => p.tables.length), [16, 8, 4, 2, 1]);
  for (let round = 2; round <= 5; round++) {
    const previous = played.results.filter((r) => r.round === round - 1);
    const topTwo = previous.flatMap((r) =>
      r.players
        .map((p, i) => ({ p, rank: r.ranks[i]!, score: r.scores[i]! }))
        .sort((a, b) => a.rank - b.rank || b.score - a.score)
        .slice(0, 2)
        .map((x) => x.p),
    );
    const seated = played.pairings[round - 1]!.tables.flatMap((table) => table.players);
    t.strictSame([...seated].sort(), topTwo.sort(), `round ${round} seats the top two of every table of round ${round - 1}`);
    t.notOk(isComplete(format, round - 1, played.results));
  }
  t.ok(isComplete(format, 5, played.results), 'the final has been played');
  t.strictSame(
    pairRound(input(format, ids(64), { round: 6, results: played.results })),
    { violation: 'round 5 was the final: the knockout is over' },
  );
});

t.test('knockout: forfeited and withdrawn players do not go on, the next move up; a tie at the cut goes to the higher score', async (t) => {
  const format = { kind: 'knockout', tableSize: { min: 2, max: 4 }, advance: 2 } as const;
  const results: TableResult[] = [
    { tableId: 'a', round: 1, players: ['a1', 'a2', 'a3', 'a4'], ranks: [1, 2, 2, 4], scores: [9, 5, 7, 1] },
    { tableId: 'b', round: 1, players: ['b1', 'b2', 'b3', 'b4'], ranks: [1, 2, 3, 4], scores: [9, 8, 7, 6], forfeited: ['b1'] },
    { tableId: 'c', round: 1, players: ['c1', 'c2', 'c3', 'c4'], ranks: [1, 2, 3, 4], scores: [9, 8, 7, 6] },
  ];
  const active = ['a1', 'a2', 'a3', 'a4', 'b1', 'b2', 'b3', 'b4', 'c2', 'c3', 'c4']; // c1 withdrew
  const round2 = paired(pairRound(input(format, active, { round: 2, results })));
  t.strictSame(round2.tables.flatMap((table) => table.players).sort(), ['a1', 'a3', 'b2', 'b3', 'c2', 'c3']);
  t.strictSame(round2.tables.map((table) => table.players.length), [3, 3]);
  const deserted = results.map((r) => (r.tableId === 'c' ? { ...r, forfeited: ['c2', 'c3', 'c4'] } : r));
  const round2b = paired(pairRound(input(format, active, { round: 2, results: deserted })));
  t.strictSame(round2b.tables.flatMap((table) => table.players).sort(), ['a1', 'a3', 'b2', 'b3'], 'table c has nobody left');
});

t.test('swiss and rotation are complete after their rounds', async (t) => {
  t.notOk(isComplete(swiss(4, 4), 4, []));
  t.ok(isComplete(swiss(4, 4), 5, []));
});

t.test('what cannot be paired is a violation that says why, never a throw', async (t) => {
  const four = swiss(4, 4);
  t.strictSame(pairRound(input(four, ['a', 'b', 'c', 'a'])), { violation: 'player "a" is listed twice' });
  t.strictSame(pairRound(input(four, ids(8), { round: 0 })), { violation: 'round must be a whole number from 1, not 0' });
  t.strictSame(pairRound(input(four, ids(8), { round: 6 })), { violation: 'the tournament has 5 rounds, so there is no round 6' });
  t.strictSame(pairRound(input(four, ids(10))), { violation: '10 players cannot be seated at tables of 4–4 without byes' });
  t.strictSame(pairRound(input(swiss(4, 4, true), ids(3))), { violation: '3 players are too few for a table of 4' });
  t.strictSame(pairRound(input({ kind: 'rotation', rounds: 2, tableSize: { min: 3, max: 3 }, byes: false }, ids(7))), {
    violation: '7 players cannot be seated at tables of 3–3 without byes',
  });
  const ko = { kind: 'knockout', tableSize: { min: 4, max: 4 }, advance: 2 } as const;
  t.strictSame(pairRound(input(ko, ids(16), { round: 2 })), { violation: 'round 1 has no results yet' });
});

t.test('a rotation of an odd field at 2-seat tables rotates its bye fairly: nobody sits out twice before all have once', async (t) => {
  const format: Format = { kind: 'rotation', rounds: 7, tableSize: { min: 2, max: 2 } };
  const played = playRounds(format, ids(7), 7);
  t.strictSame(played.pairings.map((p) => p.byes.length), Array(7).fill(1), 'one bye a round');
  t.strictSame([...new Set(played.byes.map((b) => b.player))].sort(), ids(7), 'seven rounds, seven different players sat out');
  const pairs = played.results.map((r) => [...r.players].sort().join('-'));
  t.ok(new Set(pairs).size >= pairs.length - 3, `few rematches: ${pairs.length - new Set(pairs).size}`);
  const more = playRounds({ ...format, rounds: 9 }, ids(7), 9);
  const counts = new Map<string, number>();
  for (const bye of more.byes) counts.set(bye.player, (counts.get(bye.player) ?? 0) + 1);
  t.ok([...counts.values()].every((c) => c >= 1 && c <= 2), 'nine rounds: each sat out once or twice');
});

t.test('a knockout of 7 at 2-seat tables: the top seed has the bye and goes on, down to a final and a match for third', async (t) => {
  const format = { kind: 'knockout', tableSize: { min: 2, max: 2 }, advance: 1, placement: true } as const;
  const players = ids(7).map((id, i) => ({ id, seed: 100 - i }));
  const round1 = paired(pairRound({ ...input(format, []), players }));
  t.strictSame(round1.byes, ['p0000'], 'the strongest seed sits out round 1 and goes on');
  t.equal(round1.tables.length, 3);
  const played = playKnockout(format, ids(7));
  t.strictSame(played.pairings.map((p) => [p.tables.length, p.byes.length]), [[3, 1], [2, 0], [2, 0]], 'then two semi-finals, then the final beside the match for third');
  const last = played.pairings[2]!;
  t.strictSame(last.tables.map((table) => table.placement ?? false), [false, true]);
  const semis = played.results.filter((r) => r.round === 2);
  const losers = semis.map((r) => r.players[r.ranks.indexOf(2)]!).sort();
  t.strictSame([...last.tables[1]!.players].sort(), losers, 'the semi-finals\' losers play for third');
  t.ok(isComplete(format, 3, played.results, played.byes));
  t.notOk(isComplete(format, 1, played.results, played.byes), 'a round of tables and a bye is no final');
});
