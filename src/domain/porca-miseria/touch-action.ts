// "Action with a Touch Card": the stack of hands, the sandwich, and the bottom hand.
import type { Seat } from '../contract.ts';
import type { Emitter } from './emitter.ts';
import type { PorcaState } from './state.ts';
import { changeStartingPlayer } from './starting-player.ts';
import { handsPerPlayer } from './vocabulary.ts';

export const handsLaid = (state: PorcaState, seat: Seat): number => {
  let laid = 0;
  for (const hand of state.hands) if (hand.seat === seat) laid++;
  return laid;
};

/** A seat may still slap while it has not passed and has a hand left. */
export const maySlap = (state: PorcaState, seat: Seat): boolean =>
  state.passed[seat] === false && handsLaid(state, seat) < handsPerPlayer;

export function seatsThatMaySlap(state: PorcaState): Seat[] {
  const seats: Seat[] = [];
  for (let seat = 0; seat < state.passed.length; seat++) if (maySlap(state, seat)) seats.push(seat);
  return seats;
}

/** A sandwich: the top hand and the hand two below it are the same seat's, so exactly
 * one hand (necessarily another player's) lies between them. */
export function topMakesSandwich(state: PorcaState): boolean {
  const { hands } = state;
  const top = hands[hands.length - 1];
  const twoBelow = hands[hands.length - 3];
  return top !== undefined && twoBelow !== undefined && top.seat === twoBelow.seat;
}

/** The touch card and the whole jackpot go to `seat`. */
function award(out: Emitter, seat: Seat, by: 'sandwich' | 'bottom-hand', at: number): void {
  const { card, jackpot } = out.state;
  out.emit({ type: 'TouchCardWon', seat, by, card: card ?? '', jackpot: [...jackpot] });
  changeStartingPlayer(out, at);
}

export function winBySandwich(out: Emitter, at: number): void {
  const top = out.state.hands[out.state.hands.length - 1];
  if (top) award(out, top.seat, 'sandwich', at);
}

/** Nobody will or can slap again, or the deadline passed, with no sandwich: the bottom
 * hand wins. With no hand at all the touch card goes to the jackpot. */
export function settleTouchCard(out: Emitter, at: number): void {
  const bottom = out.state.hands[0];
  if (bottom) return award(out, bottom.seat, 'bottom-hand', at);
  out.emit({ type: 'CardAddedToJackpot', card: out.state.card ?? '' });
  changeStartingPlayer(out, at);
}
