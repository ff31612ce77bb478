// Who may act now, and exactly what each seat may send.
import type { Pending, Seat } from '../contract.ts';
import type { Command } from './commands.ts';
import { surplusOf, takeSize } from './flow.ts';
import type { State } from './state.ts';
import { PREY_KINDS, tableFor, type PreyCounts, type PreyKind } from './vocabulary.ts';

/** All subsets of `items` with a size in [min, max], in a stable order. */
export const subsets = <T>(items: readonly T[], min: number, max: number): T[][] => {
  const all: T[][] = [];
  const walk = (from: number, picked: T[]) => {
    if (picked.length >= min) all.push(picked);
    if (picked.length === max) return;
    for (let i = from; i < items.length; i++) walk(i + 1, [...picked, items[i]!]);
  };
  walk(0, []);
  return all;
};

/** Every multiset of `size` chips the pool can give (kinds in rulebook order). */
const takes = (pool: PreyCounts, size: number, from = 0): PreyKind[][] => {
  if (size === 0) return [[]];
  return PREY_KINDS.slice(from).flatMap((kind, i) =>
    pool[kind] > 0
      ? takes({ ...pool, [kind]: pool[kind] - 1 }, size - 1, from + i).map((rest) => [kind, ...rest])
      : [],
  );
};

export const nextTaker = (state: State): Seat | null =>
  state.phase.name === 'sharing' ? (state.phase.takers[state.phase.takes % state.phase.takers.length] ?? null) : null;

export function pending(state: State): Pending {
  const seats = waitingFor(state);
  return state.deadline === null || seats.length === 0 ? { seats } : { seats, deadline: state.deadline };
}

/** The seats that must act now, in seat order. */
function waitingFor(state: State): Seat[] {
  const { phase } = state;
  const seats = state.hands.map((_, seat) => seat);
  switch (phase.name) {
    case 'choosing':
      return seats.filter((seat) => phase.choices[seat] === null);
    case 'sharing': {
      const taker = nextTaker(state);
      return taker === null ? [] : [taker];
    }
    case 'robbing':
      return [phase.winner];
    case 'discarding':
      return seats.filter((seat) => surplusOf(state, seat) > 0);
    case 'dealing':
    case 'ended':
      return [];
  }
}

export function legalCommands(state: State, seat: Seat): Command[] {
  if (!pending(state).seats.includes(seat)) return [];
  const { phase } = state;
  const hand = state.hands[seat]!;
  switch (phase.name) {
    case 'choosing':
      return subsets(hand, 1, tableFor(state.seats).maxPlay).map((cards) => ({ type: 'choose', cards }));
    case 'sharing':
      return takes(phase.pool, takeSize(phase.takes, phase.pool)).map((chips) => ({ type: 'takePrey', chips }));
    case 'robbing':
      return phase.losers.flatMap((from) =>
        PREY_KINDS.filter((chip) => state.chips[from]![chip] > 0).map((chip) => ({ type: 'rob' as const, from, chip })),
      );
    case 'discarding': {
      const surplus = surplusOf(state, seat);
      return subsets(hand, surplus, surplus).map((cards) => ({ type: 'discard', cards }));
    }
    case 'dealing':
    case 'ended':
      return [];
  }
}
