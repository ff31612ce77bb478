// Standings: known values for points by place (ties, forfeits, byes, custom schemes)
// and each tie-break, then properties: a table's points add up to its scheme, tied
// players share, and the standings are a projection (order of results irrelevant).
import assert from 'node:assert/strict';
import fc from 'fast-check';
import t from 'tap';
import type { TableResult } from '../../../src/domain/tournament/results.ts';
import {
  defaultPointsScheme,
  placePoints,
  pointsSchemeSchema,
  standings,
  tablePoints,
  type PointsScheme,
} from '../../../src/domain/tournament/standings.ts';

const table = (round: number, players: string[], ranks: number[], scores?: number[], forfeited?: string[]): TableResult => ({
  tableId: `${round}:${players.join('')}`,
  round,
  players,
  ranks,
  scores: scores ?? players.map(() => 0),
  ...(forfeited ? { forfeited } : {}),
});

t.test('the default scheme: 3 for first down to 0 for last at every size, a bye the average 1.5', async (t) => {
  t.strictSame(placePoints(defaultPointsScheme, 4), [3, 2, 1, 0]);
  t.strictSame(placePoints(defaultPointsScheme, 3), [3, 1.5, 0]);
  t.strictSame(placePoints(defaultPointsScheme, 5), [3, 2.25, 1.5, 0.75, 0]);
  t.strictSame(placePoints(defaultPointsScheme, 2), [3, 0]);
  t.strictSame(placePoints(defaultPointsScheme, 7), [3, 2.5, 2, 1.5, 1, 0.5, 0]);
  t.equal(defaultPointsScheme.bye, 1.5);
});

t.test('the scheme schema (for the routes): points per place by table size and a bye, nothing else', async (t) => {
  t.ok(pointsSchemeSchema.safeParse({ byTableSize: { 4: [7, 5, 3, 1], 3: [7, 4, 1] }, bye: 4 }).success);
  t.ok(pointsSchemeSchema.safeParse({ bye: 1.5 }).success);
  t.notOk(pointsSchemeSchema.safeParse({ bye: 1.5, win: 3 }).success, 'unknown key');
  t.notOk(pointsSchemeSchema.safeParse({ byTableSize: { four: [3, 2, 1, 0] }, bye: 1 }).success, 'sizes are numbers');
  t.notOk(pointsSchemeSchema.safeParse({ byTableSize: { 4: [3, -1] }, bye: 1 }).success, 'no negative points');
});

t.test('tied players share the points of the places they occupy together', async (t) => {
  t.strictSame(tablePoints(table(1, ['a', 'b', 'c', 'd'], [1, 1, 3, 4]), defaultPointsScheme), [2.5, 2.5, 1, 0]);
  t.strictSame(tablePoints(table(1, ['a', 'b', 'c', 'd'], [1, 2, 2, 2]), defaultPointsScheme), [3, 1, 1, 1]);
  t.strictSame(tablePoints(table(1, ['a', 'b', 'c', 'd'], [1, 2, 2, 4]), defaultPointsScheme), [3, 1.5, 1.5, 0]);
  t.strictSame(tablePoints(table(1, ['a', 'b', 'c', 'd'], [1, 2, 2, 3]), defaultPointsScheme), [3, 1.5, 1.5, 0], 'dense ranks mean the same');
  t.strictSame(tablePoints(table(1, ['a', 'b', 'c'], [1, 1, 1]), defaultPointsScheme), [1.5, 1.5, 1.5]);
});

t.test('forfeits rank last, below everyone who played on, and share the last places', async (t) => {
  t.strictSame(tablePoints(table(1, ['a', 'b', 'c', 'd'], [1, 2, 3, 4], undefined, ['a']), defaultPointsScheme), [0, 3, 2, 1]);
  t.strictSame(tablePoints(table(1, ['a', 'b', 'c', 'd'], [1, 2, 3, 4], undefined, ['a', 'c']), defaultPointsScheme), [0.5, 3, 0.5, 2]);
  const [a] = standings(['a', 'b'], [table(1, ['a', 'b', 'c', 'd'], [1, 2, 3, 4], undefined, ['a'])], []).filter((s) => s.player === 'a');
  t.match(a, { points: 0, played: 1, wins: 0 }, 'a forfeit is played but never a win');
});

t.test("a forfeited seat's in-game score, a bot's from the start or from the withdrawal on, is not its player's (issue 25, item 7)", async (t) => {
  const played = standings(['a', 'b', 'c'], [table(1, ['a', 'b', 'c'], [1, 2, 3], [40, 25, 10], ['a'])], []);
  t.strictSame(played.map((s) => [s.player, s.tieBreaks.score]), [['b', 25], ['c', 10], ['a', 0]]);
  const botPlayedOn = standings(['a', 'b', 'c'], [{ ...table(1, ['a', 'b', 'c'], [1, 2, 3], [40, 25, 10]), absent: ['a'] }], []);
  t.strictSame(botPlayedOn.map((s) => [s.player, s.points, s.tieBreaks.score]), [['a', 3, 0], ['b', 1.5, 25], ['c', 0, 10]], "a no-show whose seat a bot played on (action bot) keeps the bot's place, not its score");
});

t.test('a custom scheme per table size, the default for sizes it does not list, and its bye', async (t) => {
  const scheme: PointsScheme = { byTableSize: { 4: [7, 5, 3, 1] }, bye: 4 };
  const results = [table(1, ['a', 'b', 'c', 'd'], [1, 2, 3, 4]), table(2, ['a', 'b', 'c'], [3, 2, 1])];
  const rows = standings(['a', 'b', 'c', 'd'], results, [{ round: 2, player: 'd' }], scheme);
  t.strictSame(
    rows.map((s) => [s.player, s.points, s.played, s.byes]),
    [
      ['a', 7, 2, 0],
      ['b', 6.5, 2, 0],
      ['c', 6, 2, 0],
      ['d', 5, 1, 1],
    ],
  );
});

// Four players over two rounds of 3-player tables plus byes, built so that a, b and c
// end equal on points and each tie-break orders them differently.
//   round 1: a 1st, b 2nd, d 3rd           (c bye, 1.5)
//   round 2: c 1st, d 2nd, b 3rd           (a bye, 1.5)
//   round 3: b 1st, a 2nd, c 3rd           (d bye, 1.5)
// points: a 3+1.5+1.5 = 6, b 1.5+0+3 = 4.5, c 1.5+3+0 = 4.5, d 0+1.5+1.5 = 3
const rounds = [
  table(1, ['a', 'b', 'd'], [1, 2, 3], [30, 20, 10]),
  table(2, ['c', 'd', 'b'], [1, 2, 3], [50, 20, 5]),
  table(3, ['b', 'a', 'c'], [1, 2, 3], [25, 15, 5]),
];
const byes = [
  { round: 1, player: 'c' },
  { round: 2, player: 'a' },
  { round: 3, player: 'd' },
];

t.test('known standings: points, wins, byes, score sums and opponents\' points', async (t) => {
  const rows = standings(['a', 'b', 'c', 'd'], rounds, byes);
  // b before c: equal on points, b's opponents have more (the first default tie-break)
  t.strictSame(
    rows.map((s) => ({ player: s.player, points: s.points, wins: s.wins, byes: s.byes, played: s.played })),
    [
      { player: 'a', points: 6, wins: 1, byes: 1, played: 2 },
      { player: 'b', points: 4.5, wins: 1, byes: 0, played: 3 },
      { player: 'c', points: 4.5, wins: 1, byes: 1, played: 2 },
      { player: 'd', points: 3, wins: 0, byes: 1, played: 2 },
    ],
  );
  const by = Object.fromEntries(rows.map((s) => [s.player, s.tieBreaks]));
  t.equal(by.b!.score, 50);
  t.equal(by.c!.score, 55);
  // b met (a, d), (c, d), (a, c): means of opponents' points 4.5, 3.75, 5.25
  t.equal(by.b!['opponents-points'], 13.5);
  // c met (d, b), (b, a): 3.75 + 5.25
  t.equal(by.c!['opponents-points'], 9);
  // b and c are equal on points; they met twice: c ahead in round 2, b ahead in round 3
  t.equal(by.b!['head-to-head'], 0);
  t.equal(by.c!['head-to-head'], 0);
  t.equal(by.a!['head-to-head'], 0, 'nobody else has 6 points');
});

t.test('each tie-break decides on its own, in the order given; equal in all shares a rank', async (t) => {
  const order = (tieBreaks: Parameters<typeof standings>[4]) =>
    standings(['a', 'b', 'c', 'd'], rounds, byes, defaultPointsScheme, tieBreaks).map((s) => `${s.rank}${s.player}`);
  t.strictSame(order(['opponents-points']), ['1a', '2b', '3c', '4d']);
  t.strictSame(order(['score']), ['1a', '2c', '3b', '4d']);
  t.strictSame(order(['head-to-head', 'wins']), ['1a', '2b', '2c', '4d'], 'equal on both: shared rank, given order');
  t.strictSame(order([]), ['1a', '2b', '2c', '4d']);
  t.strictSame(order(['head-to-head', 'score']), ['1a', '2c', '3b', '4d'], 'the next tie-break decides');
});

t.test('head-to-head counts the places between players equal on points where they met', async (t) => {
  // A cycle: x beats y, y beats z, z beats x; all on 3 points, head-to-head even.
  const cycle = [table(1, ['x', 'y'], [1, 2]), table(2, ['y', 'z'], [1, 2]), table(3, ['z', 'x'], [1, 2])];
  const h2h = (results: TableResult[]) =>
    standings(['x', 'y', 'z'], results, [], defaultPointsScheme, ['head-to-head']).map((s) => [s.player, s.points, s.tieBreaks['head-to-head']]);
  t.strictSame(h2h(cycle), [
    ['x', 3, 0],
    ['y', 3, 0],
    ['z', 3, 0],
  ]);
  // x beats y again: x is alone on 6; y and z are equal on 3, and y beat z when they met.
  t.strictSame(h2h([...cycle, table(4, ['x', 'y'], [1, 2])]), [
    ['x', 6, 0],
    ['y', 3, 1],
    ['z', 3, -1],
  ]);
});

const results = fc
  .array(
    fc.record({
      players: fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'), { minLength: 2, maxLength: 8 }),
      ranks: fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 8, maxLength: 8 }),
      scores: fc.array(fc.integer({ min: -5, max: 50 }), { minLength: 8, maxLength: 8 }),
      forfeits: fc.nat(3),
    }),
    { maxLength: 12 },
  )
  .map((tables) =>
    tables.map(({ players, ranks, scores, forfeits }, k): TableResult => ({
      tableId: `t${k}`,
      round: k + 1,
      players,
      ranks: ranks.slice(0, players.length),
      scores: scores.slice(0, players.length),
      forfeited: players.slice(0, Math.min(forfeits, players.length - 1)),
    })),
  );

t.test('properties: points per table = the scheme\'s sum, ties share, totals add up, order of results irrelevant', async (t) => {
  const all = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
  fc.assert(
    fc.property(results, fc.array(fc.constantFrom(...all), { maxLength: 4 }), (tables, byePlayers) => {
      let total = 0;
      for (const result of tables) {
        const points = tablePoints(result, defaultPointsScheme);
        const scheme = placePoints(defaultPointsScheme, result.players.length).reduce((a, b) => a + b, 0);
        assert.ok(Math.abs(points.reduce((a, b) => a + b, 0) - scheme) < 1e-9, 'a table gives out its scheme');
        total += scheme;
        const forfeited = new Set(result.forfeited);
        result.players.forEach((p, i) =>
          result.players.forEach((q, j) => {
            if (forfeited.has(p) !== forfeited.has(q)) {
              if (forfeited.has(p)) assert.ok(points[i]! <= points[j]!, 'a forfeit never scores above a player');
            } else if (forfeited.has(p) || result.ranks[i] === result.ranks[j]) {
              assert.equal(points[i], points[j], 'ties share');
            } else if (result.ranks[i]! < result.ranks[j]!) assert.ok(points[i]! >= points[j]!, 'better place, no fewer points');
          }),
        );
      }
      const byes = byePlayers.map((player, k) => ({ round: k + 1, player }));
      total += byes.length * defaultPointsScheme.bye;
      const rows = standings(all, tables, byes);
      assert.deepEqual(rows.map((s) => s.player).sort(), all);
      assert.ok(Math.abs(rows.reduce((a, s) => a + s.points, 0) - total) < 1e-6, 'all points add up');
      rows.forEach((s, i) => {
        if (i > 0) assert.ok(rows[i - 1]!.points >= s.points, 'sorted by points');
        if (i > 0) assert.ok(rows[i - 1]!.rank <= s.rank, 'ranks ascend');
      });
      assert.deepEqual(standings(all, [...tables].reverse(), [...byes].reverse()), rows, 'a projection');
    }),
    { numRuns: 300 },
  );
  t.pass('held on every generated set of results');
});
