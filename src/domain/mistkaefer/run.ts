// Builds a command's events one at a time; a later step (or a chance draw) that reads
// the state sees it with every earlier event folded in. A chip gain that reaches the
// goal ends the game on the spot: the winner is announced and nothing after it happens.
import type { Seat } from '../contract.ts';
import type { Event } from './events.ts';
import { evolve } from './evolve.ts';
import type { State } from './state.ts';
import { hasWon } from './state.ts';

export interface Run {
  readonly state: State;
  readonly events: readonly Event[];
}

/** A run one event on. Its state is folded only when a later step asks for it: a roll
 * that can be placed and a placement onto bonus spaces never do (ending a turn does),
 * and the caller folds the returned events anyway. */
class Emitted implements Run {
  private folded: State | undefined;
  constructor(
    private readonly before: Run,
    private readonly event: Event,
    readonly events: readonly Event[],
  ) {}
  get state(): State {
    return (this.folded ??= evolve(this.before.state, this.event));
  }
}

export const begin = (state: State): Run => ({ state, events: [] });

/** Only GameWon ends a game within a command (decide refuses once it is over), so
 * this needs no fold. */
export const isOver = ({ events }: Run): boolean => events.length > 0 && events[events.length - 1]!.type === 'GameWon';

const gainer = (event: Event): Seat | null =>
  event.type === 'ChipsTaken' ? event.seat : event.type === 'ChipStolen' ? event.thief : null;

export function emit(run: Run, event: Event): Run {
  if (isOver(run)) return run;
  const next = new Emitted(run, event, [...run.events, event]);
  const seat = gainer(event);
  return seat !== null && hasWon(next.state, seat) ? emit(next, { type: 'GameWon', seat }) : next;
}

/** The turn passes clockwise, or stays with the seat while it has an extra turn. */
export function endTurn(run: Run): Run {
  const { active, extraTurns, seats } = run.state;
  return emit(run, { type: 'TurnEnded', seat: active, next: extraTurns > 0 ? active : (active + 1) % seats });
}
