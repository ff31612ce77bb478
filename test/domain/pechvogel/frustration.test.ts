// "Frustration": reducing, getting frustrated, the outcomes, and the frustrating details.
import t from 'tap';
import { pechvogel } from '../../../src/domain/pechvogel/index.ts';
import { attempt, codeOf, frustrations, given, lastEvents, NOW, play, R, sixesUnderWay } from './helpers.ts';

const WINDOW = 20_000; // the default reactionSeconds

t.test('a throw with ravens or target opens a reaction window for whoever could reroll it', async (t) => {
  const g = play(sixesUnderWay([1, 1, 0]), 0, { type: 'throw' }, [6, 3, 4, 5]);
  t.match(g.events.at(-1), { type: 'DiceThrown', reactionDeadline: NOW + WINDOW });
  t.same(pechvogel.pending(g.state), { seats: [0, 1], deadline: NOW + WINDOW }, 'seat 2 holds no frustration');
  t.same(pechvogel.legalCommands(g.state, 0), [{ type: 'reduce' }, { type: 'pass' }]);
  t.same(pechvogel.legalCommands(g.state, 1), [{ type: 'frustrate' }, { type: 'pass' }]);
  t.equal(codeOf(attempt(g, 2, { type: 'frustrate' })), 'pechvogel/no-frustration', 'needs one to put on the board');
  t.equal(codeOf(attempt(g, 2, { type: 'pass' })), 'pechvogel/not-reacting');
  t.equal(codeOf(attempt(g, 0, { type: 'throw' }, [3, 3, 3])), 'pechvogel/wrong-phase', 'no throwing while the window is open');
  const passed = play(play(g, 1, { type: 'pass' }), 0, { type: 'pass' });
  t.same(lastEvents(g, passed).at(-1), { type: 'ReactionClosed', timedOut: false });
  t.match(passed.state, { phase: 'throw', turn: { targetsOnBoard: 3 } }, 'the throw stands');
});

t.test('reduce: return one frustration to the supply and reroll the last throw', async (t) => {
  const g = play(sixesUnderWay([2, 1]), 0, { type: 'throw' }, [R, R, 3, 4]);
  t.equal(g.state.turn!.ravensOnBoard, 3, 'this throw would end the turn');
  t.equal(codeOf(attempt(g, 1, { type: 'reduce' })), 'pechvogel/not-your-turn');
  const reduced = play(g, 0, { type: 'reduce' });
  t.same(lastEvents(g, reduced), [{ type: 'FrustrationReduced', seat: 0 }]);
  t.same(frustrations(reduced), [1, 1], 'returned to the supply, not the board');
  t.match(reduced.state.turn, { ravensOnBoard: 1, remaining: 4, rerollDue: true }, 'its dice came back');
  const rerolled = play(reduced, 0, { type: 'throw' }, [6, 3, 4, 5]);
  t.match(rerolled.events.at(-1), { type: 'DiceThrown', faces: [6, 3, 4, 5], reroll: true });
  t.match(rerolled.state.turn, { targetsOnBoard: 3, ravensOnBoard: 1, remaining: 3 });
});

t.test('reduce only once per turn', async (t) => {
  let g = play(sixesUnderWay([2, 1]), 0, { type: 'throw' }, [6, 3, 4, 5]);
  g = play(play(g, 0, { type: 'reduce' }), 0, { type: 'throw' }, [6, 3, 4, 5]);
  t.same(pechvogel.legalCommands(g.state, 0), [], 'reduce is not offered again');
  t.equal(codeOf(attempt(g, 0, { type: 'reduce' })), 'pechvogel/already-reduced');
});

t.test('reduce needs a frustration of your own', async (t) => {
  const g = play(sixesUnderWay([0, 1]), 0, { type: 'throw' }, [6, 3, 4, 5]);
  t.same(pechvogel.pending(g.state).seats, [1]);
  t.equal(codeOf(attempt(g, 0, { type: 'reduce' })), 'pechvogel/no-frustration');
});

t.test('getting frustrated: one opponent starts, the others decide to join, then the player rerolls', async (t) => {
  const g = play(sixesUnderWay([0, 1, 1, 1]), 0, { type: 'throw' }, [6, 6, 3, 4]);
  t.equal(codeOf(attempt(g, 0, { type: 'frustrate' })), 'pechvogel/own-turn');
  const started = play(g, 2, { type: 'frustrate' }, [], NOW + 5000);
  t.same(lastEvents(g, started), [{ type: 'FrustrationStarted', seat: 2, joinDeadline: NOW + 5000 + WINDOW }]);
  t.same(pechvogel.pending(started.state), { seats: [1, 3], deadline: NOW + 5000 + WINDOW });
  t.equal(codeOf(attempt(started, 2, { type: 'frustrate' })), 'pechvogel/already-decided');
  const joined = play(started, 3, { type: 'frustrate' });
  t.equal(joined.state.phase, 'react', 'seat 1 has not decided yet');
  const closed = play(joined, 1, { type: 'pass' });
  t.same(lastEvents(joined, closed), [{ type: 'Passed', seat: 1 }, { type: 'ReactionClosed', timedOut: false }]);
  t.match(closed.state, { phase: 'throw', turn: { frustraters: [2, 3], rerollDue: true, targetsOnBoard: 2, remaining: 4 } });
  t.same(frustrations(closed), [0, 1, 0, 0]);
});

t.test('an opponent who passed on starting may still join once someone starts (interpretation)', async (t) => {
  let g = play(sixesUnderWay([0, 1, 1]), 0, { type: 'throw' }, [6, 6, 3, 4]);
  g = play(g, 1, { type: 'pass' });
  g = play(g, 2, { type: 'frustrate' });
  t.same(pechvogel.pending(g.state).seats, [1]);
  g = play(g, 1, { type: 'frustrate' });
  t.same(g.state.turn!.frustraters, [2, 1]);
});

t.test('the player cannot reduce a throw that is already being frustrated', async (t) => {
  let g = play(sixesUnderWay([1, 1, 1]), 0, { type: 'throw' }, [6, 6, 3, 4]);
  g = play(g, 1, { type: 'frustrate' });
  t.same(pechvogel.legalCommands(g.state, 0), []);
  t.equal(codeOf(attempt(g, 0, { type: 'reduce' })), 'pechvogel/frustration-under-way');
});

t.test('if you reduce to reroll a throw, you cannot be frustrated in that same throw', async (t) => {
  let g = play(sixesUnderWay([1, 1]), 0, { type: 'throw' }, [R, R, 3, 4]);
  g = play(g, 0, { type: 'reduce' });
  t.equal(codeOf(attempt(g, 1, { type: 'frustrate' })), 'pechvogel/wrong-phase');
  t.same(pechvogel.pending(g.state).seats, [0]);
  // The reroll is a new throw: it may be frustrated (interpretation).
  g = play(g, 0, { type: 'throw' }, [6, 6, 3, 4]);
  t.same(pechvogel.pending(g.state).seats, [1]);
  t.same(pechvogel.legalCommands(g.state, 1), [{ type: 'frustrate' }, { type: 'pass' }]);
});

t.test('a player is frustrated only once per turn', async (t) => {
  let g = play(sixesUnderWay([1, 1, 1]), 0, { type: 'throw' }, [R, 3, 4, 5]);
  g = play(g, 1, { type: 'frustrate' });
  g = play(g, 2, { type: 'pass' });
  g = play(g, 0, { type: 'throw' }, [6, 3, 4, 5]);
  t.same(pechvogel.pending(g.state).seats, [0], 'only reducing is left');
  t.equal(codeOf(attempt(g, 2, { type: 'frustrate' })), 'pechvogel/already-frustrated');
  g = play(g, 0, { type: 'pass' });
  g = play(g, 0, { type: 'throw' }, [6, 3, 4]);
  t.same(pechvogel.pending(g.state).seats, [0]);
});

t.test('frustrated and ending with three or more ravens: take all from the board, none from the supply', async (t) => {
  let g = play(sixesUnderWay([0, 1, 1]), 0, { type: 'throw' }, [6, 3, 4, 5]);
  g = play(g, 1, { type: 'frustrate' });
  g = play(g, 2, { type: 'frustrate' });
  g = play(g, 0, { type: 'throw' }, [R, R, 4, 5]);
  t.match(g.events.at(-1), { type: 'TurnEnded', frustrationsTaken: { fromBoard: 2, fromSupply: 0 }, repaid: [] });
  t.same(frustrations(g), [2, 0, 0]);
});

t.test('frustrated but fewer than three ravens: frustraters get theirs back plus one of the player\'s', async (t) => {
  let g = play(sixesUnderWay([3, 1, 1]), 0, { type: 'throw' }, [R, 3, 4, 5]);
  g = play(g, 2, { type: 'frustrate' });
  g = play(g, 1, { type: 'frustrate' });
  g = play(g, 0, { type: 'throw' }, [6, 6, 4, 5]);
  t.equal(g.state.phase, 'react', 'the reroll may still be reduced');
  g = play(g, 0, { type: 'pass' });
  t.match(g.events.at(-1), {
    type: 'TurnEnded',
    marker: { value: 6 },
    frustrationsTaken: { fromBoard: 0, fromSupply: 0 },
    repaid: [
      { seat: 2, fromPlayer: true },
      { seat: 1, fromPlayer: true },
    ],
  });
  t.same(frustrations(g), [1, 2, 2]);
});

t.test('no reroll of the first throw: no window even when opponents could frustrate', async (t) => {
  const g = play(given([1, 1]), 0, { type: 'throw' }, [6, 6, 6, 6, R, 3, 4]);
  t.match(g.events.at(-1), { type: 'DiceThrown', reroll: false, reactionDeadline: null });
  t.equal(g.state.phase, 'chooseTarget', 'straight to the target, no window');
  const chosen = play(g, 0, { type: 'chooseTarget', target: 6 });
  t.match(chosen.events.at(-1), { type: 'TurnEnded', seat: 0, marker: { value: 6 } });
});

t.test('no reroll of a greedy throw', async (t) => {
  const g = play(sixesUnderWay([1, 1]), 0, { type: 'throw' }, [6, 6, 6, 3]);
  t.match(g.events.slice(-2), [{ type: 'DiceThrown', reactionDeadline: null }, { type: 'TurnEnded', murphy: true }]);
});

t.test('no reroll of a throw without ravens or target', async (t) => {
  const g = play(sixesUnderWay([1, 1]), 0, { type: 'throw' }, [3, 4, 5, 7]);
  t.match(g.events.at(-1), { type: 'DiceThrown', reactionDeadline: null });
  t.equal(g.state.phase, 'throw');
});

t.test('a reroll may undo a throw that would have ended the turn', async (t) => {
  let g = play(sixesUnderWay([0, 1]), 0, { type: 'throw' }, [6, 6, 3, 4]);
  t.equal(g.state.turn!.targetsOnBoard, 4);
  g = play(g, 1, { type: 'frustrate' });
  g = play(g, 0, { type: 'throw' }, [3, 3, 4, 5]);
  t.match(g.state, { phase: 'throw', turn: { targetsOnBoard: 2, seat: 0 } }, 'the turn goes on');
});
