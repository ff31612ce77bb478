// "Dicing with Disaster" and "Throwing Dice": the first throw, the target, ravens,
// and throwing on until four of the target or three ravens.
import t from 'tap';
import { pechvogel } from '../../../src/domain/pechvogel/index.ts';
import { active, attempt, codeOf, given, lastEvents, newGame, play, R } from './helpers.ts';

t.test('the first throw uses all seven dice and only the active player throws', async (t) => {
  const g = newGame(3);
  t.equal(codeOf(attempt(g, 1, { type: 'throw' }, [3, 3, 3, 3, 3, 3, 3])), 'pechvogel/not-your-turn');
  t.throws(() => attempt(g, 0, { type: 'throw' }, [3, 3, 3]), { code: 'chance/outcome-missing' }, 'needs seven dice');
  const after = play(g, 0, { type: 'throw' }, [3, 4, 4, R, 5, 6, 7]);
  t.equal(after.state.phase, 'chooseTarget');
  t.equal(after.state.turn!.ravensOnBoard, 1, 'ravens go to the board at once');
});

t.test('the target is one rolled number, chosen by the player; all its dice go to the board', async (t) => {
  const g = play(newGame(2), 0, { type: 'throw' }, [3, 4, 4, R, 5, 4, 7]);
  t.same(
    pechvogel.legalCommands(g.state, 0).map((c) => (c.type === 'chooseTarget' ? c.target : null)),
    [3, 4, 5, 7],
  );
  t.same(pechvogel.legalCommands(g.state, 1), []);
  t.equal(codeOf(attempt(g, 0, { type: 'chooseTarget', target: 6 })), 'pechvogel/target-not-rolled');
  t.equal(codeOf(attempt(g, 0, { type: 'throw' })), 'pechvogel/wrong-phase', 'choose before throwing on');
  const chosen = play(g, 0, { type: 'chooseTarget', target: 4 });
  t.match(chosen.state.turn, { target: 4, targetsOnBoard: 3, ravensOnBoard: 1, remaining: 3 });
  t.equal(chosen.state.phase, 'throw');
  t.equal(codeOf(attempt(chosen, 0, { type: 'chooseTarget', target: 3 })), 'pechvogel/wrong-phase', 'no other target this turn');
});

t.test('later throws put target dice and ravens on the board by themselves', async (t) => {
  let g = play(newGame(2), 0, { type: 'throw' }, [5, 3, 4, 6, 7, 7, 3]);
  g = play(g, 0, { type: 'chooseTarget', target: 5 });
  g = play(g, 0, { type: 'throw' }, [5, R, 3, 4, 6, 7]);
  t.match(g.state.turn, { targetsOnBoard: 2, ravensOnBoard: 1, remaining: 4 });
});

t.test('a throw with nothing is just a throw: keep throwing, no reaction window', async (t) => {
  let g = given([0, 2]);
  g = play(g, 0, { type: 'throw' }, [5, 3, 4, 6, 7, 7, 3]);
  g = play(g, 0, { type: 'chooseTarget', target: 5 });
  const before = g;
  g = play(g, 0, { type: 'throw' }, [3, 3, 4, 6, 7, 7]);
  t.same(lastEvents(before, g), [{ type: 'DiceThrown', seat: 0, faces: [3, 3, 4, 6, 7, 7], reroll: false, reactionDeadline: null }]);
  t.equal(g.state.phase, 'throw');
  t.same(pechvogel.pending(g.state), { seats: [0] });
});

t.test('throwing goes on until four of the target or three ravens', async (t) => {
  let g = play(newGame(2), 0, { type: 'throw' }, [5, 5, R, 6, 7, 7, 3]);
  g = play(g, 0, { type: 'chooseTarget', target: 5 });
  g = play(g, 0, { type: 'throw' }, [5, R, 3, 4]);
  t.match(g.state, { phase: 'throw', turn: { targetsOnBoard: 3, ravensOnBoard: 2 } }, 'three and two: go on');
  g = play(g, 0, { type: 'throw' }, [R, 4]);
  t.equal(active(g), 1, 'the third raven ended the turn');
  t.match(g.events.at(-1), { type: 'TurnEnded', seat: 0, frustrationsTaken: { fromSupply: 1 } });
});

t.test('four of the target on the first throw ends the turn at once', async (t) => {
  let g = play(given([0, 3]), 0, { type: 'throw' }, [6, 6, 6, 6, 3, 4, 5]);
  g = play(g, 0, { type: 'chooseTarget', target: 6 });
  t.match(g.events.at(-1), { type: 'TurnEnded', seat: 0, marker: { value: 6, from: null } });
});

t.test('seven ravens on the first throw: no target to choose, greedy, Murphy and a frustration', async (t) => {
  const g = play(newGame(2), 0, { type: 'throw' }, [R, R, R, R, R, R, R]);
  t.match(g.events.at(-1), {
    type: 'TurnEnded',
    marker: null,
    murphy: true,
    frustrationsTaken: { fromBoard: 0, fromSupply: 1 },
    nextSeat: 1,
  });
  t.equal(g.state.murphy, 0);
});

t.test('play goes clockwise to the left, from the firstSeat option', async (t) => {
  const g = newGame(4, { firstSeat: 2 });
  t.same(pechvogel.pending(g.state), { seats: [2] });
  const next = play(play(g, 2, { type: 'throw' }, [R, R, R, 3, 4, 5, 6]), 2, { type: 'chooseTarget', target: 3 });
  t.equal(active(next), 3);
  const wrap = play(play(next, 3, { type: 'throw' }, [R, R, R, 3, 4, 5, 6]), 3, { type: 'chooseTarget', target: 3 });
  t.equal(active(wrap), 0, 'after the last seat comes seat 0');
});
