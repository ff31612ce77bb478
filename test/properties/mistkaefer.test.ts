// Mistkäfer: dice and chips (after the removals for the player count) are conserved;
// chip kinds are seen only by their owner (and thief and victim of a steal).
import assert from 'node:assert/strict';
import type { Chance } from '../../src/domain/chance.ts';
import type { Setup, Viewer } from '../../src/domain/contract.ts';
import { edition } from '../../src/domain/mistkaefer/edition.ts';
import { mistkaefer, type Event, type Options, type State } from '../../src/domain/mistkaefer/index.ts';
import { componentsFor, supplyList } from '../../src/domain/mistkaefer/state.ts';
import { chipKinds, colours, type ChipKind } from '../../src/domain/mistkaefer/vocabulary.ts';
import { runBattery } from './battery.ts';

const nextKind = (kind: ChipKind): ChipKind => chipKinds[(chipKinds.indexOf(kind) + 1) % chipKinds.length]!;

/** Deals the chips `viewer` cannot see (others' hands and the supply) anew. */
function scramble(state: State, viewer: Viewer, rng: Chance): State {
  const mine = (seat: number) => viewer.kind === 'seat' && viewer.seat === seat;
  const unseen = [...supplyList(state.chips), ...state.hands.flatMap((hand, seat) => (mine(seat) ? [] : hand))];
  let pile = rng.draw(unseen, unseen.length);
  const hands = state.hands.map((hand, seat) => {
    if (mine(seat)) return hand;
    const dealt = pile.slice(0, hand.length);
    pile = pile.slice(hand.length);
    return dealt;
  });
  const chips = { oneDungBall: 0, twoDungBalls: 0, cloverLeaf: 0 };
  for (const kind of pile) chips[kind]++;
  return { ...state, hands, chips };
}

function vary(event: Event) {
  switch (event.type) {
    case 'ChipsTaken':
      return { event: { ...event, chips: (event.chips ?? []).map(nextKind) }, owners: [event.seat] };
    case 'ChipStolen':
      return { event: { ...event, chip: nextKind(event.chip ?? 'cloverLeaf') }, owners: [event.thief, event.victim] };
    default:
      return null;
  }
}

runBattery({
  game: mistkaefer,
  runs: 6,
  legalShare: 0.05,
  conserved: (state: State, setup: Setup<Options>) => {
    const components = componentsFor(setup.seats);
    for (const colour of colours) {
      const rolled = state.rolled?.colour === colour ? state.rolled.values.length : 0;
      const onTableaus = state.tableaus.reduce((n, t) => n + t[colour].length, 0);
      assert.equal(state.dice[colour] + onTableaus + rolled, components.dice[colour], `${colour} dice: supply + tableaus + rolled`);
      assert.ok(state.dice[colour] >= 0, `no negative ${colour} supply`);
      for (const tableau of state.tableaus) {
        const row = tableau[colour];
        assert.ok(row.length <= edition.tableau.rowLength, `a ${colour} row of ${row.length}`);
        assert.ok(row.every((v, i) => i === 0 || v >= row[i - 1]!), `${colour} row ${row} rises left to right`);
      }
    }
    for (const kind of chipKinds) {
      const held = state.hands.reduce((n, hand) => n + hand.filter((k) => k === kind).length, 0);
      assert.equal(state.chips[kind] + held, components.chips[kind], `${kind} chips: supply + players`);
      assert.ok(state.chips[kind] >= 0, `no negative ${kind} supply`);
    }
  },
  secrecy: { scramble, vary },
});
