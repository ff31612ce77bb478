// What a bot is. A bot sees exactly what a client of its seat sees: the seat's view
// (`game.view(state, {kind:'seat', seat})`) and the seat's legal commands, never the
// state, so it cannot peek at hidden cards or chips. It must answer with one of the
// legal commands; randomness comes only from the rng it is handed.
import type { Command, Seat } from '../domain/contract.ts';
import { best, pick, type Rng } from './rng.ts';

export interface Turn<V, C extends Command> {
  readonly view: V;
  readonly seat: Seat;
  /** Never empty: a bot is asked only while its seat is pending. */
  readonly legal: readonly C[];
}

export interface Bot<V = unknown, C extends Command = Command> {
  readonly name: string;
  choose(turn: Turn<V, C>, rng: Rng): C;
}

/** Plays uniformly among the legal commands: the baseline every strategy must beat. */
export const randomBot: Bot<unknown, Command> = {
  name: 'random',
  choose: ({ legal }, rng) => pick(rng, legal),
};

/** A strategy: plays the legal command its scorer rates highest, ties broken by the rng.
 * `scorer` is called once per turn (work that depends only on the turn goes there) and
 * returns the score of each command offered. */
export const greedyBot = <V, C extends Command>(scorer: (turn: Turn<V, C>) => (command: C) => number): Bot<V, C> => ({
  name: 'greedy',
  choose: (turn, rng) => best(rng, turn.legal, scorer(turn)),
});
