// Pechvogel: nothing is hidden; 15 score markers and 7 dice are conserved, and
// frustrations are accounted for (the supply is unlimited and not tracked).
import assert from 'node:assert/strict';
import type { Setup } from '../../src/domain/contract.ts';
import { pechvogel, type Options, type PechvogelEvent, type State } from '../../src/domain/pechvogel/index.ts';
import { runBattery } from './battery.ts';

const MARKERS = [3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 7];
const DICE = 7;
const RAVEN_LIMIT = 3;

const onBoard = (state: State): number => state.turn?.frustraters.length ?? 0;
const held = (state: State): number => state.players.reduce((n, p) => n + p.frustrations, 0);

runBattery({
  game: pechvogel,
  runs: 20,
  legalShare: 0.3,
  conserved: (state: State, setup: Setup<Options>) => {
    const markers = [...state.middle, ...state.box, ...state.players.flatMap((p) => p.markers)].sort((a, b) => a - b);
    assert.deepStrictEqual(markers, MARKERS, 'score markers: middle + players + box');
    for (const [seat, p] of state.players.entries()) assert.ok(p.frustrations >= 0, `seat ${seat} holds ${p.frustrations} frustrations`);
    if (state.turn) {
      const { targetsOnBoard, ravensOnBoard, remaining } = state.turn;
      assert.equal(targetsOnBoard + ravensOnBoard + remaining, DICE, `dice: ${targetsOnBoard} target + ${ravensOnBoard} ravens + ${remaining} off the board`);
    }
    assert.ok(state.murphy === null || (state.murphy >= 0 && state.murphy < setup.seats), 'Murphy lies with a seat or in the box');
  },
  transition: (before: State, event: PechvogelEvent, after: State) => {
    // Frustrations come from the supply only by these facts, and go back only by reduce.
    let fromSupply = 0;
    if (event.type === 'FrustrationReduced') fromSupply = -1;
    if (event.type === 'TurnEnded') {
      const frustraters = before.turn!.frustraters;
      if (before.turn!.ravensOnBoard >= RAVEN_LIMIT) {
        assert.equal(event.frustrationsTaken.fromBoard, frustraters.length, 'the player takes every frustration on the board');
        assert.equal(event.frustrationsTaken.fromSupply, frustraters.length === 0 ? 1 : 0, 'one from the supply only when none lay on the board');
        assert.deepStrictEqual(event.repaid, [], 'no repayment after three ravens');
      } else {
        assert.deepStrictEqual(event.frustrationsTaken, { fromBoard: 0, fromSupply: 0 });
        assert.deepStrictEqual(event.repaid.map((r) => r.seat), [...frustraters], 'each frustrater gets back exactly their own, in order');
      }
      fromSupply = event.frustrationsTaken.fromSupply + event.repaid.filter((r) => !r.fromPlayer).length;
    }
    assert.equal(held(after) + onBoard(after), held(before) + onBoard(before) + fromSupply, 'frustrations: players + board change only by the supply');
  },
  secrecy: {},
});
