// "Action with a Symbol Card", "Winnings", "Loss", "Jackpot" and the end of the game
// when the stack cannot pay.
import t from 'tap';
import { porcaMiseria, type PorcaEvent } from '../../../src/domain/porca-miseria/index.ts';
import { deckIds } from '../../../src/domain/porca-miseria/edition.ts';
import { accepted, codeOf, given, revealed, seat, started, system, T0, when } from './given.ts';

// 4 players: seat 0 1+5, seat 1 2+6, seat 2 3+7, seat 3 4+8. s23: 4 mushrooms, 3 pigs, 6 sweeps.
const open = (...more: PorcaEvent[]) => given(4, [started, revealed('s23'), ...more]);
const won = (seat: number, card: string): PorcaEvent => ({ type: 'WinningPaid', seat, target: 'pig', card });

t.test('a target card is held by the first seat to grab it', async (t) => {
  const state = accepted(open(), { type: 'grab', target: 'pig' }, seat(2), T0 + 500).state;
  t.equal(codeOf(when(state, { type: 'grab', target: 'pig' }, seat(1), T0 + 501)), 'porca-miseria/target-taken');
  t.equal(codeOf(when(state, { type: 'grab', target: 'pig' }, seat(2), T0 + 502)), 'porca-miseria/target-taken');
});

t.test('grabs record the server receive time', async (t) => {
  t.same(when(open(), { type: 'grab', target: 'sweep' }, seat(1), T0 + 777), [
    { type: 'TargetGrabbed', seat: 1, target: 'sweep', receivedAt: T0 + 777 },
  ]);
});

t.test('the window closes at once when all three target cards are taken', async (t) => {
  let state = accepted(open(), { type: 'grab', target: 'pig' }, seat(2), T0 + 500).state; // 3: right
  state = accepted(state, { type: 'grab', target: 'sweep' }, seat(0), T0 + 600).state; // 1+5 match nothing: right
  const { events, state: after } = accepted(state, { type: 'grab', target: 'mushroom' }, seat(1), T0 + 700, ['s01', 's02']); // 2+6: 6 sweeps, so wrong
  t.same(events.map((e) => e.type), [
    'TargetGrabbed', 'WinningPaid', 'WinningPaid', 'LossPaid', 'CardAddedToJackpot', 'StartingPlayerChanged',
  ]);
  t.equal(after.phase, 'reveal');
  t.equal(after.startingSeat, 1);
  t.same(after.grabs, [], 'the target cards are placed back in the middle');
  t.same(porcaMiseria.legalCommands(after, 1), [{ type: 'reveal' }]);
});

t.test('a wrong grab costs three cards of winnings, the most recently won, into the jackpot', async (t) => {
  const state = open(won(3, 's30'), won(3, 's31'), won(3, 's32'), won(3, 's33'));
  const grabbed = accepted(state, { type: 'grab', target: 'pig' }, seat(3), T0 + 500).state; // 4+8: pig wrong
  const { state: after, events } = accepted(grabbed, { type: 'timeout' }, system, T0 + 4100);
  t.same(events[0], { type: 'LossPaid', seat: 3, target: 'pig', cards: ['s31', 's32', 's33'] });
  t.same(after.winnings[3], ['s30']);
  t.same(after.jackpot, ['s31', 's32', 's33', 's23']);
});

t.test('with fewer than three cards of winnings the whole winnings are lost', async (t) => {
  const grabbed = accepted(open(won(3, 's30')), { type: 'grab', target: 'sweep' }, seat(3), T0 + 500).state;
  const { events, state: after } = accepted(grabbed, { type: 'timeout' }, system, T0 + 4100);
  t.same(events[0], { type: 'LossPaid', seat: 3, target: 'sweep', cards: ['s30'] });
  t.same(after.winnings[3], []);
});

t.test('each wrong target card costs three: two wrong grabs cost six', async (t) => {
  const cards = ['s30', 's31', 's32', 's33', 's34', 's35', 's36'];
  let state = open(...cards.map((c) => won(3, c)));
  state = accepted(state, { type: 'grab', target: 'pig' }, seat(3), T0 + 500).state;
  state = accepted(state, { type: 'grab', target: 'sweep' }, seat(3), T0 + 600).state;
  const { state: after } = accepted(state, { type: 'timeout' }, system, T0 + 4100);
  t.same(after.winnings[3], ['s30']);
});

t.test('winnings are paid before losses: a right and a wrong grab by one seat', async (t) => {
  // seat 0 (1+5) has no match on s23, so everything is rightful; seat 3 (4+8) matches
  // the mushroom, so its pig is wrong after its mushroom won a card.
  let state = open(won(3, 's30'), won(3, 's31'));
  state = accepted(state, { type: 'grab', target: 'mushroom' }, seat(3), T0 + 500).state;
  state = accepted(state, { type: 'grab', target: 'pig' }, seat(3), T0 + 600).state;
  const { events } = accepted(state, { type: 'timeout' }, system, T0 + 4100, ['s40']);
  t.same(events.slice(0, 3), [
    { type: 'WinningPaid', seat: 3, target: 'mushroom', card: 's40' },
    { type: 'LossPaid', seat: 3, target: 'pig', cards: ['s30', 's31', 's40'] },
    { type: 'CardAddedToJackpot', card: 's23' },
  ]);
});

t.test('the window closes when every seat passed, and grabbing after a pass is refused', async (t) => {
  let state = open();
  state = accepted(state, { type: 'pass' }, seat(0), T0 + 300).state;
  t.equal(codeOf(when(state, { type: 'grab', target: 'pig' }, seat(0), T0 + 301)), 'porca-miseria/already-passed');
  for (const s of [1, 2]) state = accepted(state, { type: 'pass' }, seat(s), T0 + 400).state;
  t.same(porcaMiseria.pending(state).seats, [3]);
  const { events } = accepted(state, { type: 'pass' }, seat(3), T0 + 500);
  t.same(events.map((e) => e.type), ['Passed', 'CardAddedToJackpot', 'StartingPlayerChanged']);
});

t.test('deadline: grabs at or after it are too late; timeout before it is too early', async (t) => {
  const deadline = T0 + 100 + 4000;
  t.equal(codeOf(when(open(), { type: 'grab', target: 'pig' }, seat(1), deadline)), 'porca-miseria/too-late');
  t.equal(codeOf(when(open(), { type: 'timeout' }, system, deadline - 1)), 'porca-miseria/too-early');
  t.equal(codeOf(when(open(), { type: 'timeout' }, seat(0), deadline)), 'porca-miseria/system-only');
  t.ok(Array.isArray(when(open(), { type: 'timeout' }, system, deadline)));
});

t.test('the window length is the windowMs option', async (t) => {
  const state = given(4, [started, revealed('s23')], { windowMs: 1000 });
  t.equal(codeOf(when(state, { type: 'timeout' }, system, T0 + 1099)), 'porca-miseria/too-early');
  t.ok(Array.isArray(when(state, { type: 'timeout' }, system, T0 + 1100)));
});

t.test('slapping on a symbol card is refused', async (t) => {
  t.equal(codeOf(when(open(), { type: 'slap' }, seat(1), T0 + 200)), 'porca-miseria/no-touch-card');
});

// The stack holds one card; two rightful grabs cannot both be paid.
const lastCardEvents = (): PorcaEvent[] => {
  const drawnAway = deckIds.filter((id) => id !== 's23' && id !== 's54');
  return [
    started,
    ...drawnAway.map((card) => ({ type: 'WinningPaid', seat: 0, target: 'pig', card }) as PorcaEvent),
    revealed('s23'),
  ];
};

t.test('the game ends when the stack cannot pay the winnings; unpaid grabbers keep the target card', async (t) => {
  let state = given(4, lastCardEvents());
  t.same(state.stack, ['s54']);
  state = accepted(state, { type: 'grab', target: 'sweep' }, seat(1), T0 + 500).state; // 6: right
  state = accepted(state, { type: 'grab', target: 'pig' }, seat(2), T0 + 600).state; // 3: right
  const { events, state: after } = accepted(state, { type: 'timeout' }, system, T0 + 4100, ['s54']);
  t.same(events, [
    { type: 'WinningPaid', seat: 1, target: 'sweep', card: 's54' },
    { type: 'CompensationReceived', seat: 2, target: 'pig' },
    { type: 'CardAddedToJackpot', card: 's23' },
    { type: 'GameEnded', reason: 'stack-exhausted' },
  ]);
  t.same(after.compensation[2], ['pig']);
  t.same(porcaMiseria.result(after)?.scores, [61, 1, 1, 0]);
  t.same(porcaMiseria.result(after)?.breakdown?.[2], [
    { label: 'winning card', count: 0, points: 0 },
    { label: 'target card as compensation', count: 1, points: 1 },
  ], "the breakdown names the target card received as compensation");
  t.equal(codeOf(when(after, { type: 'reveal' }, seat(1), T0 + 5000)), 'porca-miseria/game-over');
});

t.test('a stack that pays exactly goes on; the empty stack ends the game at the change', async (t) => {
  let state = given(4, lastCardEvents());
  state = accepted(state, { type: 'grab', target: 'sweep' }, seat(1), T0 + 500).state;
  const { events, state: after } = accepted(state, { type: 'timeout' }, system, T0 + 4100, ['s54']);
  t.same(events.slice(-2), [
    { type: 'StartingPlayerChanged', seat: 1, returnedToStack: [], at: T0 + 4100 },
    { type: 'GameEnded', reason: 'stack-empty' },
  ]);
  t.equal(after.endReason, 'stack-empty');
});

t.test('most cards wins and ties share the win', async (t) => {
  const state = given(3, [started, won(0, 's01'), won(1, 's02'), { type: 'GameEnded', reason: 'stack-empty' }]);
  t.match(porcaMiseria.result(state), { scores: [1, 1, 0], ranks: [1, 1, 3], winners: [0, 1] });
  t.equal(porcaMiseria.result(given(3, [started])), null);
});

