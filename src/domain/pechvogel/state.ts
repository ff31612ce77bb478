// The table as plain data, and the questions the rules ask about it.
import type { Seat, Setup } from '../contract.ts';
import { edition, initialMiddle } from './edition.ts';
import type { Options } from './options.ts';
import type { DieNumber, Face, Phase } from './vocabulary.ts';

export interface PlayerState {
  readonly markers: readonly DieNumber[];
  readonly frustrations: number;
}

/** What the last throw did, so it can be rerolled: its dice come back from the board. */
export interface LastThrow {
  readonly dice: number;
  readonly faces: readonly Face[];
  readonly targets: number;
  readonly ravens: number;
}

export interface Reaction {
  readonly deadline: number;
  /** Seats that passed (in the joining step: declined to join). */
  readonly passed: readonly Seat[];
  /** An opponent started frustrating this throw; the others decide to join. */
  readonly joining: boolean;
}

export interface Turn {
  readonly seat: Seat;
  /** Throws so far this turn, rerolls included; 1 means the first throw. */
  readonly throws: number;
  readonly target: DieNumber | null;
  readonly targetsOnBoard: number;
  readonly ravensOnBoard: number;
  /** Dice not on the board. */
  readonly remaining: number;
  /** Null before the first throw and while a reroll is due. */
  readonly last: LastThrow | null;
  readonly reduced: boolean;
  /** Opponents whose frustrations lie on the board, in the order they put them. */
  readonly frustraters: readonly Seat[];
  /** The last throw's dice came back; the next throw is its reroll. */
  readonly rerollDue: boolean;
  readonly reaction: Reaction | null;
}

export interface State {
  readonly seats: number;
  readonly options: Options;
  readonly phase: Phase;
  readonly players: readonly PlayerState[];
  /** Score markers in the middle, sorted. */
  readonly middle: readonly DieNumber[];
  readonly box: readonly DieNumber[];
  readonly murphy: Seat | null;
  readonly turn: Turn | null;
}

export const initialState = (setup: Setup<Options>): State => ({
  seats: setup.seats,
  options: setup.options,
  // Before setup's TurnStarted nobody may act; `over` with no turn says exactly that.
  phase: 'over',
  players: Array.from({ length: setup.seats }, () => ({ markers: [], frustrations: 0 })),
  middle: initialMiddle(),
  box: [],
  murphy: null,
  turn: null,
});

export const newTurn = (seat: Seat): Turn => ({
  seat,
  throws: 0,
  target: null,
  targetsOnBoard: 0,
  ravensOnBoard: 0,
  remaining: edition.dice,
  last: null,
  reduced: false,
  frustraters: [],
  rerollDue: false,
  reaction: null,
});

export const turnOf = (state: State): Turn => {
  if (state.turn === null) throw new Error('no turn in progress');
  return state.turn;
};

export const collectedTarget = (turn: Turn): boolean => turn.targetsOnBoard >= edition.targetGoal;
export const collectedRavens = (turn: Turn): boolean => turn.ravensOnBoard >= edition.ravenLimit;
export const turnIsOver = (turn: Turn): boolean => collectedTarget(turn) || collectedRavens(turn);
export const isGreedy = (turn: Turn): boolean =>
  turn.targetsOnBoard > edition.targetGoal || turn.ravensOnBoard > edition.ravenLimit;

/** Opponents holding a marker of the target number: the player may steal from them. */
export const stealableFrom = (state: State, turn: Turn): Seat[] =>
  state.players.flatMap((p, seat) =>
    seat !== turn.seat && turn.target !== null && p.markers.includes(turn.target) ? [seat] : [],
  );

/** Where a throw that stands leads: throw on, choose the marker, or end the turn. */
export const phaseAfterStand = (state: State, turn: Turn): Phase => {
  if (!turnIsOver(turn)) return 'throw';
  return collectedTarget(turn) && stealableFrom(state, turn).length > 0 ? 'claim' : 'ending';
};

export const without = <T>(items: readonly T[], item: T): T[] => {
  const at = items.indexOf(item);
  return at < 0 ? [...items] : [...items.slice(0, at), ...items.slice(at + 1)];
};

export const nextSeat = (state: State, seat: Seat): Seat => (seat + 1) % state.seats;
