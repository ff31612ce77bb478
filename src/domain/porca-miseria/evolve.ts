// Folds one event into the state. Pure and total: everything comes from the event.
// Every command folds several events, so the state is copied by `revise`, not spread.
import type { Seat } from '../contract.ts';
import { cardById } from './edition.ts';
import type { PorcaEvent } from './events.ts';
import { revise, type PorcaState } from './state.ts';
import type { CardId } from './vocabulary.ts';

/** The pile itself when nothing is taken from it: piles are never mutated, and most
 * changes of starting player move no card. */
const without = (pile: readonly CardId[], cards: readonly CardId[]): readonly CardId[] => {
  let rest = pile;
  for (const card of cards) {
    const at = rest.lastIndexOf(card);
    if (at >= 0) rest = rest.toSpliced(at, 1);
  }
  return rest;
};

const followedBy = (pile: readonly CardId[], cards: readonly CardId[]): readonly CardId[] =>
  cards.length === 0 ? pile : [...pile, ...cards];

const replaceAt = <T>(list: readonly T[], seat: Seat, value: T): T[] => {
  const copy = list.slice();
  if (seat >= 0 && seat < copy.length) copy[seat] = value;
  return copy;
};

const noOneHasPassed = (state: PorcaState): boolean[] => state.passed.map(() => false);

export function evolve(state: PorcaState, event: PorcaEvent): PorcaState {
  switch (event.type) {
    case 'GameStarted':
      return revise(state, { phase: 'reveal', startingSeat: event.startingSeat, letterA: event.startingSeat, openedAt: event.at });
    case 'CardRevealed':
      return revise(state, {
        phase: cardById[event.card]?.kind === 'touch' ? 'touch' : 'symbol',
        card: event.card,
        stack: without(state.stack, [event.card]),
        openedAt: event.receivedAt,
        actions: state.actions + 1,
      });
    case 'TargetGrabbed':
      return revise(state, { grabs: [...state.grabs, { seat: event.seat, target: event.target, receivedAt: event.receivedAt }] });
    case 'HandSlapped':
      return revise(state, { hands: [...state.hands, { seat: event.seat, receivedAt: event.receivedAt }] });
    case 'Passed':
      return revise(state, { passed: replaceAt(state.passed, event.seat, true) });
    case 'WinningPaid':
      return revise(state, {
        stack: without(state.stack, [event.card]),
        winnings: replaceAt(state.winnings, event.seat, [...(state.winnings[event.seat] ?? []), event.card]),
      });
    case 'CompensationReceived':
      return revise(state, {
        compensation: replaceAt(state.compensation, event.seat, [...(state.compensation[event.seat] ?? []), event.target]),
      });
    case 'LossPaid':
      return revise(state, {
        winnings: replaceAt(state.winnings, event.seat, without(state.winnings[event.seat] ?? [], event.cards)),
        jackpot: followedBy(state.jackpot, event.cards),
      });
    case 'CardAddedToJackpot':
      return revise(state, { jackpot: [...state.jackpot, event.card], card: null });
    case 'TouchCardWon':
      return revise(state, {
        card: null,
        jackpot: without(state.jackpot, event.jackpot),
        winnings: replaceAt(state.winnings, event.seat, [...(state.winnings[event.seat] ?? []), event.card, ...event.jackpot]),
      });
    case 'StartingPlayerChanged':
      return revise(state, {
        phase: 'reveal',
        startingSeat: event.seat,
        letterA: state.options.expert ? event.seat : state.letterA,
        openedAt: event.at,
        card: null,
        grabs: [],
        hands: [],
        passed: noOneHasPassed(state),
        stack: followedBy(state.stack, event.returnedToStack),
        jackpot: without(state.jackpot, event.returnedToStack),
      });
    case 'GameEnded':
      return revise(state, { phase: 'over', endReason: event.reason });
  }
}
