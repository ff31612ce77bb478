// Fackel+Keule: 46 cards and 92 chips are conserved; other seats' hands, their choices
// (cards, count and salt) before the reveal, the draw pile and face-down discards are
// hidden.
import assert from 'node:assert/strict';
import type { Chance } from '../../src/domain/chance.ts';
import type { Viewer } from '../../src/domain/contract.ts';
import { edition } from '../../src/domain/fackel-und-keule/edition.ts';
import { fackelUndKeule, type Event, type State } from '../../src/domain/fackel-und-keule/index.ts';
import { CHIP_KINDS, PREY_KINDS, tableFor } from '../../src/domain/fackel-und-keule/vocabulary.ts';
import { runBattery } from './battery.ts';
import { below } from './harness.ts';

const CARDS = edition.cards.map((c) => c.id).sort((a, b) => a - b);
const sorted = (cards: readonly number[]): number[] => [...cards].sort((a, b) => a - b);

/** Another card id, so a varied event names different cards. */
const otherCard = (id: number): number => (id % CARDS.length) + 1;

/** Deals the cards `viewer` cannot see (others' hands and the draw pile) anew, with the
 * same sizes, and makes up the choices of others that are not revealed yet. */
function scramble(state: State, viewer: Viewer, rng: Chance): State {
  const mine = (seat: number) => viewer.kind === 'seat' && viewer.seat === seat;
  const unseen = [...state.drawPile, ...state.hands.flatMap((hand, seat) => (mine(seat) ? [] : hand))];
  let deck = rng.draw(unseen, unseen.length);
  const deal = (n: number): number[] => {
    const cards = deck.slice(0, n);
    deck = deck.slice(n);
    return sorted(cards);
  };
  const hands = state.hands.map((hand, seat) => (mine(seat) ? hand : deal(hand.length)));
  const drawPile = deal(state.drawPile.length);
  const { phase } = state;
  if (phase.name !== 'choosing') return { ...state, hands, drawPile };
  const choices = phase.choices.map((choice, seat) => {
    const hand = hands[seat]!;
    if (choice === null || mine(seat) || hand.length === 0) return choice;
    const count = 1 + below(rng, Math.min(hand.length, tableFor(state.seats).maxPlay));
    return { ...choice, cards: sorted(rng.draw(hand, count)), salt: rng.secret() };
  });
  return { ...state, hands, drawPile, phase: { ...phase, choices } };
}

function vary(event: Event) {
  switch (event.type) {
    case 'CardsDrawn':
    case 'SurplusDiscarded':
      return { event: { ...event, cards: (event.cards ?? []).map(otherCard) }, owners: [event.seat] };
    case 'CardsChosen': {
      const cards = event.cards ?? [];
      // Also another count: how many cards were chosen is hidden until the reveal.
      const other = cards.length > 1 ? cards.slice(1) : [...cards, otherCard(cards[0] ?? 0)];
      return { event: { ...event, cards: other, salt: `${event.salt}0` }, owners: [event.seat] };
    }
    default:
      return null;
  }
}

runBattery({
  game: fackelUndKeule,
  runs: 25,
  legalShare: 0.25,
  conserved: (state: State) => {
    const cards = sorted([...state.hands.flat(), ...state.drawPile, ...state.discardPile, ...(state.played ?? []).flat()]);
    assert.deepStrictEqual(cards, CARDS, '46 cards: hands + draw pile + discard pile + in play');
    const pool = state.phase.name === 'sharing' ? state.phase.pool : null;
    for (const kind of CHIP_KINDS) {
      const onAnimal = pool && (PREY_KINDS as readonly string[]).includes(kind) ? pool[kind as keyof typeof pool] : 0;
      const total = state.supply[kind] + state.chips.reduce((n, c) => n + c[kind], 0) + onAnimal;
      assert.equal(total, edition.chips[kind], `${kind}: supply + players + on the animal`);
      assert.ok(state.supply[kind] >= 0 && state.chips.every((c) => c[kind] >= 0), `no negative ${kind}`);
    }
  },
  secrecy: { scramble, vary },
});
