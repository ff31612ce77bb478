// Who may act now and with what: derived from the phase, so it matches decide.
import type { Pending, Seat } from '../contract.ts';
import type { PechvogelCommand } from './commands.ts';
import { canReduce, undecided } from './reaction.ts';
import { timed } from './options.ts';
import { stealableFrom, type State } from './state.ts';
import { isNumber } from './vocabulary.ts';

const distinct = <T>(items: readonly T[]): T[] => [...new Set(items)];

export function legalCommands(state: State, seat: Seat): PechvogelCommand[] {
  const turn = state.turn;
  if (turn === null) return [];
  const active = seat === turn.seat;
  switch (state.phase) {
    case 'throw':
      return active ? [{ type: 'throw' }] : [];
    case 'chooseTarget':
      return active
        ? distinct((turn.last?.faces ?? []).filter(isNumber))
            .sort((a, b) => a - b)
            .map((target) => ({ type: 'chooseTarget', target }))
        : [];
    case 'react': {
      if (!undecided(state, turn).includes(seat)) return [];
      const reroll: PechvogelCommand =
        active && canReduce(state, turn) && !turn.reaction?.joining ? { type: 'reduce' } : { type: 'frustrate' };
      return [reroll, { type: 'pass' }];
    }
    case 'claim': {
      if (!active || turn.target === null) return [];
      const target = turn.target;
      const fromMiddle: PechvogelCommand[] = state.middle.includes(target) ? [{ type: 'takeFromMiddle' }] : [];
      const boxable = distinct(state.middle);
      const steals = stealableFrom(state, turn).flatMap((from) =>
        boxable.map((returnToBox): PechvogelCommand => ({ type: 'steal', from, returnToBox })),
      );
      return [...fromMiddle, ...steals];
    }
    case 'ending':
    case 'over':
      return [];
  }
}

export function pending(state: State): Pending {
  const seats = Array.from({ length: state.seats }, (_, s) => s).filter(
    (s) => legalCommands(state, s).length > 0,
  );
  const deadline = state.phase === 'react' && timed(state.options) ? state.turn?.reaction?.deadline : undefined;
  return deadline === undefined ? { seats } : { seats, deadline };
}
