// "Action with a Touch Card": the stack of hands, the sandwich and the bottom hand.
import t from 'tap';
import { porcaMiseria, type PorcaEvent, type PorcaState } from '../../../src/domain/porca-miseria/index.ts';
import { accepted, codeOf, given, revealed, seat, started, system, T0, when } from './given.ts';

// 4 players; s01 already lies in the jackpot; seat 1 revealed a pig touch card.
const jackpotted: PorcaEvent[] = [
  started,
  revealed('s01'),
  { type: 'CardAddedToJackpot', card: 's01' },
  { type: 'StartingPlayerChanged', seat: 1, returnedToStack: [], at: T0 + 4100 },
];
const touchOpenAt = T0 + 5000;
const open = (): PorcaState => given(4, [...jackpotted, revealed('t-pig-1', touchOpenAt, 1)]);
const slaps = (state: PorcaState, seats: number[]): PorcaState =>
  seats.reduce((s, n, i) => accepted(s, { type: 'slap' }, seat(n), touchOpenAt + 10 * (i + 1)).state, state);

t.test('a slap puts the seat\'s next hand on top and records the receive time', async (t) => {
  t.same(when(open(), { type: 'slap' }, seat(2), touchOpenAt + 123), [
    { type: 'HandSlapped', seat: 2, receivedAt: touchOpenAt + 123 },
  ]);
});

t.test('a seat has two hands', async (t) => {
  const state = slaps(open(), [2, 2]);
  t.same(state.hands.map((h) => h.seat), [2, 2], 'two own hands on top of each other are no sandwich');
  t.equal(codeOf(when(state, { type: 'slap' }, seat(2), touchOpenAt + 100)), 'porca-miseria/no-hands-left');
  t.equal(codeOf(when(state, { type: 'pass' }, seat(2), touchOpenAt + 100)), 'porca-miseria/no-hands-left');
  t.same(porcaMiseria.legalCommands(state, 2), []);
});

t.test('the first sandwich wins at once, even over a lower hand', async (t) => {
  // Stack bottom→top: 0, 3, 2, 3. Seat 3 catches exactly one hand (seat 2's).
  const state = slaps(open(), [0, 3, 2]);
  const { events } = accepted(state, { type: 'slap' }, seat(3), touchOpenAt + 100);
  t.same(events.slice(1), [
    { type: 'TouchCardWon', seat: 3, by: 'sandwich', card: 't-pig-1', jackpot: ['s01'] },
    { type: 'StartingPlayerChanged', seat: 2, returnedToStack: [], at: touchOpenAt + 100 },
  ]);
});

t.test('two hands between one seat\'s hands are no sandwich', async (t) => {
  const state = slaps(open(), [0, 1, 2]);
  const { events } = accepted(state, { type: 'slap' }, seat(0), touchOpenAt + 100);
  t.same(events, [{ type: 'HandSlapped', seat: 0, receivedAt: touchOpenAt + 100 }]);
});

t.test('no sandwich once no one can or will slap: the bottom hand wins', async (t) => {
  let state = slaps(open(), [1, 0, 2, 1, 3, 3]);
  state = accepted(state, { type: 'pass' }, seat(2), touchOpenAt + 200).state;
  const { events, state: after } = accepted(state, { type: 'pass' }, seat(0), touchOpenAt + 300);
  t.same(events.slice(1, 2), [{ type: 'TouchCardWon', seat: 1, by: 'bottom-hand', card: 't-pig-1', jackpot: ['s01'] }]);
  t.same(after.winnings[1], ['t-pig-1', 's01']);
});

t.test('at the deadline without a sandwich the bottom hand wins', async (t) => {
  const state = slaps(open(), [2, 0]);
  const deadline = touchOpenAt + 4000;
  t.equal(codeOf(when(state, { type: 'slap' }, seat(1), deadline)), 'porca-miseria/too-late');
  const answer = when(state, { type: 'timeout' }, system, deadline);
  t.match(answer, [{ type: 'TouchCardWon', seat: 2, by: 'bottom-hand' }]);
});

t.test('a touch card nobody slapped goes to the jackpot', async (t) => {
  const { events, state: after } = accepted(open(), { type: 'timeout' }, system, touchOpenAt + 4000);
  t.same(events[0], { type: 'CardAddedToJackpot', card: 't-pig-1' });
  t.same(after.jackpot, ['s01', 't-pig-1']);
});

t.test('grabbing a target card on a touch card is refused', async (t) => {
  t.equal(codeOf(when(open(), { type: 'grab', target: 'pig' }, seat(0), touchOpenAt + 50)), 'porca-miseria/no-symbol-card');
});

t.test('pending lists seats with a hand left that have not passed', async (t) => {
  let state = slaps(open(), [0, 0]);
  state = accepted(state, { type: 'pass' }, seat(3), touchOpenAt + 100).state;
  t.same(porcaMiseria.pending(state), { seats: [1, 2], deadline: touchOpenAt + 4000 });
});

t.test('a slap names no target card: it always lands on the matching one', async (t) => {
  t.equal(porcaMiseria.commandSchema.safeParse({ type: 'slap', target: 'mushroom' }).success, false, 'naming one is refused, not dropped');
  const { state } = accepted(open(), { type: 'slap' }, seat(0), touchOpenAt + 50);
  t.same(state.hands, [{ seat: 0, receivedAt: touchOpenAt + 50 }]);
});
