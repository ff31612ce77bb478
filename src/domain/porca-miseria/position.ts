// A Porca Miseria table in play, between two actions: the starting player is about to
// reveal. Every card of the deck is in exactly one place: the face-down stack
// (unordered, as the platform keeps it), the jackpot or a seat's winnings.
import { z } from 'zod';
import type { Setup, Viewer } from '../contract.ts';
import { countComponents, positionCodes, type PositionProblem, type PositionRules } from '../position-rules.ts';
import { deckIds } from './edition.ts';
import type { Options } from './options.ts';
import { initialState, type PorcaState } from './state.ts';
import { jackpotLimit } from './vocabulary.ts';

const card = z.enum(deckIds as [string, ...string[]]).describe('A card id from the edition data');
const seat = z.int().min(0).max(7);

export const positionSchema = z
  .strictObject({
    startingSeat: seat.describe('The starting player, about to reveal the top card'),
    firstStartingSeat: seat
      .default(0)
      .describe("The game's first starting player, who holds player A's lucky numbers (ignored in the expert variant, where the current starting player does)"),
    stack: z.array(card).describe('The face-down stack, in any order'),
    jackpot: z.array(card).max(jackpotLimit).describe('The jackpot, oldest first (at most five between actions)'),
    winnings: z.array(z.array(card)).describe("Per seat, its winnings, oldest first (a wrong grab pays the most recent)"),
    actions: z.int().min(0).default(0).describe('Cards revealed so far, for maxActions'),
  })
  .describe('A Porca Miseria table between two actions');

export type PorcaPosition = z.infer<typeof positionSchema>;

function check(position: PorcaPosition, { seats, options }: Setup<Options>): PositionProblem[] {
  const problems: PositionProblem[] = [];
  if (position.winnings.length !== seats) {
    problems.push({ code: positionCodes.invalid, component: 'winnings', message: `winnings has ${position.winnings.length} entries for ${seats} seats`, expected: seats, found: position.winnings.length });
  }
  for (const field of ['startingSeat', 'firstStartingSeat'] as const) {
    if (position[field] >= seats) problems.push({ code: positionCodes.invalid, component: field, message: `no seat ${position[field]} at a table of ${seats}` });
  }
  problems.push(...countComponents('card', deckIds, [...position.stack, ...position.jackpot, ...position.winnings.flat()]));
  if (position.stack.length === 0) problems.push({ code: positionCodes.illegalPhase, component: 'stack', message: 'with the stack empty the game is over', found: 0 });
  if (options.maxActions !== undefined && position.actions >= options.maxActions) {
    problems.push({ code: positionCodes.illegalPhase, component: 'actions', message: `after ${position.actions} actions a game of maxActions ${options.maxActions} is over`, expected: options.maxActions - 1, found: position.actions });
  }
  return problems;
}

function state(initial: PorcaState, position: PorcaPosition, at: number): PorcaState {
  const { startingSeat, firstStartingSeat, stack, jackpot, winnings, actions } = position;
  const fresh = initialState(initial.options, initial.seats);
  return {
    ...fresh,
    phase: 'reveal',
    stack,
    jackpot,
    winnings,
    startingSeat,
    letterA: initial.options.expert ? startingSeat : firstStartingSeat,
    openedAt: at,
    actions,
  };
}

export const porcaMiseriaPosition: PositionRules<Options, PorcaState, PorcaPosition> = {
  schema: positionSchema,
  exampleSeats: 3,
  example: {
    startingSeat: 1,
    firstStartingSeat: 0,
    stack: deckIds.slice(8),
    jackpot: deckIds.slice(0, 2),
    winnings: [deckIds.slice(2, 5), [], deckIds.slice(5, 8)],
    actions: 9,
  },
  check,
  state,
  // Nothing is hidden: the stack's contents follow from the open cards.
  redact: (position: PorcaPosition, _viewer: Viewer) => position,
};
