// The optional time limit: deadlines per phase or turn, the system's timeout, and how
// the table acts for seats that let their time run out.
import t from 'tap';
import { serverChance, suppliedChance } from '../../../src/domain/chance.ts';
import { fold, isViolation, type RuleViolation } from '../../../src/domain/contract.ts';
import { codes, verifyCommitment, type Event, type Options, type State } from '../../../src/domain/fackel-und-keule/index.ts';
import { accept, applyEvents, game, given, opening, reject, types } from './helpers.ts';

const LIMIT: Options = { turnSeconds: 30 };
const T0 = 1_000;
const DEADLINE = T0 + 30_000;

// Wild horse: 3 spears. Spears 2,5,8,…,20; torches 1,4,…; stone-axes 3,6,…; clubs 33–46.
const hands = [[2, 5, 8, 11, 14], [17, 33, 34, 35, 36], [20, 3, 4, 6, 9]];
const start = (options = LIMIT) => given(3, opening(hands, 'wild-horse', options, T0), options);

/** The system's timeout at `now` with the referee's outcomes, all of which must be used. */
const timeout = (state: State, now: number, outcomes: readonly unknown[] = []): Event[] => {
  const chance = suppliedChance(outcomes, 'test:system');
  const out = game.decide(state, { type: 'timeout' }, { actor: { kind: 'system' }, now, chance });
  if (isViolation(out)) throw new Error(`rejected: ${out.code} ${out.message}`);
  chance.assertAllUsed();
  return out;
};
const refusedTimeout = (state: State, now: number): RuleViolation =>
  game.decide(state, { type: 'timeout' }, { actor: { kind: 'system' }, now, chance: suppliedChance([], 'x') }) as RuleViolation;

t.test('a deadline exists only with turnSeconds, written into the log at the start of the phase', async (t) => {
  const free = start({ turnSeconds: 0 });
  t.equal(game.pending(free).deadline, undefined, 'no limit, no deadline');
  t.notOk(opening(hands, 'wild-horse').some((e) => e.type === 'DeadlineSet'));
  t.equal(refusedTimeout(free, 1e15).code, codes.noDeadline);
  // Games created under 1.0.0 stored their options as {}: they replay without a limit.
  const old = given(3, opening(hands, 'wild-horse'), {} as Options);
  t.equal(old.turnMs, 0, 'no limit, and the state stays plain JSON');
  t.equal(game.pending(old).deadline, undefined);

  const events = opening(hands, 'wild-horse', LIMIT, T0);
  t.same(events.at(-1), { type: 'DeadlineSet', deadline: DEADLINE }, 'setup’s ctx.now + 30 s');
  const state = start();
  t.same(game.pending(state), { seats: [0, 1, 2], deadline: DEADLINE });
  t.equal(game.view(state, { kind: 'spectator' }).deadline, DEADLINE);
  // A choice does not restart the clock for the others: the phase began at T0.
  const after = applyEvents(state, accept(state, 1, { type: 'choose', cards: [17] }, [], T0 + 20_000));
  t.same(game.pending(after), { seats: [0, 2], deadline: DEADLINE });
});

t.test('a timeout before the deadline is refused; a seat cannot send one', async (t) => {
  const state = start();
  t.equal(refusedTimeout(state, DEADLINE - 1).code, codes.tooEarly);
  t.equal(reject(state, 0, { type: 'timeout' }, T0).code, codes.systemOnly);
  t.ok(timeout(state, DEADLINE, [2, 17, 20]), 'accepted from the deadline on');
});

t.test('a player command at or after the deadline is refused', async (t) => {
  const state = start();
  t.equal(reject(state, 0, { type: 'choose', cards: [2] }, DEADLINE).code, codes.tooLate);
  t.equal(reject(state, 0, { type: 'choose', cards: [2] }, DEADLINE + 5_000).code, codes.tooLate);
  t.ok(accept(state, 0, { type: 'choose', cards: [2] }, [], DEADLINE - 1), 'a millisecond before is in time');
});

/** Seat 1 chooses spear 17 in time; seats 0 and 2 let the deadline pass and the
 * referee draws spear 2 and spear 20 for them: 3 spears kill the horse. */
const timedOutChoosing = () => {
  let state = start();
  state = applyEvents(state, accept(state, 1, { type: 'choose', cards: [17] }, [], T0 + 10));
  const events = timeout(state, DEADLINE, [2, 20]);
  return { before: state, events, state: applyEvents(state, events) };
};

t.test('choosing: the table plays one random card for exactly the seats still pending, committed then revealed', async (t) => {
  const { before, events, state } = timedOutChoosing();
  t.same(types(events), ['TimedOut', 'CardsChosen', 'CardsChosen', 'CardsRevealed', 'HuntSucceeded', 'DeadlineSet']);
  t.same(events[0], { type: 'TimedOut', seats: [0, 2] });
  const chosen = events.filter((e) => e.type === 'CardsChosen');
  t.same(chosen.map((e) => [e.seat, e.cards]), [[0, [2]], [2, [20]]], 'seat 1’s choice is left alone');
  const reveal = events.find((e) => e.type === 'CardsRevealed');
  if (reveal?.type !== 'CardsRevealed') throw new Error('no reveal');
  t.same(reveal.choices.map((c) => c.cards), [[2], [17], [20]]);
  for (const c of chosen) {
    const shown = reveal.choices.find((r) => r.seat === c.seat)!;
    t.ok(verifyCommitment(c.commitment, shown.salt, shown.cards), `seat ${c.seat}'s timed-out choice is a kept commitment`);
    // Until the reveal event, the others see only the commitment.
    t.same(game.redact(c, { kind: 'seat', seat: 1 }, before), { ...c, cards: null, salt: null });
    t.same(game.redact(c, { kind: 'spectator' }, before), { ...c, cards: null, salt: null });
  }
  t.same(events.at(-1), { type: 'DeadlineSet', deadline: DEADLINE + 30_000 }, 'the first taker’s turn starts now');
  t.same(game.pending(state), { seats: [0], deadline: DEADLINE + 30_000 });
});

t.test('sharing and discarding: the first legal take, then random surplus for the pending seats only', async (t) => {
  let state = timedOutChoosing().state;
  const takeDeadline = DEADLINE + 30_000;
  // Seat 0 takes 2 from teeth 1, fur 1, meat 2: the first take in the order teeth, fur, meat.
  const draws = [1, 7, 10, 12, 13, 15, 16, 18, 19];
  const shared = timeout(state, takeDeadline, draws);
  t.same(shared.slice(0, 2), [
    { type: 'TimedOut', seats: [0] },
    { type: 'PreyTaken', seat: 0, chips: ['teeth', 'fur'], automatic: false },
  ]);
  t.same(types(shared).slice(2, 5), ['PreyTaken', 'PreyTaken', 'RoundEnded'], 'only meat left: taken automatically');
  t.same(shared.at(-1), { type: 'DeadlineSet', deadline: takeDeadline + 30_000 }, 'the discards get their own time');
  state = applyEvents(state, shared);
  t.equal(state.phase.name, 'discarding');
  t.same(game.pending(state).seats, [0, 1, 2]);

  state = applyEvents(state, accept(state, 1, { type: 'discard', cards: [12] }, [], takeDeadline + 100));
  t.same(game.pending(state), { seats: [0, 2], deadline: takeDeadline + 30_000 }, 'a discard does not restart the others’ clock');
  const discarded = timeout(state, takeDeadline + 30_000, [5, 3, 'mammoth']);
  t.same(types(discarded), ['TimedOut', 'SurplusDiscarded', 'SurplusDiscarded', 'AnimalRevealed', 'DeadlineSet']);
  t.same(discarded[0], { type: 'TimedOut', seats: [0, 2] });
  const [, first] = discarded;
  t.same(first, { type: 'SurplusDiscarded', seat: 0, count: 1, cards: [5] });
  t.same(game.redact(first!, { kind: 'seat', seat: 1 }, state), { type: 'SurplusDiscarded', seat: 0, count: 1, cards: null }, 'still face down');
  state = applyEvents(state, discarded);
  t.same(state.hands.map((h) => h.length), [6, 6, 6]);
});

t.test('a take begins the next taker’s turn with its own time; a late timeout still gives the next turn all of it', async (t) => {
  let state = start();
  state = applyEvents(state, accept(state, 1, { type: 'choose', cards: [17] }, [], T0 + 10));
  // The scheduler sends the timeout 5 s after the deadline: the first taker's 30 s count
  // from then, not from the missed deadline.
  const late = DEADLINE + 5_000;
  const revealed = timeout(state, late, [2, 20]);
  t.same(revealed.at(-1), { type: 'DeadlineSet', deadline: late + 30_000 });
  state = applyEvents(state, revealed);
  // Seat 0 takes teeth and meat, leaving fur and meat: seat 1 chooses, on its own clock.
  const taken = late + 1_000;
  t.same(accept(state, 0, { type: 'takePrey', chips: ['teeth', 'meat'] }, [], taken), [
    { type: 'PreyTaken', seat: 0, chips: ['teeth', 'meat'], automatic: false },
    { type: 'DeadlineSet', deadline: taken + 30_000 },
  ]);
});

t.test('robbing: the winner takes from the first loser, the first kind it holds (teeth, fur, meat)', async (t) => {
  let state = timedOutChoosing().state;
  state = applyEvents(state, timeout(state, DEADLINE + 30_000, [1, 7, 10, 12, 13, 15, 16, 18, 19]));
  const t2 = DEADLINE + 60_000;
  state = applyEvents(state, timeout(state, t2, [5, 12, 3, 'mammoth']));
  t.same(state.chips.map((c) => [c.teeth, c.fur, c.meat]), [[1, 1, 0], [0, 0, 1], [0, 0, 1]]);
  // Mammoth: seat 1 plays 2 clubs; seats 0 and 2 time out on a single tool and lose the fight.
  const t3 = t2 + 30_000;
  state = applyEvents(state, accept(state, 1, { type: 'choose', cards: [33, 34] }, [], t3 - 1));
  state = applyEvents(state, timeout(state, t3, [1, 4]));
  t.equal(state.phase.name, 'robbing');
  t.same(game.pending(state), { seats: [1], deadline: t3 + 30_000 });
  t.equal(reject(state, 1, { type: 'rob', from: 0, chip: 'meat' }, t3 + 30_000).code, codes.tooLate);
  const robbed = timeout(state, t3 + 30_000, state.drawPile.slice(0, 9));
  t.same(robbed.slice(0, 2), [
    { type: 'TimedOut', seats: [1] },
    { type: 'ChipRobbed', winner: 1, from: 0, chip: 'teeth' },
  ]);
  t.equal(robbed.at(-1)!.type, 'DeadlineSet');
});

/** A random game in which `idle` seats never act. Time is a fake clock: a seat acts
 * before the deadline; when only idle seats are pending (or, now and then, when we
 * choose to let the deadline pass) the system sends timeout with now = deadline. */
const playWithIdleSeats = (seats: number, idle: readonly number[], seed: string) => {
  const setup = { options: game.optionsSchema.parse({ turnSeconds: 20 }), seats };
  let state = game.initialState(setup);
  const log: Event[] = [...game.setup(state, { now: T0, chance: serverChance(seed, 0) })];
  state = log.reduce(game.evolve, state);
  let now = T0;
  let lateRefusals = 0;
  for (let i = 1; game.result(state) === null; i++) {
    if (i > 5000) throw new Error('game did not end');
    const pick = serverChance(`${seed}:pick`, i);
    const { seats: pending, deadline } = game.pending(state);
    if (deadline === undefined) throw new Error(`seats ${pending} are waited for without a deadline`);
    const active = pending.filter((s) => !idle.includes(s));
    const letItPass = active.length === 0 || pick.roll([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 1)[0] === 0;
    let out;
    if (letItPass) {
      now = deadline;
      const late = pending[0]!;
      const [command] = pick.draw(game.legalCommands(state, late), 1);
      const refused = game.decide(state, command!, { actor: { kind: 'seat', seat: late }, now, chance: serverChance(seed, i) });
      if (isViolation(refused) && refused.code === codes.tooLate) lateRefusals++;
      out = game.decide(state, { type: 'timeout' }, { actor: { kind: 'system' }, now, chance: serverChance(seed, i) });
    } else {
      const [seat] = pick.draw(active, 1);
      const [command] = pick.draw(game.legalCommands(state, seat!), 1);
      now = Math.min(now + 1 + pick.roll([0, 1000, 5000], 1)[0]!, deadline - 1);
      out = game.decide(state, command!, { actor: { kind: 'seat', seat: seat! }, now, chance: serverChance(seed, i) });
    }
    if (isViolation(out)) throw new Error(`${out.code}: ${out.message}`);
    for (const e of out) game.eventSchema.parse(e);
    log.push(...out);
    state = out.reduce(game.evolve, state);
  }
  return { setup, state, log, lateRefusals };
};

for (const [seats, idle, seed] of [[3, [0], 'a'], [4, [1, 3], 'b'], [5, [0, 2, 4], 'c'], [3, [0, 1, 2], 'd']] as const) {
  t.test(`a random ${seats}-player game with seats ${idle} never acting ends and replays`, async (t) => {
    const { setup, state, log, lateRefusals } = playWithIdleSeats(seats, idle, seed);
    t.ok(game.result(state), 'the game ended');
    t.equal(log.at(-1)!.type, 'GameEnded');
    t.equal(log.filter((e) => e.type === 'AnimalRevealed').length, 12);
    t.same(fold(game, setup, log), state, 'folding the log (no clock) gives the same state');
    t.equal(lateRefusals, log.filter((e) => e.type === 'TimedOut').length, 'every late command was refused');
    const timedOut = new Set(log.flatMap((e) => (e.type === 'TimedOut' ? e.seats : [])));
    for (const seat of idle) t.ok(timedOut.has(seat), `the table acted for idle seat ${seat}`);
    const chosen = log.filter((e) => e.type === 'CardsChosen' && (idle as readonly number[]).includes(e.seat));
    t.equal(chosen.length, 12 * idle.length, 'idle seats chose every round, through the table');
    t.ok(chosen.every((e) => e.type === 'CardsChosen' && e.cards?.length === 1), 'one card each');
  });
}
