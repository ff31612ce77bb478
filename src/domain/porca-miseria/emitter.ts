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

/** A class, not an object literal with a getter: a literal's getter gets a hidden class
 * of its own in old space for every command, and that kept every state of the
 * command alive through the next minor GCs (about half of simulate's time was GC).
 * Events are folded when a rule step reads the state: the caller folds the command's
 * events again, so a state after the last event that nobody reads is not built. */
class Collector implements Emitter {
  readonly events: PorcaEvent[] = [];
  private folded = 0;
  constructor(private current: PorcaState) {}
  get state(): PorcaState {
    while (this.folded < this.events.length) this.current = evolve(this.current, this.events[this.folded++]!);
    return this.current;
  }
  emit(event: PorcaEvent): void {
    this.events.push(event);
  }
}

export function emitter(start: PorcaState): Emitter {
  return new Collector(start);
}
