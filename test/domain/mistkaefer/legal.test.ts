// legalCommands lists exactly what decide accepts; pending names the active seat.
import t from 'tap';
import type { Test } from 'tap';
import { serverChance } from '../../../src/domain/chance.ts';
import { isViolation } from '../../../src/domain/contract.ts';
import type { State } from '../../../src/domain/mistkaefer/index.ts';
import { mistkaefer } from '../../../src/domain/mistkaefer/index.ts';
import { after, afterFirstRound, given, place, roll, row, when } from './given.ts';

const acceptsAll = (t: Test, state: State, label: string) => {
  const seat = state.active;
  const legal = mistkaefer.legalCommands(state, seat);
  t.ok(legal.length > 0, `${label}: something is legal`);
  legal.forEach((command, i) => {
    const r = mistkaefer.decide(state, command, { actor: { kind: 'seat', seat }, now: 0, chance: serverChance(label, i) });
    t.notOk(isViolation(r), `${label}: ${JSON.stringify(command)} is accepted`);
  });
  for (let other = 0; other < state.seats; other++) {
    if (other !== seat) t.same(mistkaefer.legalCommands(state, other), [], `${label}: seat ${other} waits`);
  }
  t.same(mistkaefer.pending(state).seats, [seat]);
};

// Three victims whose green rows end with a 5: every subset may be stolen from.
let g = given(4);
for (const s of [1, 2, 3]) g = row(g, s, 'green', [5]);
g = afterFirstRound(g).chips(2, ['cloverLeaf']);
const placing = after(g.state, when(g.state, 0, roll('green', 4), [5, 5, 1, 2]));

t.test('the turn: every roll of 1..4 dice per colour, and scoring', async (t) => {
  const legal = mistkaefer.legalCommands(g.state, 0);
  t.equal(legal.length, 3 * 4 + 1);
  acceptsAll(t, g.state, 'turn');
});

t.test('placing: every value with every subset of the victims (≤ 8 per value)', async (t) => {
  const fives = mistkaefer.legalCommands(placing, 0).filter((c) => c.type === 'place' && c.value === 5);
  t.same(fives.map((c) => c.type === 'place' && c.stealFrom), [[], [1], [2], [1, 2], [3], [1, 3], [2, 3], [1, 2, 3]]);
  acceptsAll(t, placing, 'placing');
});

t.test('bonuses: every pending bonus, steal-one with each player who has a chip', async (t) => {
  const waiting = after(placing, when(placing, 0, place(5, [1, 2, 3])));
  t.same(waiting.bonuses, ['oneChip']);
  acceptsAll(t, waiting, 'bonus');
  const blue = after(g.state, when(g.state, 0, roll('blue', 4), [4, 4, 4, 4]));
  const both = after(blue, when(blue, 0, place(4)));
  t.same(mistkaefer.legalCommands(both, 0), [{ type: 'resolveBonus', bonus: 'stealChip', victim: 2 }]);
  acceptsAll(t, both, 'stealChip');
});

t.test('nobody acts before the start or after the end', async (t) => {
  const before = mistkaefer.initialState({ seats: 2, options: {} });
  t.same(mistkaefer.pending(before).seats, []);
  t.same(mistkaefer.legalCommands(before, 0), []);
  t.equal(mistkaefer.validateSetup?.({ seats: 5, options: {} })?.code, 'mistkaefer/player-count');
  t.equal(mistkaefer.validateSetup?.({ seats: 2, options: {} }), null);
});
