// The table as the server keeps it. The stack is an unordered multiset of card ids:
// its order does not exist until a card is drawn through chance.
import type { Seat } from '../contract.ts';
import type { PorcaEvent } from './events.ts';
import type { StoredOptions } from './options.ts';
import { deckIds } from './edition.ts';
import type { CardId, Phase, Symbol } from './vocabulary.ts';

export type Grab = { readonly seat: Seat; readonly target: Symbol; readonly receivedAt: number };
export type Hand = { readonly seat: Seat; readonly receivedAt: number };

/** Why the game ended: the `GameEnded` event's reason, so the list is kept in one place. */
export type EndReason = Extract<PorcaEvent, { type: 'GameEnded' }>['reason'];

export interface PorcaState {
  readonly options: StoredOptions;
  readonly seats: number;
  readonly phase: Phase;
  /** Unordered: the cards left face down. */
  readonly stack: readonly CardId[];
  /** Oldest first. */
  readonly jackpot: readonly CardId[];
  /** Per seat, face up, oldest first. */
  readonly winnings: readonly (readonly CardId[])[];
  /** Per seat, target cards received at the end as compensation for missing cards. */
  readonly compensation: readonly (readonly Symbol[])[];
  readonly startingSeat: Seat;
  /** Seat holding player A's lucky numbers: the first starting player, or in the expert
   * variant the current one. */
  readonly letterA: Seat;
  /** When the current reveal or action window opened (ms since epoch). */
  readonly openedAt: number;
  readonly card: CardId | null;
  /** In the order received; a target card appears at most once. */
  readonly grabs: readonly Grab[];
  /** The stack of hands, bottom first. */
  readonly hands: readonly Hand[];
  readonly passed: readonly boolean[];
  /** Cards revealed so far: the number of actions begun, for `maxActions`. */
  readonly actions: number;
  readonly endReason: EndReason | null;
}

export function initialState(options: StoredOptions, seats: number): PorcaState {
  return {
    options,
    seats,
    phase: 'setup',
    stack: deckIds,
    jackpot: [],
    winnings: Array.from({ length: seats }, () => []),
    compensation: Array.from({ length: seats }, () => []),
    startingSeat: 0,
    letterA: 0,
    openedAt: 0,
    card: null,
    grabs: [],
    hands: [],
    passed: Array.from({ length: seats }, () => false),
    actions: 0,
    endReason: null,
  };
}

/** The state with every field writable: evolve sets the fields an event changes on a
 * copy of its own. */
export type Draft = { -readonly [K in keyof PorcaState]: PorcaState[K] };

/** A copy, field by field: spreading the whole state cost about ten times as much,
 * and merging a partial state into a copy cost more than the event's own changes. */
export function draftOf(state: PorcaState): Draft {
  return {
    options: state.options,
    seats: state.seats,
    phase: state.phase,
    stack: state.stack,
    jackpot: state.jackpot,
    winnings: state.winnings,
    compensation: state.compensation,
    startingSeat: state.startingSeat,
    letterA: state.letterA,
    openedAt: state.openedAt,
    card: state.card,
    grabs: state.grabs,
    hands: state.hands,
    passed: state.passed,
    actions: state.actions,
    endReason: state.endReason,
  };
}

/** The deadline of the current window, or null when nothing is open. */
export function deadlineOf(state: PorcaState): number | null {
  const { revealMs, windowMs } = state.options;
  if (state.phase === 'reveal') return revealMs === 0 ? null : state.openedAt + revealMs;
  if (state.phase === 'symbol' || state.phase === 'touch') return windowMs === 0 ? null : state.openedAt + windowMs;
  return null;
}
