// "The Starting Player Changes" and "End of the Game": the stack is empty, or (our
// rule, the rulebook has none) the action limit is reached.
import type { Emitter } from './emitter.ts';
import { jackpotLimit } from './vocabulary.ts';

/** After an action: the next seat clockwise starts; jackpot cards beyond five go back
 * into the stack (the most recently added ones: the top of the jackpot pile). If the
 * stack is then empty there is no card to reveal and the game ends.
 *
 * Wrong grabs feed the jackpot and its surplus refills the stack, so play need never
 * run the stack dry. A table would call the last card at some point; `maxActions`
 * makes that point known in advance, so the game ends after the action of the
 * `maxActions`-th revealed card, settled in full, like a stack that cannot pay: the
 * jackpot then counts for nobody and nothing more is revealed. */
export function changeStartingPlayer(out: Emitter, at: number): void {
  const { state } = out;
  if (state.actions >= (state.options.maxActions ?? Infinity)) {
    out.emit({ type: 'GameEnded', reason: 'action-limit' });
    return;
  }
  out.emit({
    type: 'StartingPlayerChanged',
    seat: (state.startingSeat + 1) % state.seats,
    returnedToStack: state.jackpot.slice(jackpotLimit),
    at,
  });
  if (out.state.stack.length === 0) out.emit({ type: 'GameEnded', reason: 'stack-empty' });
}
