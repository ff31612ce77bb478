// The lifecycle wrapper's decisions as given/when/then on the modules the platform
// plays (src/domain/games.ts): the turn clock's timeout, and resigning.
import t from 'tap';
import { play } from '../../src/bots/index.ts';
import { randomBot } from '../../src/bots/bot.ts';
import { serverChance, suppliedChance } from '../../src/domain/chance.ts';
import { isViolation, type Actor, type Command, type GameEvent, type RuleViolation } from '../../src/domain/contract.ts';
import { findGame } from '../../src/domain/games.ts';

const NOW = 1_700_000_000_000;
const system: Actor = { kind: 'system' };

function started(type: string, options: Record<string, unknown>) {
  const game = findGame(type)!;
  const setup = { seats: 2, options: game.optionsSchema.parse(options) };
  const initial = game.initialState(setup);
  const events = game.setup(initial, { now: NOW, chance: serverChance('lifecycle', 0) });
  return { game, state: events.reduce((s, e) => game.evolve(s, e), initial), events };
}

const decide = (type: string, state: unknown, command: Command, actor: Actor, now: number) =>
  findGame(type)!.decide(state, command, { actor, now, chance: serverChance('lifecycle', 1) });
const codeOf = (decided: GameEvent[] | RuleViolation) => (isViolation(decided) ? decided.code : decided.map((e) => e.type).join(','));

t.test('the turn clock: too early, then the pending seat loses on time', async (t) => {
  for (const type of ['pechvogel', 'mistkaefer']) {
    const { state, events } = started(type, { turnSeconds: 10 });
    t.same(events.at(-1), { type: 'TurnClockSet', deadline: NOW + 10_000 }, `${type}: setup starts the clock`);
    t.equal(codeOf(decide(type, state, { type: 'timeout' }, system, NOW + 9_999)), 'lifecycle/too-early', `${type}: a timeout before the clock runs out is too early (the scheduler tries again)`);
    t.equal(codeOf(decide(type, state, { type: 'timeout' }, { kind: 'seat', seat: 0 }, NOW + 10_000)), type === 'pechvogel' ? 'pechvogel/wrong-actor' : 'lifecycle/system-only', `${type}: a seat cannot send it`);
    t.same(decide(type, state, { type: 'timeout' }, system, NOW + 10_000), [{ type: 'SeatResigned', seat: 0, timedOut: true }], `${type}: at the deadline seat 0 loses on time`);
  }
  const { state } = started('mistkaefer', {});
  t.equal(codeOf(decide('mistkaefer', state, { type: 'timeout' }, system, NOW + 10_000_000)), 'lifecycle/no-deadline', 'without a clock nothing times out');
});

t.test('resigning: a seat only, and not once the game is over', async (t) => {
  const { game, state } = started('pechvogel', {});
  t.equal(codeOf(decide('pechvogel', state, { type: 'resign' }, system, NOW)), 'lifecycle/seat-only');
  const resigned = decide('pechvogel', state, { type: 'resign' }, { kind: 'seat', seat: 1 }, NOW) as GameEvent[];
  const after = resigned.reduce((s, e) => game.evolve(s, e), state);
  t.same(game.result(after), { scores: [1, 0], ranks: [1, 2], winners: [0], resigned: [1] });
  t.equal(codeOf(decide('pechvogel', after, { type: 'resign' }, { kind: 'seat', seat: 0 }, NOW)), 'lifecycle/over');
});

t.test('a seat resigns also while a supplied game waits for chance', async (t) => {
  const game = findGame('fackel-und-keule')!;
  const setup = { seats: 3, options: game.optionsSchema.parse(game.untimedOptions) };
  const initial = game.initialState(setup);
  const opening = game.setup(initial, { now: NOW, chance: suppliedChance([], 'salt') });
  t.same(opening.map((e) => e.type), ['ChanceAwaited'], 'the deal waits for the table');
  const waiting = opening.reduce((s, e) => game.evolve(s, e), initial);
  t.ok(game.pending(waiting).chance !== undefined, 'chance is awaited');
  const decided = game.decide(waiting, { type: 'resign' }, { actor: { kind: 'seat', seat: 2 }, now: NOW, chance: suppliedChance([], 'salt') });
  t.same(decided, [{ type: 'SeatResigned', seat: 2, timedOut: false }]);
  const after = (decided as GameEvent[]).reduce((s, e) => game.evolve(s, e), waiting);
  t.same(game.result(after)?.winners, [0, 1]);
  t.same(game.pending(after), { seats: [] }, 'nobody, not even chance, is waited for');
});

t.test('adjudicating: the system only; it ends a running game with the result given, or corrects one over; never one without a result', async (t) => {
  const { game, state } = started('pechvogel', {});
  const adjudicate = (ranks: number[], scores: number[]) => ({ type: 'adjudicate', ranks, scores, reason: 'disputed' }) as unknown as Command;
  const fold = (s: unknown, events: GameEvent[] | RuleViolation) => (events as GameEvent[]).reduce((x, e) => game.evolve(x, e), s);
  t.equal(codeOf(decide('pechvogel', state, adjudicate([2, 1], [0, 5]), { kind: 'seat', seat: 0 }, NOW)), 'lifecycle/system-only');
  for (const [ranks, scores] of [[[1], [0]], [[2, 2], [0, 0]], [[1, 3], [0, 0]], [[1, 2], [0, Infinity]]]) {
    t.equal(codeOf(decide('pechvogel', state, adjudicate(ranks!, scores!), system, NOW)), 'lifecycle/invalid-result', `ranks ${ranks}, scores ${scores}`);
  }
  const ended = fold(state, decide('pechvogel', state, adjudicate([2, 1], [0, 5]), system, NOW));
  t.same(game.result(ended), { scores: [0, 5], ranks: [2, 1], winners: [1] });
  t.match(game.ending!(ended), { kind: 'adjudicated', reason: 'disputed', correction: false });
  t.same(game.legalCommands(ended, 0), []);
  const corrected = decide('pechvogel', ended, adjudicate([1, 2], [5, 0]), system, NOW) as GameEvent[];
  t.match(corrected, [{ type: 'GameAdjudicated', correction: true }], 'a game that is over is corrected');
  t.same(game.result(fold(ended, corrected)), { scores: [5, 0], ranks: [1, 2], winners: [0] });
  const resigned = fold(state, decide('pechvogel', state, { type: 'resign' }, { kind: 'seat', seat: 0 }, NOW));
  t.match(decide('pechvogel', resigned, adjudicate([1, 2], [1, 0]), system, NOW), [{ correction: true }], "a resignation's result is corrected too");
  const aborted = fold(state, decide('pechvogel', state, { type: 'abort', by: 'organizer' } as unknown as Command, system, NOW));
  t.equal(codeOf(decide('pechvogel', aborted, adjudicate([1, 2], [0, 0]), system, NOW)), 'lifecycle/no-result');
});

// A resignation's forfeit (1 and 0) has none either: 'resigning' above expects its result exactly.
t.test("the breakdown comes only with the rules' scores: the organizer's correction has none", async (t) => {
  const game = findGame('fackel-und-keule')!;
  const { state: over, result } = play(game, { bots: Array(3).fill(randomBot), seed: 'breakdown' });
  t.equal(result?.breakdown?.length, 3, 'a game over by its rules explains each seat\'s score');
  const corrected = (decide('fackel-und-keule', over, { type: 'adjudicate', ranks: [1, 2, 3], scores: [3, 2, 1], reason: 'disputed' } as unknown as Command, system, NOW) as GameEvent[]).reduce((s, e) => game.evolve(s, e), over);
  t.same(game.result(corrected), { scores: [3, 2, 1], ranks: [1, 2, 3], winners: [0] }, "the organizer's scores are not the rules' parts: no breakdown");
});
