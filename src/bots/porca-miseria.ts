// Porca Miseria strategy: grab only the target cards our lucky numbers allow (a wrong
// grab costs three cards), then pass; lay the first hand at once (the bottom hand
// wins when nobody makes a sandwich) and the second only when it makes a sandwich.
import type { PorcaCommand, PorcaView } from '../domain/porca-miseria/index.ts';
import { rightfulTargets } from '../domain/porca-miseria/lucky-numbers.ts';
import { greedyBot, type Turn } from './bot.ts';

type PTurn = Turn<PorcaView, PorcaCommand>;

function rightful({ view, seat }: PTurn, target: string): boolean {
  const card = view.card;
  if (card?.kind !== 'symbol') return false;
  return rightfulTargets(view.luckyNumbers[seat] ?? [], card).some((t) => t === target);
}

/** Our hand now would sit exactly one hand above our first: a sandwich. */
const makesSandwich = ({ view, seat }: PTurn): boolean => {
  const { hands } = view;
  return hands.length >= 2 && hands[hands.length - 2]!.seat === seat && hands[hands.length - 1]!.seat !== seat;
};

function slapValue(turn: PTurn): number {
  const laid = turn.view.hands.filter((h) => h.seat === turn.seat).length;
  return laid === 0 || makesSandwich(turn) ? 1 : -1;
}

export const porcaMiseriaGreedy = greedyBot<PorcaView, PorcaCommand>((turn) => (command) => {
  switch (command.type) {
    case 'grab':
      return rightful(turn, command.target) ? 1 : -1;
    case 'slap':
      return slapValue(turn);
    default:
      return 0;
  }
});
