// What each viewer may see. Hidden: hands, the cards and salt of a choice until the
// reveal (and how many cards were chosen: hand sizes include chosen cards until then),
// the draw pile's order and content, and face-down surplus discards.
import type { GameResult, Seat, Viewer } from '../contract.ts';
import { rankByParts } from '../contract.ts';
import { animalData, type AnimalData } from './edition.ts';
import type { Event } from './events.ts';
import { surplusOf, takeSize } from './flow.ts';
import { nextTaker, pending } from './legal.ts';
import { scoreParts } from './scoring.ts';
import type { Phase, State } from './state.ts';
import { ROUNDS, type ChipCounts, type PreyCounts } from './vocabulary.ts';

export interface SeatView {
  readonly seat: Seat;
  readonly handSize: number;
  readonly chips: ChipCounts;
  /** The public commitment of this round's choice, null if not chosen yet. */
  readonly commitment: string | null;
  /** Cards revealed this round, null before the reveal. */
  readonly played: readonly number[] | null;
}

export interface View {
  readonly round: number;
  readonly rounds: number;
  readonly phase: Phase['name'];
  readonly animal: AnimalData | null;
  readonly seats: readonly SeatView[];
  /** The round that ended last (its animal and every seat's revealed cards), kept in
   * view until the next round's cards are revealed: a command that ends a round also
   * clears its table, and the players still look at it. */
  readonly lastRound: { readonly round: number; readonly animal: AnimalData | null; readonly played: readonly (readonly number[])[] } | null;
  /** Animal cards not yet revealed. */
  readonly animalsLeft: number;
  readonly drawPileSize: number;
  readonly discardPileSize: number;
  readonly supply: ChipCounts;
  readonly pending: readonly Seat[];
  /** When the pending seats run out of time (ms since the epoch); null without a limit. */
  readonly deadline: number | null;
  readonly sharing: { readonly pool: PreyCounts; readonly takers: readonly Seat[]; readonly next: Seat | null; readonly takeSize: number } | null;
  readonly robbing: { readonly winner: Seat; readonly losers: readonly Seat[] } | null;
  readonly result: GameResult | null;
  /** The viewing seat's secrets; null for spectators and replays. */
  readonly you: {
    readonly seat: Seat;
    readonly hand: readonly number[];
    readonly choice: readonly number[] | null;
    readonly surplus: number;
  } | null;
  /** Everything, for `{kind:'all'}` only. */
  readonly all: {
    readonly hands: readonly (readonly number[])[];
    readonly choices: readonly ((readonly number[]) | null)[];
    readonly salts: readonly (string | null)[];
    readonly drawPile: readonly number[];
    readonly discardPile: readonly number[];
  } | null;
}

export const result = (state: State): GameResult | null =>
  state.phase.name === 'ended' ? rankByParts(scoreParts(state.chips)) : null;

const choiceOf = (state: State, seat: Seat) =>
  state.phase.name === 'choosing' ? state.phase.choices[seat] ?? null : null;

export function view(state: State, viewer: Viewer): View {
  const { phase } = state;
  const seat = viewer.kind === 'seat' ? viewer.seat : null;
  const waiting = pending(state);
  return {
    round: state.round,
    rounds: ROUNDS,
    phase: phase.name,
    animal: state.animal === null ? null : animalData(state.animal),
    seats: state.hands.map((hand, s) => {
      const choice = choiceOf(state, s);
      return {
        seat: s,
        handSize: hand.length,
        chips: state.chips[s]!,
        commitment: choice?.commitment ?? null,
        played: state.played?.[s] ?? null,
      };
    }),
    lastRound:
      state.lastRound === null
        ? null
        : { round: state.lastRound.round, animal: state.lastRound.animal === null ? null : animalData(state.lastRound.animal), played: state.lastRound.played },
    animalsLeft: state.animalsLeft.length,
    drawPileSize: state.drawPile.length,
    discardPileSize: state.discardPile.length,
    supply: state.supply,
    pending: waiting.seats,
    deadline: waiting.deadline ?? null,
    sharing:
      phase.name === 'sharing'
        ? { pool: phase.pool, takers: phase.takers, next: nextTaker(state), takeSize: takeSize(phase.takes, phase.pool) }
        : null,
    robbing: phase.name === 'robbing' ? { winner: phase.winner, losers: phase.losers } : null,
    result: result(state),
    you:
      seat === null || seat < 0 || seat >= state.seats
        ? null
        : {
            seat,
            hand: state.hands[seat]!,
            choice: choiceOf(state, seat)?.cards ?? null,
            surplus: phase.name === 'discarding' ? surplusOf(state, seat) : 0,
          },
    all:
      viewer.kind === 'all'
        ? {
            hands: state.hands,
            choices: state.hands.map((_, s) => choiceOf(state, s)?.cards ?? null),
            salts: state.hands.map((_, s) => choiceOf(state, s)?.salt ?? null),
            drawPile: state.drawPile,
            discardPile: state.discardPile,
          }
        : null,
  };
}

const sees = (viewer: Viewer, seat: Seat): boolean =>
  viewer.kind === 'all' || (viewer.kind === 'seat' && viewer.seat === seat);

export function redact(event: Event, viewer: Viewer, _before: State): Event {
  switch (event.type) {
    case 'CardsDrawn':
    case 'SurplusDiscarded':
      return sees(viewer, event.seat) ? event : { ...event, cards: null };
    case 'CardsChosen':
      return sees(viewer, event.seat) ? event : { ...event, cards: null, salt: null };
    default:
      return event;
  }
}
