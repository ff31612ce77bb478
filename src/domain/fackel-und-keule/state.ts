// The state of a Fackel+Keule game: plain JSON, rebuilt by folding events.
import type { Seat, Setup } from '../contract.ts';
import { edition } from './edition.ts';
import type { Options } from './options.ts';
import type { ChipCounts, PreyCounts } from './vocabulary.ts';

/** A seat's secret choice, held until every seat has chosen. */
export interface LastRound {
  readonly round: number;
  readonly animal: string | null;
  readonly played: readonly (readonly number[])[];
}

export interface Choice {
  readonly cards: readonly number[];
  readonly salt: string;
  readonly commitment: string;
}

export type Phase =
  /** Dealt, waiting for the first animal (only between setup events). */
  | { readonly name: 'dealing' }
  | { readonly name: 'choosing'; readonly choices: readonly (Choice | null)[] }
  /** A kill: `takers` in the order of most required tools; `takes` counts the takes so
   * far, so the next taker is `takers[takes % takers.length]`. */
  | {
      readonly name: 'sharing';
      readonly pool: PreyCounts;
      readonly takers: readonly Seat[];
      readonly takes: number;
    }
  /** A fight was won: the winner picks one of `losers` and a chip of theirs. */
  | { readonly name: 'robbing'; readonly winner: Seat; readonly losers: readonly Seat[] }
  /** Between rounds: cards are drawn, then seats above the hand limit discard. */
  | { readonly name: 'discarding' }
  | { readonly name: 'ended' };

export interface State {
  readonly seats: number;
  /** 1..12 once the first animal is revealed. */
  readonly round: number;
  readonly animal: string | null;
  /** Animals not yet revealed (unordered). */
  readonly animalsLeft: readonly string[];
  /** Undrawn cards, an unordered multiset kept sorted. */
  readonly drawPile: readonly number[];
  readonly discardPile: readonly number[];
  readonly hands: readonly (readonly number[])[];
  /** Cards revealed this round, per seat; null before the reveal. */
  readonly played: readonly (readonly number[])[] | null;
  /** The round that ended last, as the table still shows it until the next reveal. */
  readonly lastRound: LastRound | null;
  readonly chips: readonly ChipCounts[];
  readonly supply: ChipCounts;
  readonly phase: Phase;
  /** turnSeconds * 1000; 0 = no time limit. */
  readonly turnMs: number;
  /** When the current phase or turn runs out (ms since the epoch), from `DeadlineSet`;
   * null without a time limit or before the new phase's deadline is set. */
  readonly deadline: number | null;
}

export const noChips = (): ChipCounts => ({ teeth: 0, fur: 0, meat: 0, skull: 0 });

export const initialState = (setup: Setup<Options>): State => ({
  seats: setup.seats,
  round: 0,
  animal: null,
  animalsLeft: edition.animals.map((a) => a.id),
  drawPile: edition.cards.map((c) => c.id).sort((a, b) => a - b),
  discardPile: [],
  hands: Array.from({ length: setup.seats }, () => []),
  played: null,
  lastRound: null,
  chips: Array.from({ length: setup.seats }, noChips),
  supply: { ...edition.chips },
  phase: { name: 'dealing' },
  // Options folded before the schema filled in defaults (old logs) mean no time limit.
  turnMs: (setup.options.turnSeconds ?? 0) * 1000,
  deadline: null,
});
