// Bonus spaces: when they trigger, the order of two, and what each one does.
import t from 'tap';
import { mistkaefer, type State } from '../../../src/domain/mistkaefer/index.ts';
import type { Colour } from '../../../src/domain/mistkaefer/vocabulary.ts';
import { after, afterFirstRound, bonus, codeOf, given, ok, place, roll, row, when } from './given.ts';

// Edition 1: green 4 = oneChip, yellow 4 = extraTurn, yellow 6 = twoChips,
// blue 4 = stealChip, yellow 8 = stealChipFromEach.

t.test('a die landing on a bonus space gives the bonus at once', async (t) => {
  const { state } = row(given(2), 0, 'green', [1, 2, 3]);
  const placing = after(state, when(state, 0, roll('green', 1), [4]));
  const placed = when(placing, 0, place(4));
  t.same(placed, [{ type: 'DicePlaced', seat: 0, colour: 'green', value: 4, count: 1, stolenFrom: [], bonuses: ['oneChip'] }]);
  const waiting = after(placing, placed);
  t.same(mistkaefer.pending(waiting).seats, [0]);
  t.same(mistkaefer.legalCommands(waiting, 0), [bonus('oneChip')]);
  t.same(when(waiting, 0, bonus('oneChip'), ['cloverLeaf']), [
    { type: 'BonusResolved', seat: 0, bonus: 'oneChip' },
    { type: 'ChipsTaken', seat: 0, count: 1, chips: ['cloverLeaf'] },
    { type: 'TurnEnded', seat: 0, next: 1 },
  ]);
  t.equal(codeOf(when(waiting, 0, bonus('twoChips'))), 'mistkaefer/bonus-not-pending');
  t.equal(codeOf(when(waiting, 0, bonus('oneChip', 1))), 'mistkaefer/bad-victim', 'a chip bonus takes no victim');
});

t.test('a stolen die triggers the space it lands on; the space triggers again after a steal emptied it', async (t) => {
  let g = given(4);
  g = row(g, 1, 'green', [1, 2, 3, 5]);
  g = row(g, 0, 'green', [1, 2, 4]);
  g = afterFirstRound(g);
  const placing = after(g.state, when(g.state, 0, roll('green', 1), [5]));
  const placed = when(placing, 0, place(5, [1]));
  t.same(placed, [{ type: 'DicePlaced', seat: 0, colour: 'green', value: 5, count: 1, stolenFrom: [1], bonuses: ['oneChip'] }]);
  const thiefDone = after(after(placing, placed), when(after(placing, placed), 0, bonus('oneChip'), ['oneDungBall']));
  t.same(thiefDone.tableaus[1]!.green, [1, 2, 3], 'the victim\'s bonus space is empty again');
  const again = after(thiefDone, when(thiefDone, 1, roll('green', 1), [6]));
  t.same(when(again, 1, place(6)), [
    { type: 'DicePlaced', seat: 1, colour: 'green', value: 6, count: 1, stolenFrom: [], bonuses: ['oneChip'] },
  ]);
});

t.test('two bonuses at once are carried out in the order the player chooses; extra turn follows the turn', async (t) => {
  const { state } = row(given(3), 0, 'yellow', [1, 2, 3]);
  const placing = after(state, when(state, 0, roll('yellow', 3), [4, 4, 4]));
  const waiting = after(placing, when(placing, 0, place(4)));
  t.same(waiting.bonuses, ['extraTurn', 'twoChips']);
  t.same(mistkaefer.legalCommands(waiting, 0), [bonus('extraTurn'), bonus('twoChips')]);

  const chipsFirst = when(waiting, 0, bonus('twoChips'), ['oneDungBall', 'cloverLeaf']);
  t.same(chipsFirst, [
    { type: 'BonusResolved', seat: 0, bonus: 'twoChips' },
    { type: 'ChipsTaken', seat: 0, count: 2, chips: ['oneDungBall', 'cloverLeaf'] },
  ], 'the turn goes on while a bonus is waiting');
  const rest = after(waiting, chipsFirst);
  const turnEnds = when(rest, 0, bonus('extraTurn'));
  t.same(turnEnds, [
    { type: 'BonusResolved', seat: 0, bonus: 'extraTurn' },
    { type: 'TurnEnded', seat: 0, next: 0 },
  ]);
  const extra = after(rest, turnEnds);
  t.ok(mistkaefer.legalCommands(extra, 0).some((c) => c.type === 'roll' && c.colour === 'green'), 'also another colour');
  t.same(ok(when(extra, 0, { type: 'score' }, ['oneDungBall'])).at(-1), { type: 'TurnEnded', seat: 0, next: 1 }, 'one extra turn only');
});

// Rulebook: "After finishing their turn, the player has an extra turn", and a bonus is
// given "every time anew" a die is placed on its space. It sets no cap on extra turns.
t.test('an extra-turn space gives exactly one extra turn, not two', async (t) => {
  const { state } = row(given(3), 0, 'yellow', [1, 2, 3]);
  const placing = after(state, when(state, 0, roll('yellow', 1), [4]));
  const waiting = after(placing, when(placing, 0, place(4)));
  t.same(waiting.bonuses, ['extraTurn']);
  const resolved = ok(when(waiting, 0, bonus('extraTurn')));
  t.same(resolved, [
    { type: 'BonusResolved', seat: 0, bonus: 'extraTurn' },
    { type: 'TurnEnded', seat: 0, next: 0 },
  ]);
  t.equal(mistkaefer.view(after(waiting, resolved.slice(0, 1)), { kind: 'all' }).extraTurns, 1, 'one extra turn owed');
  const extra = after(waiting, resolved);
  t.equal(mistkaefer.view(extra, { kind: 'all' }).extraTurns, 0, 'it is being played: none is owed after it');
  // A placement without a bonus ends the extra turn like any other turn.
  const again = after(extra, when(extra, 0, roll('green', 1), [2]));
  t.same(ok(when(again, 0, place(2))).at(-1), { type: 'TurnEnded', seat: 0, next: 1 });
});

t.test('an extra turn can earn another: one per extra-turn space landed on, no cap', async (t) => {
  let g = given(3);
  g = row(g, 0, 'yellow', [1, 2, 3]);
  g = row(g, 0, 'green', [1, 2, 3, 4, 5]);
  const earn = (state: State, colour: Colour, value: number): State => {
    const placing = after(state, when(state, 0, roll(colour, 1), [value]));
    const waiting = after(placing, when(placing, 0, place(value)));
    t.same(waiting.bonuses, ['extraTurn'], `${colour} ${value} lands on the extra-turn space`);
    const resolved = ok(when(waiting, 0, bonus('extraTurn')));
    t.same(resolved.at(-1), { type: 'TurnEnded', seat: 0, next: 0 }, 'the seat plays again');
    return after(waiting, resolved);
  };
  const firstExtra = earn(g.state, 'yellow', 4);
  const secondExtra = earn(firstExtra, 'green', 6);
  t.equal(mistkaefer.view(secondExtra, { kind: 'all' }).extraTurns, 0, 'the first extra turn was used up, not stacked');
  t.same(ok(when(secondExtra, 0, { type: 'score' }, ['oneDungBall'])).at(-1), { type: 'TurnEnded', seat: 0, next: 1 });
});

t.test('steal one chip: blind from a player of the thief\'s choice', async (t) => {
  let g = given(3);
  g = row(g, 0, 'blue', [1, 2, 3]).chips(1, ['cloverLeaf', 'oneDungBall']).chips(2, ['twoDungBalls']);
  const placing = after(g.turnTo(0).state, when(g.turnTo(0).state, 0, roll('blue', 1), [4]));
  const waiting = after(placing, when(placing, 0, place(4)));
  t.same(mistkaefer.legalCommands(waiting, 0), [bonus('stealChip', 1), bonus('stealChip', 2)]);
  t.equal(codeOf(when(waiting, 0, bonus('stealChip'))), 'mistkaefer/bad-victim', 'someone has a chip: name them');
  const stolen = when(waiting, 0, bonus('stealChip', 1), ['oneDungBall']);
  t.same(stolen, [
    { type: 'BonusResolved', seat: 0, bonus: 'stealChip' },
    { type: 'ChipStolen', thief: 0, victim: 1, chip: 'oneDungBall' },
    { type: 'TurnEnded', seat: 0, next: 1 },
  ]);
  const done = after(waiting, stolen);
  t.same([done.hands[0], done.hands[1]], [['oneDungBall'], ['cloverLeaf']]);
});

t.test('steal one chip when nobody has a chip: one from the supply', async (t) => {
  const g = row(given(2), 0, 'blue', [1, 2, 3]);
  const placing = after(g.state, when(g.state, 0, roll('blue', 1), [4]));
  const waiting = after(placing, when(placing, 0, place(4)));
  t.same(mistkaefer.legalCommands(waiting, 0), [bonus('stealChip')]);
  t.equal(codeOf(when(waiting, 0, bonus('stealChip', 1))), 'mistkaefer/bad-victim');
  t.same(ok(when(waiting, 0, bonus('stealChip'), ['twoDungBalls'])).slice(1, 2), [
    { type: 'ChipsTaken', seat: 0, count: 1, chips: ['twoDungBalls'] },
  ]);
});

t.test('steal from every player: one blind chip from each who has any', async (t) => {
  const h = row(given(4), 0, 'yellow', [1, 2, 3, 4, 5, 5, 5]).chips(1, ['cloverLeaf']).chips(3, ['oneDungBall', 'twoDungBalls']).turnTo(0);
  t.equal(h.state.tableaus[0]!.yellow.length, 7);
  const placing = after(h.state, when(h.state, 0, roll('yellow', 1), [6]));
  const waiting = after(placing, when(placing, 0, place(6)));
  t.same(waiting.bonuses, ['stealChipFromEach']);
  t.same(when(waiting, 0, bonus('stealChipFromEach'), ['cloverLeaf', 'twoDungBalls']), [
    { type: 'BonusResolved', seat: 0, bonus: 'stealChipFromEach' },
    { type: 'ChipStolen', thief: 0, victim: 1, chip: 'cloverLeaf' },
    { type: 'ChipStolen', thief: 0, victim: 3, chip: 'twoDungBalls' },
    { type: 'TurnEnded', seat: 0, next: 1 },
  ]);
});

t.test('steal from every player goes clockwise from the thief', async (t) => {
  const h = row(given(4), 2, 'yellow', [1, 2, 3, 4, 5, 5, 5])
    .chips(0, ['cloverLeaf'])
    .chips(1, ['oneDungBall'])
    .chips(3, ['twoDungBalls'])
    .turnTo(2);
  const placing = after(h.state, when(h.state, 2, roll('yellow', 1), [6]));
  const waiting = after(placing, when(placing, 2, place(6)));
  t.same(waiting.bonuses, ['stealChipFromEach']);
  // Each outcome must be in the hand it is drawn from, so the order is checked too.
  t.same(ok(when(waiting, 2, bonus('stealChipFromEach'), ['twoDungBalls', 'cloverLeaf', 'oneDungBall'])).slice(1, 4), [
    { type: 'ChipStolen', thief: 2, victim: 3, chip: 'twoDungBalls' },
    { type: 'ChipStolen', thief: 2, victim: 0, chip: 'cloverLeaf' },
    { type: 'ChipStolen', thief: 2, victim: 1, chip: 'oneDungBall' },
  ]);
});

t.test('the thief may win by stealing; the game ends at once, later bonuses are void', async (t) => {
  let g = given(3);
  g = row(g, 0, 'yellow', [1, 2, 3, 4, 5]).chips(0, ['cloverLeaf', 'cloverLeaf', 'cloverLeaf']).chips(1, ['cloverLeaf']).turnTo(0);
  const placing = after(g.state, when(g.state, 0, roll('yellow', 3), [6, 6, 6]));
  const waiting = after(placing, when(placing, 0, place(6)));
  t.same(waiting.bonuses, ['twoChips', 'stealChipFromEach']);
  const won = when(waiting, 0, bonus('stealChipFromEach'), ['cloverLeaf']);
  t.same(won, [
    { type: 'BonusResolved', seat: 0, bonus: 'stealChipFromEach' },
    { type: 'ChipStolen', thief: 0, victim: 1, chip: 'cloverLeaf' },
    { type: 'GameWon', seat: 0 },
  ]);
  const over = after(waiting, won);
  t.same(mistkaefer.pending(over).seats, []);
  t.match(mistkaefer.result(over), { scores: [1, 0, 0], ranks: [1, 2, 2], winners: [0] });
  // The chips every seat ends with, turned face up: seat 1's clover leaf is the thief's now.
  t.same(
    mistkaefer.result(over)?.breakdown?.map((parts) => parts.map((p) => `${p.count ?? ''} ${p.label}: ${p.points}`)),
    [
      ['0 chip with one dung ball: 0', '0 chip with two dung balls: 0', '4 chip with a clover leaf: 0', ' win: 4 clover leaves or 16 dung balls: 1'],
      ['0 chip with one dung ball: 0', '0 chip with two dung balls: 0', '0 chip with a clover leaf: 0'],
      ['0 chip with one dung ball: 0', '0 chip with two dung balls: 0', '0 chip with a clover leaf: 0'],
    ],
  );
});
