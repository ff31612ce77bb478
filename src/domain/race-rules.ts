// What a game with races tells the platform about them (see races.ts).
import type { Command, GameEvent, Seat } from './contract.ts';

/** The race command an event records as accepted (the first event it produced). */
export interface AcceptedRace {
  readonly seat: Seat;
  readonly command: Command & { readonly [field: string]: unknown };
  /** When the rules recorded it; null: the event does not say (the log's `at` does). */
  readonly receivedAt: number | null;
}

export interface RaceRules {
  /** Command types decided by arrival order. */
  readonly commands: readonly string[];
  /** The accepted race command `event` records, if it is one's first event. */
  accepted(event: GameEvent): AcceptedRace | null;
}
