// src/state/ is a game as the application folds it: the latest state of each game,
// states at earlier versions, and what a viewer sees at a version. It may import
// src/domain, src/events and src/errors.ts; commands, reads and live fan-out share it.
//
// The latest state of each game this instance touched, so a command does not refold
// the log. Entries are keyed by version: a stale entry (another instance appended)
// is caught up from the events after it, never trusted blindly.
import { findGame, type AnyGame } from '../domain/games.ts';
import type { GameEvent, Setup } from '../domain/contract.ts';
import { ServiceError, serviceCodes } from '../errors.ts';
import type { EventStore } from '../events/store.ts';
import type { GameRecord } from '../events/records.ts';

export interface LoadedGame {
  readonly record: GameRecord;
  readonly game: AnyGame;
  readonly setup: Setup<unknown>;
  readonly version: number;
  readonly state: unknown;
}

function gameModuleOf(record: GameRecord): AnyGame {
  const game = findGame(record.type);
  if (game === undefined) throw new Error(`game ${record.id} has unknown type ${record.type}`);
  return game;
}

/** The state after `events` (stored or versioned ones), folded onto `state` by the game's rules. */
export function foldOn(game: AnyGame, state: unknown, events: readonly { readonly event: GameEvent }[]): unknown {
  let folded = state;
  for (const { event } of events) folded = game.evolve(folded, event);
  return folded;
}

export const setupOf = (record: GameRecord): Setup<unknown> => ({
  options: record.options,
  seats: record.seatCount,
});

export class LatestStates {
  private readonly entries = new Map<string, LoadedGame>();

  constructor(
    private readonly store: EventStore,
    private readonly capacity = 5000,
  ) {}

  /** The game at its latest committed version. */
  async load(gameId: string): Promise<LoadedGame> {
    const record = await this.store.loadGame(gameId);
    if (record === null) throw new ServiceError(serviceCodes.gameNotFound, `no game ${gameId}`);
    const cached = this.entries.get(gameId);
    const base = cached ?? this.initial(record);
    const loaded = await this.catchUp({ ...base, record }, record.version);
    this.remember(loaded);
    return loaded;
  }

  /** The cached game if it is known to be current (this instance appended last). */
  peek(gameId: string): LoadedGame | undefined {
    return this.entries.get(gameId);
  }

  remember(loaded: LoadedGame): void {
    this.entries.delete(loaded.record.id);
    this.entries.set(loaded.record.id, loaded);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  forget(gameId: string): void {
    this.entries.delete(gameId);
  }

  private initial(record: GameRecord): LoadedGame {
    const game = gameModuleOf(record);
    const setup = setupOf(record);
    return { record, game, setup, version: 0, state: game.initialState(setup) };
  }

  private async catchUp(loaded: LoadedGame, version: number): Promise<LoadedGame> {
    if (loaded.version === version) return loaded;
    const base = loaded.version > version ? this.initial(loaded.record) : loaded;
    const events = await this.store.readEvents(loaded.record.id, base.version, undefined, version);
    return { ...base, version, state: foldOn(base.game, base.state, events) };
  }
}
