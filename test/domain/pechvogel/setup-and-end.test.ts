// Setup (player count, first player), the end of the game and the final scoring.
import t from 'tap';
import { fold } from '../../../src/domain/contract.ts';
import { pechvogel } from '../../../src/domain/pechvogel/index.ts';
import { attempt, codeOf, markers, markerTurn, newGame, play, R, ravenTurn } from './helpers.ts';

const setupOf = (seats: number, options = {}) => ({ seats, options: pechvogel.optionsSchema.parse(options) });

t.test('2 to 5 players; the first seat must exist; options all default', async (t) => {
  t.same(pechvogel.optionsSchema.parse({}), { firstSeat: 0, reactionSeconds: 20 });
  t.match(pechvogel.validateSetup!(setupOf(1)), { code: 'pechvogel/player-count' });
  t.match(pechvogel.validateSetup!(setupOf(6)), { code: 'pechvogel/player-count' });
  t.equal(pechvogel.validateSetup!(setupOf(2)), null);
  t.equal(pechvogel.validateSetup!(setupOf(5)), null);
  t.match(pechvogel.validateSetup!(setupOf(3, { firstSeat: 3 })), { code: 'pechvogel/first-seat' });
});

t.test('before setup nobody may act; setup starts the first seat\'s turn', async (t) => {
  const state = pechvogel.initialState(setupOf(2));
  t.same(pechvogel.pending(state), { seats: [] });
  t.equal(pechvogel.result(state), null);
  t.same(newGame(2, { firstSeat: 1 }).events, [{ type: 'TurnStarted', seat: 1 }]);
});

/** Two players alternate turns that each take a marker, until one three is left. */
function playToTheEnd() {
  let g = newGame(2);
  const values = [7, 7, 7, 6, 6, 6, 5, 5, 5, 4, 4, 4, 3, 3] as const;
  for (const v of values) g = markerTurn(g, v);
  return g;
}

t.test('the game ends when no score markers remain in the middle', async (t) => {
  let g = playToTheEnd();
  t.same(g.state.middle, [3], 'one marker left: the game goes on');
  t.equal(pechvogel.result(g.state), null);
  g = ravenTurn(g); // seat 0 takes a frustration
  g = play(play(g, 1, { type: 'throw' }, [3, 3, 3, 3, 4, 5, R]), 1, { type: 'chooseTarget', target: 3 });
  t.equal(g.state.phase, 'claim', 'seat 0 holds a three');
  g = play(g, 1, { type: 'steal', from: 0, returnToBox: 3 });
  t.match(g.events.at(-1), { type: 'TurnEnded', marker: { value: 3, from: 0 }, boxed: 3, nextSeat: null });
  t.equal(g.state.phase, 'over');
  t.same(pechvogel.pending(g.state), { seats: [] });
  t.equal(codeOf(attempt(g, 0, { type: 'throw' }, [3, 3, 3, 3, 3, 3, 3])), 'pechvogel/game-over');
  t.same(markers(g), [[7, 7, 6, 5, 5, 4], [7, 6, 6, 5, 4, 4, 3, 3]]);
  t.match(pechvogel.result(g.state), { scores: [34 - 3, 38], ranks: [2, 1], winners: [1] });
  t.same(fold(pechvogel, g.setup, g.events), g.state);
});

t.test('ties share the win', async (t) => {
  let g = newGame(3);
  for (const v of [7, 7, 7, 6, 6, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3] as const) g = markerTurn(g, v);
  t.match(pechvogel.result(g.state), { scores: [25, 25, 25], ranks: [1, 1, 1], winners: [0, 1, 2] });
});

t.test('frustrations cost 3 each, 7 each for the holder of Murphy', async (t) => {
  let g = newGame(2);
  g = play(g, 0, { type: 'throw' }, [R, R, R, R, 3, 4, 5]); // greedy: Murphy and a frustration
  g = play(g, 0, { type: 'chooseTarget', target: 3 });
  g = ravenTurn(g); // seat 1: a frustration
  for (const v of [7, 7, 7, 6, 6, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3] as const) g = markerTurn(g, v);
  const result = pechvogel.result(g.state)!;
  const sums = g.state.players.map((p) => p.markers.reduce((a, b) => a + b, 0));
  t.same(result.scores, [sums[0]! - 7, sums[1]! - 3]);
  t.same(result.breakdown?.map((parts) => parts[1]), [
    { label: 'frustration with Murphy', count: 1, points: -7 },
    { label: 'frustration', count: 1, points: -3 },
  ], 'the breakdown says which seat pays 7 a frustration for holding Murphy');
});
