// A knockout ranks by the stage reached, then by the place there: the final's second
// is second whatever points the earlier rounds gave; a placement table orders the
// players knocked out just before the final.
import t from 'tap';
import { knockoutStandings } from '../../../src/domain/tournament/knockout.ts';
import type { TableResult } from '../../../src/domain/tournament/results.ts';

const table = (tableId: string, round: number, players: string[], extra: Partial<TableResult> = {}): TableResult => ({
  tableId, round, players, ranks: players.map((_, i) => i + 1), scores: players.map((_, i) => 10 - i), ...extra,
});

t.test('the final decides the top places, not the points gathered on the way (issue 25, item 4)', async (t) => {
  // The case: p1 wins round 1 at a table of 4 (3 points) and is 3rd in the
  // final of 4 (1 point): 4; p2 is 2nd at a table of 3 (1.5) and 2nd in the final (2): 3.5.
  const results = [
    table('a', 1, ['p1', 'p4', 'p5', 'p6']),
    table('b', 1, ['p3', 'p2', 'p8']),
    table('final', 2, ['p3', 'p2', 'p1', 'p4']),
  ];
  const players = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p8'];
  const ranked = knockoutStandings(players, results, []);
  t.strictSame(ranked.slice(0, 4).map((s) => [s.player, s.rank, s.reached, s.points]), [['p3', 1, 2, 6], ['p2', 2, 2, 3.5], ['p1', 3, 2, 4], ['p4', 4, 2, 2]]);
  t.strictSame(ranked.slice(4).map((s) => [s.player, s.rank]), [['p5', 5], ['p8', 6], ['p6', 7]], 'then by the place at the round they went out in, then points');
});

t.test('a placement table orders those knocked out before the final; a bye counts as going on', async (t) => {
  const results = [
    table('s1', 1, ['a', 'b']),
    table('s2', 1, ['c', 'd']),
    table('final', 2, ['c', 'a']),
    table('third', 2, ['d', 'b'], { placement: true }),
  ];
  const ranked = knockoutStandings(['a', 'b', 'c', 'd'], results, []);
  t.strictSame(ranked.map((s) => [s.player, s.rank]), [['c', 1], ['a', 2], ['d', 3], ['b', 4]]);
  const byes = knockoutStandings(['a', 'b', 'c'], [table('r1', 1, ['a', 'b'])], [{ round: 1, player: 'c' }]);
  t.strictSame(byes.map((s) => [s.player, s.rank, s.reached]), [['a', 1, 1], ['c', 2, 1], ['b', 3, 1]], 'the bye and the winner both go on, then points part them');
});

t.test('a forfeit at the stage reached ranks last there', async (t) => {
  const results = [table('f', 1, ['a', 'b', 'c'], { forfeited: ['a'] })];
  t.strictSame(knockoutStandings(['a', 'b', 'c'], results, []).map((s) => s.player), ['b', 'c', 'a']);
});
