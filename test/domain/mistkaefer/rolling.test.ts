// A. Rolling: taking dice, placing one value, the order in a row, stealing, turns.
import t from 'tap';
import { isViolation } from '../../../src/domain/contract.ts';
import { suppliedChance } from '../../../src/domain/chance.ts';
import { mistkaefer } from '../../../src/domain/mistkaefer/index.ts';
import { after, afterFirstRound, codeOf, given, ok, place, roll, row, when } from './given.ts';

t.test('a player may take fewer than 4 dice even when 4 are available', async (t) => {
  const { state } = given(4);
  t.same(when(state, 0, roll('blue', 2), [6, 6]), [{ type: 'DiceRolled', seat: 0, colour: 'blue', values: [6, 6] }]);
  t.equal(codeOf(when(state, 0, roll('blue', 5))), 'mistkaefer/too-many-dice', 'never more than 4');
});

t.test('a colour with no dice left in the supply cannot be rolled', async (t) => {
  const { state } = row(given(2), 1, 'green', [1, 2, 3, 4, 5, 6]).turnTo(0);
  t.equal(state.dice.green, 0, '2 players: 6 dice per colour');
  t.equal(codeOf(when(state, 0, roll('green', 1))), 'mistkaefer/no-dice-left');
  t.notOk(mistkaefer.legalCommands(state, 0).some((c) => c.type === 'roll' && c.colour === 'green'));
});

t.test('only the active seat acts, and only in the right phase', async (t) => {
  const { state } = given(3);
  t.equal(codeOf(when(state, 1, roll('blue', 1))), 'mistkaefer/not-your-turn');
  const system = mistkaefer.decide(state, { type: 'score' }, { actor: { kind: 'system' }, now: 0, chance: suppliedChance([], 's') });
  t.equal(isViolation(system) && system.code, 'mistkaefer/not-your-turn', 'no deadlines, so the system never acts');
  t.equal(codeOf(when(state, 0, place(3))), 'mistkaefer/wrong-phase', 'place before rolling');
  const placing = after(state, when(state, 0, roll('blue', 2), [3, 4]));
  t.equal(codeOf(when(placing, 0, roll('blue', 1))), 'mistkaefer/wrong-phase', 'one roll per turn');
  t.equal(codeOf(when(placing, 0, { type: 'score' })), 'mistkaefer/wrong-phase', 'rolling or scoring, not both');
  t.equal(codeOf(when(placing, 0, place(5))), 'mistkaefer/value-not-rolled');
  const before = mistkaefer.initialState({ seats: 3, options: {} });
  t.equal(codeOf(when(before, 0, roll('blue', 1))), 'mistkaefer/not-running');
});

t.test('all dice showing the chosen value are placed, the rest go back', async (t) => {
  const { state } = given(2);
  const placing = after(state, when(state, 0, roll('yellow', 4), [2, 6, 2, 2]));
  const done = after(placing, when(placing, 0, place(2)));
  t.same(done.tableaus[0]!.yellow, [2, 2, 2]);
  t.equal(done.dice.yellow, 6 - 3);
});

t.test('an empty row takes any value; a row with dice only higher ones', async (t) => {
  const { state } = row(given(2), 0, 'blue', [4]);
  const placing = after(state, when(state, 0, roll('blue', 3), [4, 5, 1]));
  t.same(mistkaefer.legalCommands(placing, 0), [{ type: 'place', value: 5, stealFrom: [] }], 'the same value is not enough');
  t.equal(codeOf(when(placing, 0, place(4))), 'mistkaefer/value-not-higher');
});

t.test("no stealing in the 1st round, not even on the last seat's first turn", async (t) => {
  let state = given(2).state;
  state = after(state, when(state, 0, roll('yellow', 1), [3]));
  state = after(state, when(state, 0, place(3)));
  state = after(state, when(state, 1, roll('yellow', 1), [3]));
  t.same(mistkaefer.legalCommands(state, 1), [{ type: 'place', value: 3, stealFrom: [] }]);
  t.equal(codeOf(when(state, 1, place(3, [0]))), 'mistkaefer/no-stealing-in-first-round');
});

t.test('the 2nd round allows stealing', async (t) => {
  let state = given(2).state;
  state = after(state, when(state, 0, roll('yellow', 1), [3]));
  state = after(state, when(state, 0, place(3)));
  state = after(state, when(state, 1, roll('green', 1), [1]));
  state = after(state, when(state, 1, place(1)));
  state = after(state, when(state, 0, roll('green', 1), [1]));
  t.same(mistkaefer.legalCommands(state, 0), [
    { type: 'place', value: 1, stealFrom: [] },
    { type: 'place', value: 1, stealFrom: [1] },
  ]);
});

t.test('only one die per victim, never from yourself, each victim once', async (t) => {
  let g = given(4);
  g = row(g, 1, 'green', [5, 5]);
  g = row(g, 2, 'green', [5]);
  g = row(g, 0, 'green', [1]);
  g = afterFirstRound(g);
  const placing = after(g.state, when(g.state, 0, roll('green', 1), [5]));
  t.equal(codeOf(when(placing, 0, place(5, [1, 1]))), 'mistkaefer/cannot-steal');
  t.equal(codeOf(when(placing, 0, place(5, [0]))), 'mistkaefer/cannot-steal');
  t.equal(codeOf(when(placing, 0, place(5, [3]))), 'mistkaefer/cannot-steal', 'seat 3 has no green 5');
  const done = after(placing, when(placing, 0, place(5, [2, 1])));
  t.same(done.tableaus[0]!.green, [1, 5, 5, 5]);
  t.same([done.tableaus[1]!.green, done.tableaus[2]!.green], [[5], []]);
});

t.test('after a turn the next seat clockwise is up, wrapping around', async (t) => {
  const { state } = given(3).turnTo(2);
  const events = when(state, 2, { type: 'score' });
  t.same(ok(events).at(-1), { type: 'TurnEnded', seat: 2, next: 0 });
});

t.test('an extra turn in the 1st round is still without stealing', async (t) => {
  const { state } = given(2).then(
    { type: 'DiceRolled', seat: 1, colour: 'green', values: [5] },
    { type: 'DicePlaced', seat: 1, colour: 'green', value: 5, count: 1, stolenFrom: [], bonuses: [] },
    { type: 'TurnEnded', seat: 0, next: 0 },
  );
  const placing = after(state, when(state, 0, roll('green', 1), [5]));
  t.same(mistkaefer.legalCommands(placing, 0), [{ type: 'place', value: 5, stealFrom: [] }]);
  t.equal(codeOf(when(placing, 0, place(5, [1]))), 'mistkaefer/no-stealing-in-first-round');
});
