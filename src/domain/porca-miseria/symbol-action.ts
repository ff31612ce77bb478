// "Action with a Symbol Card": grabs, then "Winnings", "Loss" and the end of the
// action (the symbol card and the losses into the jackpot).
import type { Chance } from '../chance.ts';
import type { Seat } from '../contract.ts';
import { cardById } from './edition.ts';
import type { Emitter } from './emitter.ts';
import { luckyNumbersOf, rightfulTargets } from './lucky-numbers.ts';
import type { Grab, PorcaState } from './state.ts';
import { changeStartingPlayer } from './starting-player.ts';
import { lossPerWrongGrab, symbols, type Symbol, type SymbolCard } from './vocabulary.ts';

export const freeTargets = (state: PorcaState): Symbol[] => {
  const free: Symbol[] = [];
  for (const symbol of symbols) if (!isTaken(state, symbol)) free.push(symbol);
  return free;
};

export const isTaken = (state: PorcaState, symbol: Symbol): boolean => {
  for (const grab of state.grabs) if (grab.target === symbol) return true;
  return false;
};

const allTaken = (state: PorcaState): boolean =>
  state.grabs.length >= symbols.length && symbols.every((symbol) => isTaken(state, symbol));

/** A seat may still grab while it has not passed and some target card is free. */
export const mayGrab = (state: PorcaState, seat: Seat): boolean => state.passed[seat] === false && !allTaken(state);

/** Plain loops: the runner asks before every command of a race. */
export function seatsThatMayGrab(state: PorcaState): Seat[] {
  const seats: Seat[] = [];
  for (let seat = 0; seat < state.passed.length; seat++) if (mayGrab(state, seat)) seats.push(seat);
  return seats;
}

export function isRightful(state: PorcaState, card: SymbolCard, grab: Grab): boolean {
  return rightfulTargets(luckyNumbersOf(state.seats, state.letterA, grab.seat), card).includes(grab.target);
}

/** Settles the symbol card once the window closed. Winnings are paid first, in the
 * order the grabs were received; when the stack runs short the unpaid rightful
 * grabbers keep their target cards as compensation and the game ends after this
 * action. Then each wrong grab costs the three most recently won cards (or all). */
export function settleSymbolCard(out: Emitter, chance: Chance, at: number): void {
  const start = out.state;
  const card = cardById[start.card ?? ''];
  if (card?.kind !== 'symbol') throw new Error('settleSymbolCard without a symbol card');
  const rightful: Grab[] = [];
  const wrong: Grab[] = [];
  for (const grab of start.grabs) (isRightful(start, card, grab) ? rightful : wrong).push(grab);

  const paid = chance.draw(start.stack, Math.min(rightful.length, start.stack.length), 'card');
  rightful.forEach((grab, i) => {
    const won = paid[i];
    out.emit(
      won === undefined
        ? { type: 'CompensationReceived', seat: grab.seat, target: grab.target }
        : { type: 'WinningPaid', seat: grab.seat, target: grab.target, card: won },
    );
  });
  for (const grab of wrong) {
    const winnings = out.state.winnings[grab.seat] ?? [];
    out.emit({ type: 'LossPaid', seat: grab.seat, target: grab.target, cards: winnings.slice(-lossPerWrongGrab) });
  }
  out.emit({ type: 'CardAddedToJackpot', card: card.id });

  if (paid.length < rightful.length) out.emit({ type: 'GameEnded', reason: 'stack-exhausted' });
  else changeStartingPlayer(out, at);
}
