// Porca Miseria: the 63 stack cards and the 3 target cards are conserved; the only
// hidden thing is the face-down stack.
import assert from 'node:assert/strict';
import { deckIds } from '../../src/domain/porca-miseria/edition.ts';
import { porcaMiseria, type PorcaState } from '../../src/domain/porca-miseria/index.ts';
import { symbols } from '../../src/domain/porca-miseria/vocabulary.ts';
import { runBattery } from './battery.ts';

const DECK = [...deckIds].sort();

runBattery({
  game: porcaMiseria,
  runs: 6,
  // Random games end by `maxActions` (300) within a few thousand commands; the rest look at 1,500.
  limit: 1_500,
  legalShare: 0.05,
  conserved: (state: PorcaState) => {
    const revealed = state.card === null ? [] : [state.card];
    const cards = [...state.stack, ...state.jackpot, ...state.winnings.flat(), ...revealed].sort();
    assert.deepStrictEqual(cards, DECK, '63 cards: stack + jackpot + winnings + revealed');
    const grabbed = state.grabs.map((g) => g.target);
    const kept = state.compensation.flat();
    for (const held of [grabbed, kept]) {
      assert.equal(new Set(held).size, held.length, `a target card held twice: ${held}`);
      assert.ok(held.every((s) => (symbols as readonly string[]).includes(s)), `not a target card: ${held}`);
    }
  },
  secrecy: { faceDown: (state: PorcaState) => state.stack },
});
