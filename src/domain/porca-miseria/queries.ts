// Who may act now, what each seat may send, and the result.
import type { GameResult, Pending, ScorePart, Seat } from '../contract.ts';
import { rankByParts, scoreOf } from '../contract.ts';
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

/** "Each player now counts his winning cards", the target cards received "as
 * compensation for missing cards" among them. */
const scoreParts = (state: PorcaState): ScorePart[][] =>
  state.winnings.map((cards, seat) => {
    const compensation = state.compensation[seat]?.length ?? 0;
    return [
      { label: 'winning card', count: cards.length, points: cards.length },
      ...(compensation > 0 ? [{ label: 'target card as compensation', count: compensation, points: compensation }] : []),
    ];
  });

export const scoresOf = (state: PorcaState): number[] => scoreParts(state).map(scoreOf);

export function result(state: PorcaState): GameResult | null {
  return state.phase === 'over' ? rankByParts(scoreParts(state)) : null;
}
