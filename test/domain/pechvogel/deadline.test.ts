// The reaction window's deadline: the scheduler's timeout closes it; undecided seats pass.
import t from 'tap';
import { pechvogel } from '../../../src/domain/pechvogel/index.ts';
import { attempt, codeOf, lastEvents, newGame, NOW, play, sixesUnderWay } from './helpers.ts';

t.test('timeout is the system\'s, only once the deadline has passed', async (t) => {
  const g = play(sixesUnderWay([1, 1]), 0, { type: 'throw' }, [6, 3, 4, 5]);
  const deadline = NOW + 20_000;
  t.equal(codeOf(attempt(g, 1, { type: 'timeout' }, [], deadline)), 'pechvogel/wrong-actor');
  t.equal(codeOf(attempt(g, 'system', { type: 'pass' })), 'pechvogel/wrong-actor');
  t.equal(codeOf(attempt(g, 'system', { type: 'timeout' }, [], deadline - 1)), 'pechvogel/too-early');
  const closed = play(g, 'system', { type: 'timeout' }, [], deadline);
  t.same(lastEvents(g, closed), [{ type: 'ReactionClosed', timedOut: true }]);
  t.match(closed.state, { phase: 'throw', turn: { targetsOnBoard: 3, rerollDue: false } }, 'nobody reacted: the throw stands');
});

t.test('timeout with nothing waiting is refused', async (t) => {
  t.equal(codeOf(attempt(newGame(2), 'system', { type: 'timeout' }, [], NOW * 2)), 'pechvogel/no-deadline');
});

t.test('timeout while opponents decide to join: the frustration stands and the player rerolls', async (t) => {
  let g = play(sixesUnderWay([0, 1, 1]), 0, { type: 'throw' }, [6, 6, 3, 4]);
  g = play(g, 1, { type: 'frustrate' }, [], NOW + 1000);
  const joinDeadline = NOW + 1000 + 20_000;
  t.equal(codeOf(attempt(g, 'system', { type: 'timeout' }, [], NOW + 20_000)), 'pechvogel/too-early', 'a fresh deadline for joining');
  const closed = play(g, 'system', { type: 'timeout' }, [], joinDeadline);
  t.match(closed.state, { phase: 'throw', turn: { rerollDue: true, frustraters: [1], targetsOnBoard: 2 } });
});

t.test('reactionSeconds sets the window', async (t) => {
  const g = sixesUnderWay([1, 1], { reactionSeconds: 5 });
  const thrown = play(g, 0, { type: 'throw' }, [6, 3, 4, 5]);
  t.equal(pechvogel.pending(thrown.state).deadline, NOW + 5000);
});

t.test('a timed-out turn-ending throw ends the turn', async (t) => {
  const g = play(sixesUnderWay([1, 1]), 0, { type: 'throw' }, [6, 6, 3, 4]);
  const closed = play(g, 'system', { type: 'timeout' }, [], NOW + 20_000);
  t.match(closed.events.at(-1), { type: 'TurnEnded', seat: 0, marker: { value: 6 } });
});

t.test('reactionSeconds 0: no time limit; the window stays open until every seat has decided', async (t) => {
  const g = sixesUnderWay([1, 1], { reactionSeconds: 0 });
  const thrown = play(g, 0, { type: 'throw' }, [6, 3, 4, 5]);
  t.same(pechvogel.pending(thrown.state), { seats: [0, 1] }, 'a window, with nobody timed out of it');
  t.equal(codeOf(attempt(thrown, 'system', { type: 'timeout' }, [], NOW * 2)), 'pechvogel/no-deadline', 'nothing times out');
  const passed = play(play(thrown, 0, { type: 'pass' }), 1, { type: 'pass' });
  t.match(passed.events.at(-1), { type: 'ReactionClosed', timedOut: false }, 'everyone decided: it closes');
});
