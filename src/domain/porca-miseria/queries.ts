// Who may act now, what each seat may send, and the result.
import type { GameResult, Pending, Seat } from '../contract.ts';
import { rankByScore } from '../contract.ts';
import type { PorcaCommand } from './commands.ts';
import { deadlineOf, type PorcaState } from './state.ts';
import { freeTargets, mayGrab, seatsThatMayGrab } from './symbol-action.ts';
import { maySlap, seatsThatMaySlap } from './touch-action.ts';

export function pending(state: PorcaState): Pending {
  const deadline = deadlineOf(state);
  const seats = state.phase === 'reveal' ? [state.startingSeat] : state.phase === 'symbol' ? seatsThatMayGrab(state) : state.phase === 'touch' ? seatsThatMaySlap(state) : [];
  return deadline === null ? { seats } : { seats, deadline };
}

/** The clock is not an input here: once the deadline has passed, decide refuses these
 * with `too-late` until the server's timeout settles the window. Asks about `seat`
 * alone instead of building `pending`: the runner asks for every command. */
export function legalCommands(state: PorcaState, seat: Seat): PorcaCommand[] {
  switch (state.phase) {
    case 'reveal':
      return seat === state.startingSeat ? [{ type: 'reveal' }] : [];
    case 'symbol':
      if (!mayGrab(state, seat)) return [];
      return [...freeTargets(state).map((target): PorcaCommand => ({ type: 'grab', target })), { type: 'pass' }];
    case 'touch':
      return maySlap(state, seat) ? [{ type: 'slap' }, { type: 'pass' }] : [];
    default:
      return [];
  }
}

/** Each seat's cards: its winnings plus target cards received as compensation. */
export const scoresOf = (state: PorcaState): number[] =>
  state.winnings.map((cards, seat) => cards.length + (state.compensation[seat]?.length ?? 0));

export function result(state: PorcaState): GameResult | null {
  return state.phase === 'over' ? rankByScore(scoresOf(state)) : null;
}
