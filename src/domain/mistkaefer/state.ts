// The game state and the queries the rules ask of it.
import type { Seat } from '../contract.ts';
import { edition } from './edition.ts';
import type { BonusKind, ChipKind, Colour, PerChip, PerColour, Phase } from './vocabulary.ts';
import { chipKinds } from './vocabulary.ts';

/** One player's tableau: per colour, the values of the dice from left to right. */
export type Tableau = PerColour<readonly number[]>;

export interface State {
  readonly seats: number;
  readonly phase: Phase;
  readonly active: Seat;
  /** Dice in the middle of the table, per colour. */
  readonly dice: PerColour<number>;
  /** The face-down chip supply: an unordered multiset. */
  readonly chips: PerChip<number>;
  readonly tableaus: readonly Tableau[];
  /** Each seat's face-down chips; only the owner knows their kinds. */
  readonly hands: readonly (readonly ChipKind[])[];
  /** The dice just rolled and not yet placed. */
  readonly rolled: { readonly colour: Colour; readonly values: readonly number[] } | null;
  /** Bonus spaces occupied this turn and not yet resolved. */
  readonly bonuses: readonly BonusKind[];
  readonly extraTurns: number;
  /** Per seat, whether it has completed a turn; stealing waits until every seat has
   * (the 1st round). */
  readonly hadTurn: readonly boolean[];
  readonly winner: Seat | null;
}

export const emptyTableau: Tableau = { green: [], yellow: [], blue: [] };

/** Shared by every state without pending bonuses: states never change their lists. */
export const noBonuses: readonly BonusKind[] = [];

export const perColour = <T>(f: (c: Colour) => T): PerColour<T> =>
  ({ green: f('green'), yellow: f('yellow'), blue: f('blue') });

/** The components in play for this player count, after the rulebook's removals. */
export function componentsFor(seats: number): { dice: PerColour<number>; chips: PerChip<number> } {
  const removed = edition.removed[String(seats)];
  return {
    dice: perColour(() => edition.dicePerColour - (removed?.dicePerColour ?? 0)),
    chips: {
      oneDungBall: edition.chips.oneDungBall - (removed?.chips.oneDungBall ?? 0),
      twoDungBalls: edition.chips.twoDungBalls - (removed?.chips.twoDungBalls ?? 0),
      cloverLeaf: edition.chips.cloverLeaf - (removed?.chips.cloverLeaf ?? 0),
    },
  };
}

export function initialState(seats: number): State {
  return {
    seats,
    phase: 'setup',
    active: 0,
    dice: perColour(() => 0),
    chips: { oneDungBall: 0, twoDungBalls: 0, cloverLeaf: 0 },
    tableaus: Array.from({ length: seats }, () => emptyTableau),
    hands: Array.from({ length: seats }, () => []),
    rolled: null,
    bonuses: noBonuses,
    extraTurns: 0,
    hadTurn: Array.from({ length: seats }, () => false),
    winner: null,
  };
}

/** The state with `changes` applied; no field of State is ever undefined, so undefined
 * means unchanged. Copying field by field: spreading the whole state cost about ten
 * times as much and was the main cost of folding an event. */
export function revise(state: State, changes: Partial<State>): State {
  return {
    seats: state.seats,
    phase: changes.phase === undefined ? state.phase : changes.phase,
    active: changes.active === undefined ? state.active : changes.active,
    dice: changes.dice === undefined ? state.dice : changes.dice,
    chips: changes.chips === undefined ? state.chips : changes.chips,
    tableaus: changes.tableaus === undefined ? state.tableaus : changes.tableaus,
    hands: changes.hands === undefined ? state.hands : changes.hands,
    rolled: changes.rolled === undefined ? state.rolled : changes.rolled,
    bonuses: changes.bonuses === undefined ? state.bonuses : changes.bonuses,
    extraTurns: changes.extraTurns === undefined ? state.extraTurns : changes.extraTurns,
    hadTurn: changes.hadTurn === undefined ? state.hadTurn : changes.hadTurn,
    winner: changes.winner === undefined ? state.winner : changes.winner,
  };
}

/** The supply as a list, for `ctx.chance.draw`. */
export const supplyList = (chips: PerChip<number>): ChipKind[] => {
  const list: ChipKind[] = [];
  for (const k of chipKinds) for (let i = 0; i < chips[k]; i++) list.push(k);
  return list;
};

export const supplySize = (chips: PerChip<number>): number =>
  chipKinds.reduce((n, k) => n + chips[k], 0);

/** Checks the length first: reading index -1 of an empty row is a slow lookup in V8. */
export const lastDie = (row: readonly number[]): number | undefined => (row.length === 0 ? undefined : row[row.length - 1]);

/** New dice must be higher than the last die of their row. */
export const placeable = (row: readonly number[], value: number): boolean =>
  value > (lastDie(row) ?? 0);

export const stealingAllowed = (state: State): boolean => !state.hadTurn.includes(false);

/** Other seats whose row of `colour` ends with `value`: each may lose that one die.
 * Plain loops: legalCommands asks this for every value rolled. */
export const stealableFrom = (state: State, seat: Seat, colour: Colour, value: number): Seat[] => {
  const victims: Seat[] = [];
  if (!stealingAllowed(state)) return victims;
  for (let s = 0; s < state.seats; s++) {
    if (s !== seat && lastDie(state.tableaus[s]![colour]) === value) victims.push(s);
  }
  return victims;
};

export const hasWon = (state: State, seat: Seat): boolean => {
  let cloverLeaves = 0;
  let dungBalls = 0;
  for (const k of state.hands[seat]!) {
    if (k === 'cloverLeaf') cloverLeaves++;
    dungBalls += edition.dungBalls[k];
  }
  return cloverLeaves >= edition.win.cloverLeaves || dungBalls >= edition.win.dungBalls[String(state.seats)]!;
};
