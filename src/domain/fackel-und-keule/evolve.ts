// evolve: folds one event into the state. Pure and total; everything it needs is in
// the event. A deadline belongs to one phase or turn, so every event that starts a new
// one clears it; the `DeadlineSet` that follows (with a time limit) sets the next.
import { robbable } from './hunt.ts';
import type { Event } from './events.ts';
import type { Choice, State } from './state.ts';
import type { ChipCounts, ChipKind, PreyCounts } from './vocabulary.ts';

const without = (cards: readonly number[], gone: readonly number[]): number[] =>
  cards.filter((c) => !gone.includes(c));

const sorted = (cards: readonly number[]): number[] => [...cards].sort((a, b) => a - b);

const replaceAt = <T>(items: readonly T[], at: number, item: T): T[] =>
  items.map((x, i) => (i === at ? item : x));

const addChip = <T extends PreyCounts | ChipCounts>(counts: T, kind: keyof T & ChipKind, by: number): T => ({
  ...counts,
  [kind]: (counts[kind] as number) + by,
});

export function evolve(state: State, event: Event): State {
  switch (event.type) {
    case 'CardsDrawn': {
      const cards = event.cards ?? [];
      return {
        ...state,
        drawPile: without(state.drawPile, cards),
        hands: replaceAt(state.hands, event.seat, sorted([...state.hands[event.seat]!, ...cards])),
      };
    }
    case 'DiscardPileReshuffled':
      return { ...state, drawPile: sorted([...state.drawPile, ...state.discardPile]), discardPile: [] };
    case 'AnimalRevealed':
      return {
        ...state,
        round: event.round,
        animal: event.animal,
        animalsLeft: state.animalsLeft.filter((a) => a !== event.animal),
        played: null,
        phase: { name: 'choosing', choices: Array.from({ length: state.seats }, () => null) },
        deadline: null,
      };
    case 'CardsChosen': {
      if (state.phase.name !== 'choosing') return state;
      const choice: Choice = { cards: sorted(event.cards ?? []), salt: event.salt ?? '', commitment: event.commitment };
      return { ...state, phase: { ...state.phase, choices: replaceAt(state.phase.choices, event.seat, choice) } };
    }
    case 'CardsRevealed': {
      const played = state.hands.map((_, seat) => sorted(event.choices.find((c) => c.seat === seat)?.cards ?? []));
      return { ...state, played, lastRound: null, hands: state.hands.map((hand, seat) => without(hand, played[seat]!)) };
    }
    case 'HuntSucceeded': {
      const { prey } = event;
      return {
        ...state,
        supply: {
          ...state.supply,
          teeth: state.supply.teeth - prey.teeth,
          fur: state.supply.fur - prey.fur,
          meat: state.supply.meat - prey.meat,
        },
        phase: { name: 'sharing', pool: prey, takers: event.takers, takes: 0 },
        deadline: null,
      };
    }
    case 'PreyTaken': {
      if (state.phase.name !== 'sharing') return state;
      let pool: PreyCounts = state.phase.pool;
      let mine = state.chips[event.seat]!;
      for (const chip of event.chips) {
        pool = addChip(pool, chip, -1);
        mine = addChip(mine, chip, 1);
      }
      return {
        ...state,
        chips: replaceAt(state.chips, event.seat, mine),
        phase: { ...state.phase, pool, takes: state.phase.takes + 1 },
        // The next taker's turn begins: it gets its own time.
        deadline: null,
      };
    }
    case 'HuntFailed':
      return state;
    case 'FightWon':
      return {
        ...state,
        supply: event.skull ? addChip(state.supply, 'skull', -1) : state.supply,
        chips: event.skull ? replaceAt(state.chips, event.winner, addChip(state.chips[event.winner]!, 'skull', 1)) : state.chips,
        // Games before rules 1.2.0 named only the robbable losers: filtering again
        // changes nothing for them.
        phase: { name: 'robbing', winner: event.winner, losers: event.losers.filter((seat) => robbable(state.chips[seat]!)) },
        deadline: null,
      };
    case 'ChipRobbed': {
      const chips = replaceAt(state.chips, event.from, addChip(state.chips[event.from]!, event.chip, -1));
      return { ...state, chips: replaceAt(chips, event.winner, addChip(chips[event.winner]!, event.chip, 1)) };
    }
    case 'RoundEnded':
      return {
        ...state,
        lastRound: { round: state.round, animal: state.animal, played: state.played ?? [] },
        animal: null,
        discardPile: sorted([...state.discardPile, ...(state.played ?? []).flat()]),
        played: null,
        // Prey the takers could not take (none in this edition) goes back to the supply.
        supply:
          state.phase.name === 'sharing'
            ? {
                ...state.supply,
                teeth: state.supply.teeth + state.phase.pool.teeth,
                fur: state.supply.fur + state.phase.pool.fur,
                meat: state.supply.meat + state.phase.pool.meat,
              }
            : state.supply,
        phase: { name: 'discarding' },
        deadline: null,
      };
    case 'SurplusDiscarded': {
      const cards = event.cards ?? [];
      return {
        ...state,
        hands: replaceAt(state.hands, event.seat, without(state.hands[event.seat]!, cards)),
        discardPile: sorted([...state.discardPile, ...cards]),
      };
    }
    case 'DeadlineSet':
      return { ...state, deadline: event.deadline };
    case 'TimedOut':
      return state;
    case 'GameEnded':
      return { ...state, phase: { name: 'ended' } };
  }
}
