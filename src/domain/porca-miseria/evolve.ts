// Folds one event into the state. Pure and total: everything comes from the event.
// Every command folds several events, so this is the hottest code of a bot game.
import type { Seat } from '../contract.ts';
import { cardById } from './edition.ts';
import type { PorcaEvent } from './events.ts';
import { draftOf, type PorcaState } from './state.ts';
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
  // A copy no one else sees: setting its fields leaves `state` as it was.
  const next = draftOf(state);
  switch (event.type) {
    case 'GameStarted':
      next.phase = 'reveal';
      next.startingSeat = event.startingSeat;
      next.letterA = event.startingSeat;
      next.openedAt = event.at;
      break;
    case 'CardRevealed':
      next.phase = cardById[event.card]?.kind === 'touch' ? 'touch' : 'symbol';
      next.card = event.card;
      next.stack = without(state.stack, [event.card]);
      next.openedAt = event.receivedAt;
      next.actions = state.actions + 1;
      break;
    case 'TargetGrabbed':
      next.grabs = [...state.grabs, { seat: event.seat, target: event.target, receivedAt: event.receivedAt }];
      break;
    case 'HandSlapped':
      next.hands = [...state.hands, { seat: event.seat, receivedAt: event.receivedAt }];
      break;
    case 'Passed':
      next.passed = replaceAt(state.passed, event.seat, true);
      break;
    case 'WinningPaid':
      next.stack = without(state.stack, [event.card]);
      next.winnings = replaceAt(state.winnings, event.seat, [...(state.winnings[event.seat] ?? []), event.card]);
      break;
    case 'CompensationReceived':
      next.compensation = replaceAt(state.compensation, event.seat, [...(state.compensation[event.seat] ?? []), event.target]);
      break;
    case 'LossPaid':
      next.winnings = replaceAt(state.winnings, event.seat, without(state.winnings[event.seat] ?? [], event.cards));
      next.jackpot = followedBy(state.jackpot, event.cards);
      break;
    case 'CardAddedToJackpot':
      next.jackpot = [...state.jackpot, event.card];
      next.card = null;
      break;
    case 'TouchCardWon':
      next.card = null;
      next.jackpot = without(state.jackpot, event.jackpot);
      next.winnings = replaceAt(state.winnings, event.seat, [...(state.winnings[event.seat] ?? []), event.card, ...event.jackpot]);
      break;
    case 'StartingPlayerChanged':
      next.phase = 'reveal';
      next.startingSeat = event.seat;
      next.letterA = state.options.expert ? event.seat : state.letterA;
      next.openedAt = event.at;
      next.card = null;
      next.grabs = [];
      next.hands = [];
      next.passed = noOneHasPassed(state);
      next.stack = followedBy(state.stack, event.returnedToStack);
      next.jackpot = without(state.jackpot, event.returnedToStack);
      break;
    case 'GameEnded':
      next.phase = 'over';
      next.endReason = event.reason;
      break;
    default:
      event satisfies never;
  }
  return next;
}
