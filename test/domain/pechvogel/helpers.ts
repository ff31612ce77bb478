// Given/when/then for Pechvogel: build a game by playing commands with supplied dice,
// so every fixture is a real, reachable game.
import { serverChance, suppliedChance } from '../../../src/domain/chance.ts';
import { fold, isViolation, type RuleViolation, type Seat, type Setup } from '../../../src/domain/contract.ts';
import {
  pechvogel,
  type Options,
  type PechvogelCommand,
  type PechvogelEvent,
  type State,
} from '../../../src/domain/pechvogel/index.ts';
import type { Face } from '../../../src/domain/pechvogel/vocabulary.ts';

export const NOW = 1_000_000;
export const R = 'raven' as const;

export interface Game {
  readonly setup: Setup<Options>;
  readonly events: readonly PechvogelEvent[];
  readonly state: State;
}

export function newGame(seats: number, options: Partial<Options> = {}): Game {
  const setup = { seats, options: pechvogel.optionsSchema.parse(options) };
  const events = pechvogel.setup(pechvogel.initialState(setup), { now: NOW, chance: serverChance('setup', 0) });
  return { setup, events, state: fold(pechvogel, setup, events) };
}

/** Sends one command; `seat` 'system' sends as the scheduler. Dice must all be used. */
export function attempt(
  game: Game,
  seat: Seat | 'system',
  command: PechvogelCommand,
  dice: readonly Face[] = [],
  now = NOW,
): PechvogelEvent[] | RuleViolation {
  const chance = suppliedChance(dice, 'test');
  const actor = seat === 'system' ? ({ kind: 'system' } as const) : ({ kind: 'seat', seat } as const);
  const answer = pechvogel.decide(game.state, command, { actor, now, chance });
  if (!isViolation(answer)) chance.assertAllUsed();
  return answer;
}

export function play(
  game: Game,
  seat: Seat | 'system',
  command: PechvogelCommand,
  dice: readonly Face[] = [],
  now = NOW,
): Game {
  const answer = attempt(game, seat, command, dice, now);
  if (isViolation(answer)) throw new Error(`${JSON.stringify(command)} by ${seat}: ${answer.code} ${answer.message}`);
  const events = [...game.events, ...answer];
  return { ...game, events, state: answer.reduce(pechvogel.evolve, game.state) };
}

/** The events played to get from `before` to `after`. */
export const lastEvents = (before: Game, after: Game): PechvogelEvent[] => after.events.slice(before.events.length);

export const codeOf = (answer: PechvogelEvent[] | RuleViolation): string | null =>
  isViolation(answer) ? answer.code : null;

export const active = (game: Game): Seat => game.state.turn!.seat;

/** A whole turn that ends at once with three ravens: the player takes a frustration. */
export const ravenTurn = (game: Game): Game => {
  const seat = active(game);
  return play(play(game, seat, { type: 'throw' }, [R, R, R, 3, 4, 5, 6]), seat, { type: 'chooseTarget', target: 3 });
};

/** A whole turn that collects four of `value` on the first throw and takes it from the middle. */
export const markerTurn = (game: Game, value: 3 | 4 | 5 | 6 | 7): Game => {
  const seat = active(game);
  const other = value === 3 ? 4 : 3;
  let g = play(game, seat, { type: 'throw' }, [value, value, value, value, other, other, other]);
  g = play(g, seat, { type: 'chooseTarget', target: value });
  return g.state.phase === 'claim' ? play(g, seat, { type: 'takeFromMiddle' }) : g;
};

export const frustrations = (game: Game): number[] => game.state.players.map((p) => p.frustrations);
export const markers = (game: Game): number[][] => game.state.players.map((p) => [...p.markers]);

/** Plays whole turns until every seat holds `wanted` frustrations and it is `seat`'s turn. */
export function given(wanted: readonly number[], seat: Seat = 0, options: Partial<Options> = {}): Game {
  let g = newGame(wanted.length, options);
  // Never sixes: the scenarios below collect sixes and must not meet a steal choice.
  const values = [7, 5, 4] as const;
  for (let turns = 0; ; turns++) {
    if (turns > 40) throw new Error('could not reach the wanted frustrations');
    const done = frustrations(g).every((f, s) => f === wanted[s]);
    if (done && active(g) === seat) return g;
    g = frustrations(g)[active(g)]! < wanted[active(g)]! ? ravenTurn(g) : markerTurn(g, values[turns % 3]!);
  }
}

/** Seat 0's turn under way: target six chosen, two sixes and one raven on the board, four dice left. */
export const sixesUnderWay = (wanted: readonly number[], options: Partial<Options> = {}): Game => {
  const g = play(given(wanted, 0, options), 0, { type: 'throw' }, [6, 6, R, 3, 4, 5, 7]);
  return play(g, 0, { type: 'chooseTarget', target: 6 });
};
