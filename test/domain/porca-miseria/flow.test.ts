// Revealing, the change of starting player with the jackpot limit, who may act, views
// and setup.
import t from 'tap';
import { z } from 'zod';
import { serverChance } from '../../../src/domain/chance.ts';
import { porcaMiseria, type PorcaEvent } from '../../../src/domain/porca-miseria/index.ts';
import { optionsSchema } from '../../../src/domain/porca-miseria/options.ts';
import { accepted, codeOf, given, revealed, revealMs, seat, started, system, T0, when } from './given.ts';

t.test('setup: seat 0 starts and the reveal window opens at once', async (t) => {
  const state = given(3, []);
  t.same(porcaMiseria.setup(state, { now: T0, chance: { roll: () => [], draw: () => [], secret: () => '' } }), [started]);
  t.same(porcaMiseria.pending(given(3, [started])), { seats: [0], deadline: T0 + revealMs });
  t.same(given(3, [started]).jackpot, [], 'at the beginning of the game there is no card in the jackpot');
  t.equal(codeOf(when(state, { type: 'reveal' }, seat(0), T0)), 'porca-miseria/not-started');
});

t.test('3 to 8 players', async (t) => {
  const options = optionsSchema.parse({});
  for (const seats of [2, 9]) t.equal(porcaMiseria.validateSetup?.({ options, seats })?.code, 'porca-miseria/player-count');
  for (const seats of [3, 8]) t.equal(porcaMiseria.validateSetup?.({ options, seats }), null);
});

t.test('options have defaults', async (t) => {
  t.same(optionsSchema.parse({}), { expert: false, revealMs: 5000, windowMs: 4000, maxActions: 300 });
});

t.test('the starting player reveals the top card, drawn from the stack at that moment', async (t) => {
  const state = given(4, [started]);
  t.equal(codeOf(when(state, { type: 'reveal' }, seat(1), T0 + 10)), 'porca-miseria/not-starting-player');
  const { events, state: after } = accepted(state, { type: 'reveal' }, seat(0), T0 + 10, ['t-sweep-2']);
  t.same(events, [{ type: 'CardRevealed', card: 't-sweep-2', by: 0, receivedAt: T0 + 10 }]);
  t.equal(after.phase, 'touch');
  t.equal(after.stack.length, 62);
  t.same(porcaMiseria.pending(after).deadline, T0 + 10 + 4000, 'the action window opens at the reveal');
  t.equal(codeOf(when(after, { type: 'reveal' }, seat(0), T0 + 20)), 'porca-miseria/card-already-revealed');
});

t.test('the server reveals when the starting player lets the reveal deadline pass', async (t) => {
  const state = given(4, [started]);
  t.equal(codeOf(when(state, { type: 'timeout' }, system, T0 + revealMs - 1)), 'porca-miseria/too-early');
  t.equal(codeOf(when(state, { type: 'reveal' }, seat(0), T0 + revealMs)), 'porca-miseria/too-late');
  t.same(when(state, { type: 'timeout' }, system, T0 + revealMs + 50, ['s07']), [
    { type: 'CardRevealed', card: 's07', by: null, receivedAt: T0 + revealMs + 50 },
  ]);
});

t.test('the starting player changes clockwise, back to seat 0 after the last seat', async (t) => {
  const state = given(3, [started, { type: 'StartingPlayerChanged', seat: 2, returnedToStack: [], at: T0 }, revealed('s23', T0 + 100, 2)]);
  const { events } = accepted(state, { type: 'timeout' }, system, T0 + 4100);
  t.match(events.at(-1), { type: 'StartingPlayerChanged', seat: 0 });
});

t.test('at the change, jackpot cards beyond five are shuffled back into the stack', async (t) => {
  const inJackpot = ['s30', 's31', 's32', 's33', 's34'];
  const state = given(4, [
    started,
    ...inJackpot.map((card): PorcaEvent => ({ type: 'WinningPaid', seat: 0, target: 'pig', card })),
    { type: 'LossPaid', seat: 0, target: 'pig', cards: inJackpot },
    revealed('s23'),
  ]);
  t.same(state.jackpot, inJackpot);
  const { events, state: after } = accepted(state, { type: 'timeout' }, system, T0 + 4100);
  t.same(events.at(-1), { type: 'StartingPlayerChanged', seat: 1, returnedToStack: ['s23'], at: T0 + 4100 });
  t.same(after.jackpot, inJackpot);
  t.ok(after.stack.includes('s23'));
});

t.test('a jackpot of five stays whole', async (t) => {
  const state = given(4, [started, revealed('s23')]);
  const { events } = accepted(state, { type: 'timeout' }, system, T0 + 4100);
  t.same(events.at(-1), { type: 'StartingPlayerChanged', seat: 1, returnedToStack: [], at: T0 + 4100 });
});

t.test('actor checks: seats only for moves, system only for timeout, real seats only', async (t) => {
  const state = given(4, [started, revealed('s23')]);
  t.equal(codeOf(when(state, { type: 'pass' }, system, T0 + 200)), 'porca-miseria/seat-only');
  t.equal(codeOf(when(state, { type: 'pass' }, seat(4), T0 + 200)), 'porca-miseria/unknown-seat');
  t.equal(codeOf(when(given(4, [started]), { type: 'pass' }, seat(0), T0 + 200)), 'porca-miseria/nothing-to-pass');
  const passed = accepted(state, { type: 'pass' }, seat(0), T0 + 200).state;
  t.equal(codeOf(when(passed, { type: 'pass' }, seat(0), T0 + 300)), 'porca-miseria/already-passed');
});

t.test('legal commands list exactly what each seat may send, and decide accepts each', async (t) => {
  const states = {
    reveal: given(4, [started]),
    symbol: accepted(given(4, [started, revealed('s23')]), { type: 'grab', target: 'pig' }, seat(1), T0 + 200).state,
    touch: given(4, [started, revealed('t-pig-1'), { type: 'HandSlapped', seat: 2, receivedAt: T0 + 150 }, { type: 'HandSlapped', seat: 2, receivedAt: T0 + 160 }]),
  };
  t.same(porcaMiseria.legalCommands(states.reveal, 0), [{ type: 'reveal' }]);
  t.same(porcaMiseria.legalCommands(states.reveal, 1), []);
  t.same(porcaMiseria.legalCommands(states.symbol, 0), [
    { type: 'grab', target: 'mushroom' },
    { type: 'grab', target: 'sweep' },
    { type: 'pass' },
  ]);
  t.same(porcaMiseria.legalCommands(states.touch, 0), [{ type: 'slap' }, { type: 'pass' }]);
  t.same(porcaMiseria.legalCommands(states.touch, 2), []);
  for (const [name, state] of Object.entries(states)) {
    for (let s = 0; s < 4; s++) {
      for (const command of porcaMiseria.legalCommands(state, s)) {
        const answer = porcaMiseria.decide(state, command, { actor: seat(s), now: T0 + 300, chance: serverChance('legal', s) });
        t.ok(Array.isArray(answer) && answer.length > 0, `${name}: seat ${s} ${JSON.stringify(command)}`);
      }
    }
  }
});

t.test('views: the same public table for seats and spectators; only `all` sees the stack', async (t) => {
  const state = accepted(given(4, [started, revealed('s23')]), { type: 'grab', target: 'pig' }, seat(1), T0 + 200).state;
  const seatView = porcaMiseria.view(state, { kind: 'seat', seat: 2 });
  t.same(seatView, porcaMiseria.view(state, { kind: 'spectator' }));
  t.equal(seatView.stack, null);
  t.equal(seatView.stackSize, 62);
  t.same(seatView.card, { id: 's23', kind: 'symbol', counts: { mushroom: 4, pig: 3, sweep: 6 } });
  t.same(seatView.targets, [
    { symbol: 'mushroom', heldBy: null },
    { symbol: 'pig', heldBy: 1 },
    { symbol: 'sweep', heldBy: null },
  ]);
  t.equal(seatView.deadline, T0 + 4100);
  t.equal(porcaMiseria.view(state, { kind: 'all' }).stack?.length, 62);
  t.same(JSON.parse(JSON.stringify(seatView)), seatView, 'plain JSON');
});

t.test('events carry no secret: redact leaves them whole, and they validate', async (t) => {
  const before = given(4, [started]);
  const event: PorcaEvent = { type: 'CardRevealed', card: 's23', by: 0, receivedAt: T0 };
  for (const viewer of [{ kind: 'seat', seat: 1 }, { kind: 'spectator' }, { kind: 'all' }] as const) {
    const shown = porcaMiseria.redact(event, viewer, before);
    t.same(shown, event);
    t.ok(porcaMiseria.eventSchema.safeParse(shown).success);
  }
});

t.test('options, commands and events are plain JSON Schema for OpenAPI', async (t) => {
  for (const schema of [porcaMiseria.optionsSchema, porcaMiseria.commandSchema, porcaMiseria.eventSchema]) {
    t.doesNotThrow(() => z.toJSONSchema(schema));
  }
});

t.test('revealMs and windowMs 0: no deadline; the table reveals and settles, nothing is too late', async (t) => {
  const untimed = { revealMs: 0, windowMs: 0 };
  const state = given(3, [started], untimed);
  t.same(porcaMiseria.pending(state), { seats: [0] }, 'the reveal has no deadline');
  t.equal(codeOf(when(state, { type: 'timeout' }, system, T0 * 10)), 'porca-miseria/no-deadline');
  const open = accepted(state, { type: 'reveal' }, seat(0), T0 * 10, ['s23']).state;
  t.same(porcaMiseria.pending(open).deadline, undefined, 'nor has the action window');
  t.equal(codeOf(when(open, { type: 'pass' }, seat(1), T0 * 100)), null, 'a pass long after is still in time');
  t.equal(optionsSchema.safeParse({ revealMs: 200 }).success, false, 'a deadline is 0 or at least half a second');
});
