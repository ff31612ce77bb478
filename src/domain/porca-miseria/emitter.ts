// Collects the events of one command while keeping the state they lead to, so each
// rule step reads the table as the previous step left it.
import { evolve } from './evolve.ts';
import type { PorcaEvent } from './events.ts';
import type { PorcaState } from './state.ts';

export interface Emitter {
  readonly state: PorcaState;
  readonly events: readonly PorcaEvent[];
  emit(event: PorcaEvent): void;
}

export function emitter(start: PorcaState): Emitter {
  let state = start;
  const events: PorcaEvent[] = [];
  return {
    get state() {
      return state;
    },
    events,
    emit(event) {
      events.push(event);
      state = evolve(state, event);
    },
  };
}
