// The automatic steps between players' decisions: revealing animals, appraising the
// hunt, automatic prey takes, ending a round, drawing, the end of the game. Each step
// folds its events as it goes, so the next step sees the state they lead to.
import type { Chance } from '../chance.ts';
import { animalData } from './edition.ts';
import type { Event } from './events.ts';
import { evolve } from './evolve.ts';
import { appraise, preyFromSupply } from './hunt.ts';
import { scores } from './scoring.ts';
import type { State } from './state.ts';
import { FIRST_TAKE, PREY_KINDS, ROUNDS, STARTING_HAND, tableFor, type PreyCounts, type PreyKind } from './vocabulary.ts';

export interface Step {
  readonly state: State;
  readonly events: readonly Event[];
}

export const emit = (step: Step, ...events: Event[]): Step =>
  events.reduce((s, e) => ({ state: evolve(s.state, e), events: [...s.events, e] }), step);

export const surplusOf = (state: State, seat: number): number =>
  Math.max(0, state.hands[seat]!.length - tableFor(state.seats).handLimit);

/** Draws lazily: when the draw pile runs out mid-draw, the discard pile becomes the
 * draw pile and the draw goes on from it. */
const drawCards = (step: Step, seat: number, count: number, chance: Chance): Step => {
  const fromPile = Math.min(count, step.state.drawPile.length);
  let next = step;
  if (fromPile > 0) {
    const cards = chance.draw(next.state.drawPile, fromPile, 'card');
    next = emit(next, { type: 'CardsDrawn', seat, count: fromPile, cards });
  }
  const rest = count - fromPile;
  if (rest === 0 || next.state.discardPile.length === 0) return next;
  next = emit(next, { type: 'DiscardPileReshuffled', count: next.state.discardPile.length });
  const more = Math.min(rest, next.state.drawPile.length);
  return emit(next, { type: 'CardsDrawn', seat, count: more, cards: chance.draw(next.state.drawPile, more, 'card') });
};

export const deal = (step: Step, chance: Chance): Step =>
  startRound(
    step.state.hands.reduce((s, _, seat) => drawCards(s, seat, STARTING_HAND, chance), step),
    chance,
  );

const startRound = (step: Step, chance: Chance): Step => {
  const [animal] = chance.draw(step.state.animalsLeft, 1, 'animal');
  return emit(step, { type: 'AnimalRevealed', round: step.state.round + 1, animal: animal! });
};

const endGame = (step: Step): Step => emit(step, { type: 'GameEnded', scores: scores(step.state.chips) });

/** After the hunt is settled: discard the played cards, draw, check the hand limit. */
export const endRound = (step: Step, chance: Chance): Step => {
  let next = emit(step, { type: 'RoundEnded', round: step.state.round });
  // The game ends when the 12th animal is appraised: no draw after it.
  if (next.state.round >= ROUNDS) return endGame(next);
  const { draw } = tableFor(next.state.seats);
  next = next.state.hands.reduce((s, _, seat) => drawCards(s, seat, draw, chance), next);
  return afterDiscard(next, chance);
};

/** The next round starts once nobody is above the hand limit. */
export const afterDiscard = (step: Step, chance: Chance): Step =>
  step.state.hands.some((_, seat) => surplusOf(step.state, seat) > 0) ? step : startRound(step, chance);

export const takeSize = (takes: number, pool: PreyCounts): number =>
  Math.min(takes === 0 ? FIRST_TAKE : 1, PREY_KINDS.reduce((n, k) => n + pool[k], 0));

/** Takes chips for the next taker while their choice cannot matter: one kind left, or
 * a single taker who gets everything anyway. */
export const continueSharing = (step: Step, chance: Chance): Step => {
  let next = step;
  for (;;) {
    const { phase } = next.state;
    if (phase.name !== 'sharing') return next;
    const size = takeSize(phase.takes, phase.pool);
    if (size === 0 || phase.takers.length === 0) return endRound(next, chance);
    const kinds = PREY_KINDS.filter((k) => phase.pool[k] > 0);
    if (kinds.length > 1 && phase.takers.length > 1) return next;
    const chips: PreyKind[] = kinds.flatMap((k) => Array<PreyKind>(phase.pool[k]).fill(k)).slice(0, size);
    const seat = phase.takers[phase.takes % phase.takers.length]!;
    next = emit(next, { type: 'PreyTaken', seat, chips, automatic: true });
  }
};

/** Once every choice is revealed: kill and share, or escape and maybe fight. */
export const settleHunt = (step: Step, chance: Chance): Step => {
  const { state } = step;
  const animal = animalData(state.animal!);
  const outcome = appraise(animal, state.played!);
  if (outcome.kind === 'kill') {
    const prey = preyFromSupply(animal, state.supply);
    return continueSharing(emit(step, { type: 'HuntSucceeded', prey, takers: [...outcome.takers] }), chance);
  }
  const failed = emit(step, { type: 'HuntFailed', reason: outcome.reason, fight: outcome.fight !== null });
  if (outcome.fight === null) return endRound(failed, chance);
  const { winner } = outcome.fight;
  // Every loser is named, so the table sees who lost; only those with a chip to take
  // can be robbed (the robbing phase lists them).
  const won = emit(failed, { type: 'FightWon', winner, skull: state.supply.skull > 0, losers: [...outcome.fight.losers] });
  return won.state.phase.name === 'robbing' && won.state.phase.losers.length === 0 ? endRound(won, chance) : won;
};
