// Our end rule (rulebook gap): the game ends after the action of the `maxActions`-th
// revealed card, because random play showed that wrong grabs can keep the stack from
// ever running dry.
import t from 'tap';
import { porcaMiseria, type PorcaEvent, type PorcaState } from '../../../src/domain/porca-miseria/index.ts';
import { optionsSchema } from '../../../src/domain/porca-miseria/options.ts';
import { play } from '../../properties/harness.ts';
import { accepted, codeOf, given, revealed, seat, started, system, T0, when } from './given.ts';

// 4 players: seat 0 1+5, seat 1 2+6, seat 2 3+7, seat 3 4+8. s23: 4 mushrooms, 3 pigs,
// 6 sweeps; s09: 2 mushrooms, 6 pigs, 5 sweeps.
const secondAction: PorcaEvent[] = [
  started,
  revealed('s23'),
  { type: 'CardAddedToJackpot', card: 's23' },
  { type: 'StartingPlayerChanged', seat: 1, returnedToStack: [], at: T0 + 4100 },
];

t.test('300 actions by default; the option is bounded', async (t) => {
  t.equal(optionsSchema.parse({}).maxActions, 300);
  t.notOk(optionsSchema.safeParse({ maxActions: 0 }).success);
  t.notOk(optionsSchema.safeParse({ maxActions: 1.5 }).success);
});

t.test('before the limit the starting player changes as usual', async (t) => {
  const state = given(4, [started, revealed('s23')], { maxActions: 2 });
  t.equal(state.actions, 1, 'the revealed card counts as an action');
  const { events, state: after } = accepted(state, { type: 'timeout' }, system, T0 + 4100);
  t.same(events.at(-1), { type: 'StartingPlayerChanged', seat: 1, returnedToStack: [], at: T0 + 4100 });
  t.equal(porcaMiseria.result(after), null);
});

t.test('the action of the last card is settled in full, then the game ends instead of the change', async (t) => {
  let state = given(4, secondAction, { maxActions: 2 });
  state = accepted(state, { type: 'reveal' }, seat(1), T0 + 4200, ['s09']).state;
  state = accepted(state, { type: 'grab', target: 'pig' }, seat(2), T0 + 4300).state; // 3+7 match nothing: right
  state = accepted(state, { type: 'grab', target: 'mushroom' }, seat(0), T0 + 4400).state; // 5 sweeps: wrong
  const { events, state: after } = accepted(state, { type: 'timeout' }, system, T0 + 8200, ['s01']);
  t.same(events, [
    { type: 'WinningPaid', seat: 2, target: 'pig', card: 's01' },
    { type: 'LossPaid', seat: 0, target: 'mushroom', cards: [] },
    { type: 'CardAddedToJackpot', card: 's09' },
    { type: 'GameEnded', reason: 'action-limit' },
  ]);
  t.equal(after.phase, 'over');
  t.equal(after.endReason, 'action-limit');
  t.match(porcaMiseria.result(after), { scores: [0, 0, 1, 0], ranks: [2, 2, 1, 2], winners: [2] }, 'the jackpot counts for nobody');
  t.same(porcaMiseria.result(after)?.breakdown?.[2], [{ label: 'winning card', count: 1, points: 1 }], 'the breakdown counts the winning cards');
  t.same(porcaMiseria.pending(after), { seats: [] }, 'no deadline is left');
  t.equal(codeOf(when(after, { type: 'reveal' }, seat(2), T0 + 8300)), 'porca-miseria/game-over');
});

t.test('a touch card as the last card: its winner takes the jackpot, then the game ends', async (t) => {
  let state = given(4, secondAction, { maxActions: 2 });
  state = accepted(state, { type: 'reveal' }, seat(1), T0 + 4200, ['t-pig-1']).state;
  state = accepted(state, { type: 'slap' }, seat(3), T0 + 4300).state;
  const { events, state: after } = accepted(state, { type: 'timeout' }, system, T0 + 8200);
  t.same(events, [
    { type: 'TouchCardWon', seat: 3, by: 'bottom-hand', card: 't-pig-1', jackpot: ['s23'] },
    { type: 'GameEnded', reason: 'action-limit' },
  ]);
  t.same(porcaMiseria.result(after)?.winners, [3]);
});

t.test('views show how many cards have been revealed and the limit', async (t) => {
  const view = porcaMiseria.view(given(4, secondAction, { maxActions: 40 }), { kind: 'spectator' });
  t.same([view.actions, view.maxActions], [1, 40]);
});

// The property tests' counterexample: 3 seats, uniform random play.
const counterexample = (maxActions?: number) => ({
  seed: 'Y| )4',
  setup: { seats: 3, options: optionsSchema.parse({ expert: false, revealMs: 503, windowMs: 506, maxActions }) },
});

t.test('the counterexample that ran forever now ends at the limit', async (t) => {
  const played = play(porcaMiseria as never, counterexample());
  t.ok(played.ended, `ended after ${played.steps.length} commands`);
  t.match(played.final, { phase: 'over', endReason: 'action-limit', actions: 300 });
  t.same(played.log.at(-1), { type: 'GameEnded', reason: 'action-limit' });
});

t.test('without the limit the counterexample does not end: the limit is what ends it', async (t) => {
  const played = play(porcaMiseria as never, counterexample(10_000));
  t.notOk(played.ended, 'still running after 20,000 commands');
  t.ok((played.final as { actions: number }).actions > 300);
});

t.test('a game stored before the option existed has no limit, and its view says so with null', async (t) => {
  // The platform hands stored options to the rules as read from the database, so the
  // schema's default of 300 never fills the missing field in.
  const stored = JSON.parse('{"expert":false,"revealMs":503,"windowMs":506}');
  t.notOk('maxActions' in stored, 'the stored options lack the field');
  const played = play(porcaMiseria as never, { seed: counterexample().seed, setup: { seats: 3, options: stored } });
  t.notOk(played.ended, 'still running after 20,000 commands');
  const final = played.final as PorcaState;
  t.ok(final.actions > 300, `${final.actions} actions, beyond the default limit`);
  t.equal(porcaMiseria.view(final, { kind: 'spectator' }).maxActions, null);
});
