// "The Starting Player Changes" and "End of the Game" when there is nothing to reveal.
import type { Emitter } from './emitter.ts';
import { jackpotLimit } from './vocabulary.ts';

/** After an action: the next seat clockwise starts; jackpot cards beyond five go back
 * into the stack (the most recently added ones: the top of the jackpot pile). If the
 * stack is then empty there is no card to reveal and the game ends. */
export function changeStartingPlayer(out: Emitter, at: number): void {
  const { state } = out;
  out.emit({
    type: 'StartingPlayerChanged',
    seat: (state.startingSeat + 1) % state.seats,
    returnedToStack: state.jackpot.slice(jackpotLimit),
    at,
  });
  if (out.state.stack.length === 0) out.emit({ type: 'GameEnded', reason: 'stack-empty' });
}
