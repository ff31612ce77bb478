// "End of the Turn", "Special Cases" and the outcomes of being frustrated: what the
// player takes and gives once the throwing stops, as one TurnEnded fact.
import type { Seat } from '../contract.ts';
import type { TurnEnded } from './events.ts';
import {
  collectedRavens,
  collectedTarget,
  isGreedy,
  nextSeat,
  turnOf,
  without,
  type State,
} from './state.ts';
import type { DieNumber } from './vocabulary.ts';

/** The player's choice of marker when stealing is possible (phase `claim`). */
export interface Claim {
  /** Opponent to steal from; null: the middle. */
  readonly from: Seat | null;
  readonly returnToBox: DieNumber | null;
}

export function endTurn(state: State, claim: Claim | null): TurnEnded {
  const turn = turnOf(state);
  const target = turn.target;
  let marker: TurnEnded['marker'] = null;
  let boxed: DieNumber | null = null;
  if (target !== null && collectedTarget(turn)) {
    if (claim !== null) {
      marker = { value: target, from: claim.from };
      boxed = claim.returnToBox;
    } else if (state.middle.includes(target)) {
      marker = { value: target, from: null };
    } // else: four of a number with no marker left anywhere – "you get nothing".
  }

  // Frustrations on the board are exactly those the opponents put there this turn.
  const onBoard = turn.frustraters.length;
  const ravens = collectedRavens(turn);
  const frustrationsTaken = ravens
    ? { fromBoard: onBoard, fromSupply: onBoard === 0 ? 1 : 0 }
    : { fromBoard: 0, fromSupply: 0 };
  // Would-be frustraters are repaid in the order they frustrated; the player's own
  // frustrations go first, the supply makes up the shortfall.
  const own = state.players[turn.seat]?.frustrations ?? 0;
  const repaid = ravens ? [] : turn.frustraters.map((seat, i) => ({ seat, fromPlayer: i < own }));

  let middle = state.middle;
  if (marker !== null && marker.from === null) middle = without(middle, marker.value);
  if (boxed !== null) middle = without(middle, boxed);

  return {
    type: 'TurnEnded',
    seat: turn.seat,
    marker,
    boxed,
    // Greed takes Murphy even when no marker was left to take.
    murphy: isGreedy(turn),
    frustrationsTaken,
    repaid,
    nextSeat: middle.length === 0 ? null : nextSeat(state, turn.seat),
  };
}
