// B. Scoring, the end of the game, and an exhausted chip supply.
import t from 'tap';
import { mistkaefer } from '../../../src/domain/mistkaefer/index.ts';
import type { ChipKind } from '../../../src/domain/mistkaefer/vocabulary.ts';
import { after, codeOf, given, ok, row, when } from './given.ts';

const score = { type: 'score' } as const;
const many = (n: number, kind: ChipKind): ChipKind[] => Array(n).fill(kind);

t.test('scoring an empty tableau is allowed and earns nothing (it is the only pass)', async (t) => {
  t.same(when(given(2).state, 0, score), [
    { type: 'TableauScored', seat: 0, completeColumns: 0, diceRightOfLine: 0 },
    { type: 'TurnEnded', seat: 0, next: 1 },
  ]);
});

t.test('both white-chip columns score when complete; the 3rd column does not', async (t) => {
  let g = given(3);
  for (const colour of ['green', 'yellow', 'blue'] as const) g = row(g, 0, colour, [1, 2, 3]);
  const events = ok(when(g.state, 0, score, ['oneDungBall', 'oneDungBall']));
  t.same(events[0], { type: 'TableauScored', seat: 0, completeColumns: 2, diceRightOfLine: 0 });
  t.same(events[1], { type: 'ChipsTaken', seat: 0, count: 2, chips: ['oneDungBall', 'oneDungBall'] });
});

for (const [seats, dung] of [[2, 20], [3, 16], [4, 12]] as const) {
  t.test(`${seats} players: ${dung} dung balls win at once, ${dung - 1} do not`, async (t) => {
    const base = row(given(seats), 0, 'green', [1, 2, 3, 4, 5, 6]).chips(0, [
      ...many(dung - 3, 'oneDungBall'),
      'twoDungBalls',
    ]);
    const won = when(base.state, 0, score, ['oneDungBall']);
    t.same(ok(won).slice(1), [
      { type: 'ChipsTaken', seat: 0, count: 1, chips: ['oneDungBall'] },
      { type: 'GameWon', seat: 0 },
    ]);
    t.equal(after(base.state, won).phase, 'over');
    t.same(mistkaefer.result(after(base.state, won))?.breakdown?.[0], [
      { label: 'chip with one dung ball', count: dung - 2, points: 0 },
      { label: 'chip with two dung balls', count: 1, points: 0 },
      { label: 'chip with a clover leaf', count: 0, points: 0 },
      { label: `win: 4 clover leaves or ${dung} dung balls`, points: 1 },
    ], 'the result turns the chips face up, each face with its count');
    t.same(ok(when(base.state, 0, score, ['cloverLeaf'])).at(-1), { type: 'TurnEnded', seat: 0, next: 1 });
  });
}

t.test('4 clover leaves win, whatever the player count', async (t) => {
  const base = row(given(4), 0, 'green', [1, 2, 3, 4, 5, 6]).chips(0, many(3, 'cloverLeaf'));
  const won = after(base.state, when(base.state, 0, score, ['cloverLeaf']));
  t.equal(won.winner, 0);
  t.same(mistkaefer.result(won)?.winners, [0]);
  t.equal(mistkaefer.result(base.state), null, 'no result while the game runs');
  t.same(
    mistkaefer.result(won)?.breakdown?.[0],
    [
      { label: 'chip with one dung ball', count: 0, points: 0 },
      { label: 'chip with two dung balls', count: 0, points: 0 },
      { label: 'chip with a clover leaf', count: 4, points: 0 },
      { label: 'win: 4 clover leaves or 12 dung balls', points: 1 },
    ],
    "the winner's chips, face up in the result, and the goal they reached",
  );
  t.same(mistkaefer.result(won)?.breakdown?.[1]?.map((p) => p.count), [0, 0, 0], 'a seat without chips shows none');
  t.equal(codeOf(when(won, 1, score)), 'mistkaefer/not-running', 'nothing is accepted after the end');
});

t.test('a supply of 5 chips where 8 are earned: the first chip wins and the drawing stops', async (t) => {
  // The most chips four players can hold without anyone winning: 11 dung balls and
  // 3 clover leaves each. The 5 chips left are two-dung-ball chips.
  let g = given(4)
    .chips(0, many(11, 'oneDungBall'))
    .chips(1, [...many(11, 'oneDungBall'), ...many(3, 'cloverLeaf')])
    .chips(2, [...many(4, 'oneDungBall'), ...many(3, 'twoDungBalls'), ...many(3, 'cloverLeaf')])
    .chips(3, [...many(5, 'twoDungBalls'), ...many(3, 'cloverLeaf')]);
  for (const colour of ['green', 'yellow', 'blue'] as const) g = row(g, 0, colour, [1, 2, 3, 4, 5, 6, 6]);
  g = g.turnTo(0);
  t.same(g.state.chips, { oneDungBall: 0, twoDungBalls: 5, cloverLeaf: 0 });
  const events = when(g.state, 0, score, many(1, 'twoDungBalls'));
  t.same(ok(events), [
    { type: 'TableauScored', seat: 0, completeColumns: 2, diceRightOfLine: 6 },
    { type: 'ChipsTaken', seat: 0, count: 1, chips: many(1, 'twoDungBalls') },
    { type: 'GameWon', seat: 0 },
  ]);
});

t.test('interpretation: the scoring stops at the winning chip; the chips it would still earn are not drawn', async (t) => {
  let g = given(2);
  for (const colour of ['green', 'yellow', 'blue'] as const) g = row(g, 0, colour, [1, 2, 3, 4, 5, 6]);
  const base = g.chips(0, many(18, 'oneDungBall'));
  // Two chips supplied and both used (`when` checks): the table draws no third.
  const earned = ok(when(base.state, 0, score, many(2, 'oneDungBall')));
  t.same(earned.slice(1), [
    { type: 'ChipsTaken', seat: 0, count: 2, chips: ['oneDungBall', 'oneDungBall'] },
    { type: 'GameWon', seat: 0 },
  ], 'the 20th dung ball wins with the second chip of the scoring');
  const scored = earned[0] as { completeColumns: number; diceRightOfLine: number };
  t.ok(scored.completeColumns + scored.diceRightOfLine > 2, 'although the tableau earns more');
});
