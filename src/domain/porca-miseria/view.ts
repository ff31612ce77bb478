// What a viewer sees. Everything revealed in Porca Miseria is public (won cards lie
// face up, the jackpot is open), so seats and spectators see the same table; only the
// face-down stack is shown as a count. Its composition could be worked out from the
// public cards, but its order does not exist before a draw.
import type { Seat, Viewer } from '../contract.ts';
import { cardById } from './edition.ts';
import type { PorcaEvent } from './events.ts';
import { luckyNumbersBySeat } from './lucky-numbers.ts';
import { scoresOf } from './queries.ts';
import { deadlineOf, type Grab, type Hand, type PorcaState } from './state.ts';
import { symbols, type Card, type CardId, type Phase, type Symbol } from './vocabulary.ts';

export interface PorcaView {
  readonly phase: Phase;
  readonly startingSeat: Seat;
  readonly expert: boolean;
  /** Per seat, the lucky numbers that count now. */
  readonly luckyNumbers: readonly (readonly number[])[];
  /** The face-up card of the current action. */
  readonly card: Card | null;
  readonly stackSize: number;
  /** Only for the `all` viewer (replays): the unordered cards left in the stack. */
  readonly stack: readonly CardId[] | null;
  readonly jackpot: readonly CardId[];
  readonly winnings: readonly (readonly CardId[])[];
  readonly compensation: readonly (readonly Symbol[])[];
  readonly targets: readonly { readonly symbol: Symbol; readonly heldBy: Seat | null }[];
  readonly grabs: readonly Grab[];
  /** The stack of hands, bottom first. */
  readonly hands: readonly Hand[];
  readonly passed: readonly boolean[];
  readonly deadline: number | null;
  readonly scores: readonly number[];
  /** Cards revealed so far; the game ends after the action of card `maxActions`. */
  readonly actions: number;
  /** Null: no limit (a game stored before the option existed). */
  readonly maxActions: number | null;
  readonly endReason: PorcaState['endReason'];
}

export function view(state: PorcaState, viewer: Viewer): PorcaView {
  return {
    phase: state.phase,
    startingSeat: state.startingSeat,
    expert: state.options.expert,
    luckyNumbers: luckyNumbersBySeat(state.seats, state.letterA),
    card: state.card === null ? null : (cardById[state.card] ?? null),
    stackSize: state.stack.length,
    stack: viewer.kind === 'all' ? state.stack : null,
    jackpot: state.jackpot,
    winnings: state.winnings,
    compensation: state.compensation,
    targets: symbols.map((symbol) => ({
      symbol,
      heldBy: state.grabs.find((grab) => grab.target === symbol)?.seat ?? null,
    })),
    grabs: state.grabs,
    hands: state.hands,
    passed: state.passed,
    deadline: deadlineOf(state),
    scores: scoresOf(state),
    actions: state.actions,
    maxActions: state.options.maxActions ?? null,
    endReason: state.endReason,
  };
}

/** No event carries a secret: a card is in an event only once it is face up. */
export function redact(event: PorcaEvent, _viewer: Viewer, _before: PorcaState): PorcaEvent {
  return event;
}
