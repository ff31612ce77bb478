// The edition's deck and the rulebook's lucky-number table.
import t from 'tap';
import { porcaMiseria } from '../../../src/domain/porca-miseria/index.ts';
import { luckyNumberTable, luckyNumbersOf, rightfulTargets } from '../../../src/domain/porca-miseria/lucky-numbers.ts';
import { cardById } from '../../../src/domain/porca-miseria/edition.ts';
import type { SymbolCard } from '../../../src/domain/porca-miseria/vocabulary.ts';
import { accepted, given, revealed, seat, started, T0 } from './given.ts';

const { cards } = porcaMiseria.edition as { cards: { id: string; kind: string }[] };

t.test('the stack has 63 cards with distinct ids: 54 symbol cards and 3 touch cards per symbol', async (t) => {
  t.equal(cards.length, 63);
  t.equal(new Set(cards.map((c) => c.id)).size, 63);
  t.equal(cards.filter((c) => c.kind === 'symbol').length, 54);
  for (const symbol of ['mushroom', 'pig', 'sweep']) {
    t.equal(cards.filter((c) => c.kind === 'touch' && (c as { symbol?: string }).symbol === symbol).length, 3);
  }
});

t.test('each symbol card shows one to eight of each symbol, three different counts', async (t) => {
  for (const card of Object.values(cardById)) {
    if (card.kind !== 'symbol') continue;
    const counts = Object.values(card.counts);
    t.ok(counts.every((n) => Number.isInteger(n) && n >= 1 && n <= 8), card.id);
    t.equal(new Set(counts).size, 3, card.id);
  }
});

t.test('the edition holds the rulebook example cards', async (t) => {
  t.same(cardById['s23'], { id: 's23', kind: 'symbol', counts: { mushroom: 4, pig: 3, sweep: 6 } });
  t.match(cardById['s05'], { counts: { mushroom: 1, pig: 5 } });
  t.match(cardById['s09'], { counts: { mushroom: 2, pig: 6, sweep: 5 } });
});

// Source: the rulebook, "Distribution of Lucky Numbers".
t.test('the lucky numbers are exactly the rulebook table', async (t) => {
  t.same(luckyNumberTable, {
    3: [[1, 4, 7], [2, 5, 8], [3, 6]],
    4: [[1, 5], [2, 6], [3, 7], [4, 8]],
    5: [[1, 6], [2, 7], [3, 8], [4], [5]],
    6: [[1, 7], [2, 8], [3], [4], [5], [6]],
    7: [[1, 8], [2], [3], [4], [5], [6], [7]],
    8: [[1], [2], [3], [4], [5], [6], [7], [8]],
  });
  for (let n = 3; n <= 8; n++) {
    t.same(luckyNumberTable[n]!.flat().sort(), [1, 2, 3, 4, 5, 6, 7, 8], `${n} players share 1..8`);
  }
});

t.test('player A is the starting player and letters follow clockwise', async (t) => {
  t.same(luckyNumbersOf(4, 0, 0), [1, 5]);
  t.same(luckyNumbersOf(4, 0, 3), [4, 8]);
  t.same(luckyNumbersOf(4, 2, 2), [1, 5]);
  t.same(luckyNumbersOf(4, 2, 1), [4, 8]);
});

t.test('rightful targets: matching counts, or all three when nothing matches', async (t) => {
  const card = cardById['s23'] as SymbolCard;
  t.same(rightfulTargets([4], card), ['mushroom']);
  t.same(rightfulTargets([3, 6], card), ['pig', 'sweep']);
  t.same(rightfulTargets([5], card), ['mushroom', 'pig', 'sweep']);
});

t.test('players keep their lucky numbers when the starting player changes', async (t) => {
  const after = given(4, [started, { type: 'StartingPlayerChanged', seat: 1, returnedToStack: [], at: T0 }]);
  t.same(porcaMiseria.view(after, { kind: 'spectator' }).luckyNumbers, [[1, 5], [2, 6], [3, 7], [4, 8]]);
});

t.test('expert variant: the lucky numbers move with the starting player', async (t) => {
  const after = given(4, [started, { type: 'StartingPlayerChanged', seat: 1, returnedToStack: [], at: T0 }], {
    expert: true,
  });
  t.same(porcaMiseria.view(after, { kind: 'spectator' }).luckyNumbers, [[4, 8], [1, 5], [2, 6], [3, 7]]);
  // s23 shows 4 mushrooms: seat 0 now holds 4+8, so only the mushroom is rightful.
  let state = given(4, [started, { type: 'StartingPlayerChanged', seat: 1, returnedToStack: [], at: T0 }, revealed('s23', T0 + 100, 1)], {
    expert: true,
  });
  state = accepted(state, { type: 'grab', target: 'pig' }, seat(0), T0 + 200).state;
  const { events } = accepted(state, { type: 'timeout' }, { kind: 'system' }, T0 + 4100);
  t.match(events[0], { type: 'LossPaid', seat: 0, target: 'pig' });
});
