// The rulebook's worked examples, played exactly with the referee's dice and chips.
// Karl is seat 0, Marie seat 1, Willi seat 2.
import t from 'tap';
import { mistkaefer } from '../../../src/domain/mistkaefer/index.ts';
import { afterFirstRound, after, codeOf, given, place, roll, row, when } from './given.ts';

const [karl, marie, willi] = [0, 1, 2];

t.test('Karl rolls with green: not the 1 (his green 1 lies there), both 3s', async (t) => {
  const { state } = row(given(3), karl, 'green', [1]);
  const rolled = when(state, karl, roll('green', 4), [1, 3, 3, 5]);
  t.same(rolled, [{ type: 'DiceRolled', seat: karl, colour: 'green', values: [1, 3, 3, 5] }]);
  const placing = after(state, rolled);
  t.same(
    mistkaefer.legalCommands(placing, karl).map((c) => c.type === 'place' && c.value),
    [3, 5],
    'the 1 is not higher than the green 1 already lying there',
  );
  t.equal(codeOf(when(placing, karl, place(1))), 'mistkaefer/value-not-higher');

  const placed = when(placing, karl, place(3));
  t.same(placed, [
    { type: 'DicePlaced', seat: karl, colour: 'green', value: 3, count: 2, stolenFrom: [], bonuses: [] },
    { type: 'TurnEnded', seat: karl, next: marie },
  ]);
  const done = after(placing, placed);
  t.same(done.tableaus[karl]!.green, [1, 3, 3]);
  t.equal(done.dice.green, 8 - 1 - 2, 'the 1 and the 5 went back to the supply');

  const withFive = after(placing, when(placing, karl, place(5)));
  t.same(withFive.tableaus[karl]!.green, [1, 5], 'the 5 was possible too');
  const later = row(given(3), karl, 'green', [1, 5]).state;
  const onlySixes = after(later, when(later, karl, roll('green', 4), [1, 5, 5, 6]));
  t.same(mistkaefer.legalCommands(onlySixes, karl), [{ type: 'place', value: 6, stealFrom: [] }], 'after the 5 only green 6s');
});

t.test('Karl steals with yellow: Marie\'s 2 is protected by her 4, Willi loses his right 2', async (t) => {
  let g = given(3);
  g = row(g, marie, 'yellow', [2, 4]);
  g = row(g, willi, 'yellow', [2, 2]);
  g = afterFirstRound(g);
  const placing = after(g.state, when(g.state, karl, roll('yellow', 3), [2, 1, 5]));

  t.same(mistkaefer.legalCommands(placing, karl), [
    { type: 'place', value: 1, stealFrom: [] },
    { type: 'place', value: 2, stealFrom: [] },
    { type: 'place', value: 2, stealFrom: [willi] },
    { type: 'place', value: 5, stealFrom: [] },
  ]);
  t.equal(codeOf(when(placing, karl, place(2, [marie]))), 'mistkaefer/cannot-steal', 'protected by the 4');

  const placed = when(placing, karl, place(2, [willi]));
  t.same(placed, [
    { type: 'DicePlaced', seat: karl, colour: 'yellow', value: 2, count: 1, stolenFrom: [willi], bonuses: [] },
    { type: 'TurnEnded', seat: karl, next: marie },
  ]);
  const done = after(placing, placed);
  t.same(done.tableaus[karl]!.yellow, [2, 2], 'the stolen die joins Karl\'s row');
  t.same(done.tableaus[willi]!.yellow, [2], 'only one of Willi\'s two 2s');
  t.same(done.tableaus[marie]!.yellow, [2, 4]);

  const withOne = after(placing, when(placing, karl, place(1)));
  t.same(withOne.tableaus[karl]!.yellow, [1], 'had Karl chosen the 1 he could only place one die');
});

t.test('Karl has bad luck with the last three blue dice', async (t) => {
  let g = given(3);
  g = row(g, karl, 'blue', [2, 4, 5, 5]);
  g = row(g, karl, 'green', [1, 2, 3, 4, 5, 6]);
  g = row(g, karl, 'yellow', [1, 2, 3, 4, 5, 6, 6]);
  g = row(g, marie, 'blue', [3]).turnTo(karl);
  const state = g.state;
  t.equal(state.dice.blue, 3, 'only three blue dice are left');
  t.equal(codeOf(when(state, karl, roll('blue', 4))), 'mistkaefer/too-many-dice');

  const events = when(state, karl, roll('blue', 3), [5, 3, 1]);
  t.same(events, [
    { type: 'DiceRolled', seat: karl, colour: 'blue', values: [5, 3, 1] },
    { type: 'BadLuck', seat: karl, colour: 'blue', returned: { green: 1, yellow: 2, blue: 4 } },
    { type: 'TurnEnded', seat: karl, next: marie },
  ]);
  const done = after(state, events);
  t.same(done.tableaus[karl], { green: [1, 2, 3, 4, 5], yellow: [1, 2, 3, 4, 5], blue: [] });
  t.same(done.dice, { green: 8 - 5, yellow: 8 - 5, blue: 8 - 1 }, 'rolled and returned dice are all back');
  t.same(done.tableaus[marie]!.blue, [3], 'other players keep their dice');
});

t.test('Karl scores 4 chips: the complete 1st column and 3 dice right of the white line', async (t) => {
  let g = given(3);
  g = row(g, karl, 'green', [1, 2, 3, 4, 5, 6]);
  g = row(g, karl, 'yellow', [3]);
  g = row(g, karl, 'blue', [1, 2, 3, 4, 5, 6, 6]);
  const events = when(g.state, karl, { type: 'score' }, ['cloverLeaf', 'oneDungBall', 'twoDungBalls', 'oneDungBall']);
  t.same(events, [
    { type: 'TableauScored', seat: karl, completeColumns: 1, diceRightOfLine: 3 },
    { type: 'ChipsTaken', seat: karl, count: 4, chips: ['cloverLeaf', 'oneDungBall', 'twoDungBalls', 'oneDungBall'] },
    { type: 'TurnEnded', seat: karl, next: marie },
  ]);
  const done = after(g.state, events);
  t.same(done.tableaus[karl], { green: [], yellow: [], blue: [] }, 'all dice back to the middle');
  t.same(done.dice, { green: 8, yellow: 8, blue: 8 });
  t.equal(done.hands[karl]!.length, 4);
});
