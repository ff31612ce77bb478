// Pechvogel strategy: aim at the number the first throw favours and that still pays,
// shed frustrations with `reduce` when a throw brought more ravens than targets,
// frustrate a player who is close to a marker, and steal from the leader.
import type { PechvogelCommand, PechvogelView } from '../domain/pechvogel/index.ts';
import { score } from '../domain/pechvogel/scoring.ts';
import type { DieNumber } from '../domain/pechvogel/vocabulary.ts';
import { greedyBot, type Turn } from './bot.ts';

type PTurn = Turn<PechvogelView, PechvogelCommand>;

const scoreOf = (view: PechvogelView, seat: number): number =>
  score(view.players[seat]!, view.murphy === seat);

/** A target pays only if its marker is in the middle or with an opponent. */
const pays = (view: PechvogelView, seat: number, target: DieNumber): boolean =>
  view.middle.includes(target) || view.players.some((p, s) => s !== seat && p.markers.includes(target));

function chooseTarget({ view, seat }: PTurn, target: DieNumber): number {
  const rolled = (view.turn?.last?.faces ?? []).filter((f) => f === target).length;
  // Dice count first (four ends the turn well), then whether it pays, then its value.
  return rolled * 100 + (pays(view, seat, target) ? 50 : 0) + target;
}

/** "Close to finishing": a marker is one good throw away. */
const closeToMarker = (view: PechvogelView): boolean => {
  const turn = view.turn;
  return turn !== null && turn.targetsOnBoard >= 2 && turn.target !== null && pays(view, turn.seat, turn.target);
};

/** The last throw brought at least as many ravens as targets. */
const poorThrow = (view: PechvogelView): boolean => {
  const last = view.turn?.last ?? null;
  return last !== null && last.ravens >= last.targets;
};

/** A steal swings twice the marker's value; take it from the best-placed opponent and
 * box the cheapest marker so the middle keeps its value for us. */
const stealValue = (view: PechvogelView, from: number, returnToBox: number): number =>
  1000 + scoreOf(view, from) * 10 - returnToBox;

export const pechvogelGreedy = greedyBot<PechvogelView, PechvogelCommand>((turn) => (command) => {
  switch (command.type) {
    case 'chooseTarget':
      return chooseTarget(turn, command.target);
    // Reducing also returns a frustration (+3 points), so any poor throw is worth it.
    case 'reduce':
      return poorThrow(turn.view) ? 1 : -1;
    case 'frustrate':
      return closeToMarker(turn.view) ? 1 : -1;
    case 'steal':
      return stealValue(turn.view, command.from, command.returnToBox);
    default:
      return 0;
  }
});
