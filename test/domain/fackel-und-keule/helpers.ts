// Given/when/then helpers for Fackel+Keule rules tests.
import { fold, isViolation, type DecideContext, type RuleViolation, type Seat } from '../../../src/domain/contract.ts';
import { suppliedChance } from '../../../src/domain/chance.ts';
import { fackelUndKeule as game, type Event, type GameCommand as Command, type Options, type State } from '../../../src/domain/fackel-und-keule/index.ts';

export { game };

/** The rulebook's game: no time limit. */
export const NO_LIMIT: Options = { turnSeconds: 0 };

export const ctx = (seat: Seat, outcomes: readonly unknown[] = [], now = 0): DecideContext => ({
  actor: { kind: 'seat', seat },
  now,
  chance: suppliedChance(outcomes, 'test'),
});

/** The opening events for `hands` (one card list per seat) and the first animal. */
export const opening = (hands: readonly (readonly number[])[], animal: string, options = NO_LIMIT, now = 0): Event[] => {
  const state = game.initialState({ options, seats: hands.length });
  const chance = suppliedChance([...hands.flat(), animal], 'test');
  const events = game.setup(state, { now, chance });
  chance.assertAllUsed();
  return events;
};

export const given = (seats: number, events: readonly Event[], options = NO_LIMIT): State => fold(game, { options, seats }, events);

/** Sends a command that must be accepted and must use every supplied outcome. */
export const accept = (state: State, seat: Seat, command: Command, outcomes: readonly unknown[] = [], now = 0): Event[] => {
  const chance = suppliedChance(outcomes, `test:${seat}`);
  const out = game.decide(state, command, { actor: { kind: 'seat', seat }, now, chance });
  if (isViolation(out)) throw new Error(`rejected: ${out.code} ${out.message}`);
  chance.assertAllUsed();
  return out;
};

export const reject = (state: State, seat: Seat, command: Command, now = 0): RuleViolation => {
  const out = game.decide(state, command, ctx(seat, [], now));
  if (!isViolation(out)) throw new Error(`accepted: ${JSON.stringify(out)}`);
  return out;
};

/** Folds `events` onto `state`. */
export const applyEvents = (state: State, events: readonly Event[]): State => events.reduce(game.evolve, state);

/** Every seat chooses in seat order; the outcomes go with the last choice. */
export const chooseAll = (state: State, choices: readonly (readonly number[])[], outcomes: readonly unknown[] = []): { state: State; events: Event[] } => {
  let s = state;
  const events: Event[] = [];
  choices.forEach((cards, seat) => {
    const out = accept(s, seat, { type: 'choose', cards: [...cards] }, seat === choices.length - 1 ? outcomes : []);
    events.push(...out);
    s = applyEvents(s, out);
  });
  return { state: s, events };
};

export const types = (events: readonly Event[]): string[] => events.map((e) => e.type);
