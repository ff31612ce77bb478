// The rulebook's four worked examples, played exactly with supplied chance.
import t from 'tap';
import { accepted, given, revealed, seat, started, T0, when } from './given.ts';

// Example 1 (8 players, so seat n holds lucky number n+1): Adrienne 5 = seat 4,
// Corinna 2 = seat 1, David 4 = seat 3. The card (s23) shows 3 pigs, 4 mushrooms and
// 6 chimney sweeps. Adrienne's 5 and Corinna's 2 match no count, so any target card is
// rightful for them; David's 4 matches the mushrooms. All three grabs earn a card.
t.test('example 1: Adrienne sweep, Corinna pig, David mushroom are all rightful', async (t) => {
  let state = given(8, [started, revealed('s23')]);
  state = accepted(state, { type: 'grab', target: 'sweep' }, seat(4), T0 + 900).state;
  state = accepted(state, { type: 'grab', target: 'pig' }, seat(1), T0 + 950).state;
  const { events } = accepted(state, { type: 'grab', target: 'mushroom' }, seat(3), T0 + 1000, ['s01', 's02', 's03']);
  t.same(events, [
    { type: 'TargetGrabbed', seat: 3, target: 'mushroom', receivedAt: T0 + 1000 },
    { type: 'WinningPaid', seat: 4, target: 'sweep', card: 's01' },
    { type: 'WinningPaid', seat: 1, target: 'pig', card: 's02' },
    { type: 'WinningPaid', seat: 3, target: 'mushroom', card: 's03' },
    { type: 'CardAddedToJackpot', card: 's23' },
    { type: 'StartingPlayerChanged', seat: 1, returnedToStack: [], at: T0 + 1000 },
  ]);
});

// Example 2 (4 players, Bernd is player A = seat 0 with 1+5): the card (s05) shows 5
// pigs, 1 mushroom (and 8 chimney sweeps). Bernd may take both matching target cards.
t.test('example 2: Bernd (1+5) takes the pig and the mushroom and wins two cards', async (t) => {
  let state = given(4, [started, revealed('s05')]);
  state = accepted(state, { type: 'grab', target: 'pig' }, seat(0), T0 + 800).state;
  state = accepted(state, { type: 'grab', target: 'mushroom' }, seat(0), T0 + 1100).state;
  state = accepted(state, { type: 'pass' }, seat(1), T0 + 1200).state;
  state = accepted(state, { type: 'pass' }, seat(2), T0 + 1300).state;
  state = accepted(state, { type: 'pass' }, seat(3), T0 + 1400).state;
  // Bernd may still want the last target card: the window closes when he passes too.
  const { events, state: after } = accepted(state, { type: 'pass' }, seat(0), T0 + 1500, ['s40', 's41']);
  t.same(events.slice(1, 3), [
    { type: 'WinningPaid', seat: 0, target: 'pig', card: 's40' },
    { type: 'WinningPaid', seat: 0, target: 'mushroom', card: 's41' },
  ]);
  t.same(after.winnings[0], ['s40', 's41']);
});

t.test('example 2: the chimney sweep (8) would have been wrong for Bernd', async (t) => {
  let state = given(4, [started, revealed('s05')]);
  state = accepted(state, { type: 'grab', target: 'sweep' }, seat(0), T0 + 800).state;
  const answer = when(state, { type: 'timeout' }, { kind: 'system' }, T0 + 100 + 4000);
  t.same(answer, [
    { type: 'LossPaid', seat: 0, target: 'sweep', cards: [] },
    { type: 'CardAddedToJackpot', card: 's05' },
    { type: 'StartingPlayerChanged', seat: 1, returnedToStack: [], at: T0 + 4100 },
  ]);
});

// Example 3 (4 players, Corinna is player C = seat 2 with 3+7): the card (s09) shows 2
// mushrooms, 6 pigs and 5 chimney sweeps; no 3 and no 7, so any target card is hers.
for (const target of ['mushroom', 'pig', 'sweep'] as const) {
  t.test(`example 3: Corinna (3+7) may take the ${target} when no count matches`, async (t) => {
    const state = accepted(given(4, [started, revealed('s09')]), { type: 'grab', target }, seat(2), T0 + 700).state;
    const answer = when(state, { type: 'timeout' }, { kind: 'system' }, T0 + 4100, ['s10']);
    t.same(Array.isArray(answer) && answer[0], { type: 'WinningPaid', seat: 2, target, card: 's10' });
  });
}

// Example 4: a mushroom touch card; Adrienne (seat 0) catches one of Bernd's (seat 1)
// hands between hers and wins the touch card and the jackpot.
t.test('example 4: Adrienne sandwiches Bernd\'s hand and wins the touch card and the jackpot', async (t) => {
  const before = given(3, [
    started,
    revealed('s01'),
    { type: 'CardAddedToJackpot', card: 's01' },
    { type: 'StartingPlayerChanged', seat: 1, returnedToStack: [], at: T0 + 4100 },
    revealed('t-mushroom-1', T0 + 5000, 1),
  ]);
  let state = accepted(before, { type: 'slap' }, seat(0), T0 + 5300).state;
  state = accepted(state, { type: 'slap' }, seat(1), T0 + 5310).state;
  const { events, state: after } = accepted(state, { type: 'slap' }, seat(0), T0 + 5320);
  t.same(events, [
    { type: 'HandSlapped', seat: 0, receivedAt: T0 + 5320 },
    { type: 'TouchCardWon', seat: 0, by: 'sandwich', card: 't-mushroom-1', jackpot: ['s01'] },
    { type: 'StartingPlayerChanged', seat: 2, returnedToStack: [], at: T0 + 5320 },
  ]);
  t.same(after.winnings[0], ['t-mushroom-1', 's01']);
  t.same(after.jackpot, []);
});
