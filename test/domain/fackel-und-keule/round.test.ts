// Prey sharing turns, end of round: drawing, hand limit, reshuffle, the last round.
import t from 'tap';
import { codes } from '../../../src/domain/fackel-und-keule/index.ts';
import { accept, chooseAll, game, given, opening, reject, applyEvents, types } from './helpers.ts';

const rhino = () =>
  chooseAll(given(3, opening([[2, 5, 8, 11, 14], [17, 33, 34, 35, 36], [3, 4, 6, 9, 12]], 'wool-rhinoceros')), [
    [2, 5, 8, 11, 14],
    [17, 33, 34],
    [3, 4, 6, 9, 12],
  ]).state;

t.test('the first taker takes exactly 2 chips, then one each, in turn', async (t) => {
  const state = rhino();
  t.equal(reject(state, 2, { type: 'takePrey', chips: ['fur'] }).code, codes.notYourTurn);
  t.equal(reject(state, 0, { type: 'takePrey', chips: ['fur'] }).code, codes.takeCount);
  t.same(game.legalCommands(state, 0).map((c) => c.type === 'takePrey' && c.chips), [
    ['teeth', 'teeth'], ['teeth', 'fur'], ['teeth', 'meat'], ['fur', 'fur'], ['fur', 'meat'], ['meat', 'meat'],
  ]);
  const next = applyEvents(state, accept(state, 0, { type: 'takePrey', chips: ['teeth', 'teeth'] }));
  t.equal(reject(next, 2, { type: 'takePrey', chips: ['teeth'] }).code, codes.preyUnavailable);
  t.equal(reject(next, 2, { type: 'takePrey', chips: ['fur', 'meat'] }).code, codes.takeCount);
  t.same(game.view(next, { kind: 'spectator' }).sharing, { pool: { teeth: 0, fur: 2, meat: 4 }, takers: [0, 2, 1], next: 2, takeSize: 1 });
});

t.test('interpretation: once one kind is left the rest is taken automatically', async (t) => {
  let state = rhino();
  state = applyEvents(state, accept(state, 0, { type: 'takePrey', chips: ['fur', 'fur'] }));
  state = applyEvents(state, accept(state, 2, { type: 'takePrey', chips: ['teeth'] }));
  const out = accept(state, 1, { type: 'takePrey', chips: ['teeth'] }, [18, 19, 20, 21, 22, 23, 24, 25, 26, 'mammoth']);
  t.same(types(out).slice(0, 6), ['PreyTaken', 'PreyTaken', 'PreyTaken', 'PreyTaken', 'PreyTaken', 'RoundEnded']);
});

t.test('draw 3 (3–4 players) or 2 (5 players); discard down to 6 or 5, face down', async (t) => {
  let state = rhino();
  state = applyEvents(state, accept(state, 0, { type: 'takePrey', chips: ['teeth', 'teeth'] }));
  state = applyEvents(state, accept(state, 2, { type: 'takePrey', chips: ['fur'] }));
  state = applyEvents(state, accept(state, 1, { type: 'takePrey', chips: ['fur'] }, [18, 19, 20, 21, 22, 23, 24, 25, 26, 'mammoth']));
  t.same(state.hands.map((h) => h.length), [3, 5, 3]);

  const hands5 = [0, 1, 2, 3, 4].map((s) => [1, 2, 3, 4, 5].map((c) => c + 5 * s));
  let five = given(5, opening(hands5, 'wild-horse'));
  // No spear is played, so the horse escapes. Seat 0 plays 1 card: 4 + 2 = 6 > 5, so it
  // must discard one; the others played 2 and keep 5.
  five = chooseAll(five, [[1], [6, 7], [12, 13], [16, 18], [21, 24]], [26, 27, 28, 29, 30, 31, 32, 33, 34, 35]).state;
  t.equal(five.phase.name, 'discarding');
  t.same(five.hands.map((h) => h.length), [6, 5, 5, 5, 5]);
  t.same(game.pending(five).seats, [0]);
  t.equal(reject(five, 0, { type: 'discard', cards: [1, 3] }).code, codes.discardCount);
  t.equal(reject(five, 1, { type: 'discard', cards: [8] }).code, codes.notYourTurn);
  t.equal(reject(five, 0, { type: 'discard', cards: [7] }).code, codes.notInHand);
  t.equal(game.legalCommands(five, 0).length, 6);
  const [discarded, ...rest] = accept(five, 0, { type: 'discard', cards: [2] }, ['mammoth']);
  t.same(game.redact(discarded!, { kind: 'seat', seat: 1 }, five), { type: 'SurplusDiscarded', seat: 0, count: 1, cards: null });
  t.same(types(rest), ['AnimalRevealed']);
});

t.test('the view keeps the round that ended in sight until the next reveal, and counts the animals left', async (t) => {
  const state = given(3, opening([[33, 2, 40, 41, 42], [34, 5, 43, 44, 45], [1, 4, 7, 10, 13]], 'mammoth'));
  t.equal(game.view(state, { kind: 'spectator' }).animalsLeft, 11);
  // A fight with nobody to rob ends the round inside the last choice.
  const ended = chooseAll(state, [[33, 2], [5, 43], [1, 4]], [6, 8, 9, 11, 12, 14, 15, 16, 17, 'cave-bear']).state;
  const view = game.view(ended, { kind: 'seat', seat: 1 });
  t.same(view.lastRound, { round: 1, animal: game.view(state, { kind: 'spectator' }).animal, played: [[2, 33], [5, 43], [1, 4]] });
  t.equal(view.seats[0]!.played, null, 'the new round has no reveal yet');
  t.equal(view.animalsLeft, 10);
  const choosing = applyEvents(ended, accept(ended, 0, { type: 'choose', cards: [40] }));
  t.ok(game.view(choosing, { kind: 'spectator' }).lastRound, 'still in sight while the next choices are made');
  const revealed = game.evolve(choosing, { type: 'CardsRevealed', choices: [{ seat: 0, cards: [40], salt: 'a' }, { seat: 1, cards: [44], salt: 'b' }, { seat: 2, cards: [7], salt: 'c' }] });
  t.equal(game.view(revealed, { kind: 'spectator' }).lastRound, null, "the next round's reveal replaces it");
});
