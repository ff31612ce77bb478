// The reaction window after a throw: who may reroll it (rulebook "Frustration").
import type { Seat } from '../contract.ts';
import { isGreedy, type State, type Turn } from './state.ts';

/** "Frustrations can't cause you to reroll your first throw, a greedy one, or one
 * containing no ravens or target numbers." */
export const isRerollable = (turn: Turn): boolean =>
  turn.throws > 1 &&
  !isGreedy(turn) &&
  turn.last !== null &&
  turn.last.targets + turn.last.ravens > 0;

/** Reduce frustration: once per turn, and only with a frustration to return. */
export const canReduce = (state: State, turn: Turn): boolean =>
  !turn.reduced && (state.players[turn.seat]?.frustrations ?? 0) > 0;

/** Getting frustrated: once per turn; an opponent needs a frustration to put down. */
export const canFrustrate = (state: State, turn: Turn, seat: Seat): boolean =>
  seat !== turn.seat &&
  turn.frustraters.length === 0 &&
  (state.players[seat]?.frustrations ?? 0) > 0;

const canJoin = (state: State, turn: Turn, seat: Seat): boolean =>
  seat !== turn.seat &&
  !turn.frustraters.includes(seat) &&
  (state.players[seat]?.frustrations ?? 0) > 0;

/** Seats that still have a decision in the open window (before anyone has started
 * frustrating: the player may reduce, opponents may frustrate; afterwards only the
 * other opponents, who decide whether to join). */
export const undecided = (state: State, turn: Turn): Seat[] => {
  const reaction = turn.reaction;
  const passed = reaction?.passed ?? [];
  const joining = reaction?.joining ?? false;
  return Array.from({ length: state.seats }, (_, seat) => seat).filter((seat) => {
    if (passed.includes(seat)) return false;
    if (joining) return canJoin(state, turn, seat);
    return seat === turn.seat ? canReduce(state, turn) : canFrustrate(state, turn, seat);
  });
};

/** A window opens only when the throw may be rerolled and someone could reroll it. */
export const opensWindow = (state: State, turn: Turn): boolean =>
  isRerollable(turn) && undecided(state, { ...turn, reaction: null }).length > 0;
