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
import type { StateSnapshots } from './state-snapshots.ts';

export interface LoadedGame {
  readonly record: GameRecord;
  readonly game: AnyGame;
  readonly setup: Setup<unknown>;
  readonly version: number;
  readonly state: unknown;
  /** The game's generation when it was read (see `forget`); absent for a game just made,
   * which counts as 0: after a forgetAll() such a copy is not kept, and the game is read
   * on its first command. */
  readonly generation?: number;
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
  private readonly generations = new Map<string, number>();
  /** Counts forgetAll(): a game's generation is this plus its own count, so either
   * kind of forgetting makes every copy read before it stale. */
  private epoch = 0;

  constructor(
    private readonly store: EventStore,
    /** Without them every game not in memory is folded from its first event. */
    private readonly snapshots: StateSnapshots | null = null,
    private readonly capacity = 5000,
  ) {}

  /** The game at its latest committed version. */
  async load(gameId: string): Promise<LoadedGame> {
    const generation = this.generationOf(gameId);
    const cached = this.entries.get(gameId);
    const read = cached === undefined ? await this.loadCold(gameId) : await this.catchUp(cached, await this.recordOf(gameId));
    const loaded = { ...read, generation };
    this.keep(loaded, cached);
    return loaded;
  }

  /** The cached game if it is known to be current (this instance appended last). */
  peek(gameId: string): LoadedGame | undefined {
    return this.entries.get(gameId);
  }

  /** Keeps `loaded` as the game's latest, unless it was read before the game was
   * forgotten (a command decided on the old record would otherwise bring it back) or a
   * newer version is kept already. */
  remember(loaded: LoadedGame): void {
    this.keep(loaded, undefined);
  }

  /** As remember; a load may also replace the copy it was read from (`readFrom`), even
   * by a lower version: the database's word corrects a copy ahead of it (a commit lost
   * in a failover). Any other copy newer than `loaded` stays. Without this, a slow
   * read that loaded version n stored it after a commit had stored n+1: the bots woken
   * by that commit decided on n, lost their append, and nobody woke them again. */
  private keep(loaded: LoadedGame, readFrom: LoadedGame | undefined): void {
    if ((loaded.generation ?? 0) !== this.generationOf(loaded.record.id)) return;
    const held = this.entries.get(loaded.record.id);
    if (held !== undefined && held !== readFrom && held.version > loaded.version) return;
    this.entries.delete(loaded.record.id);
    this.entries.set(loaded.record.id, loaded);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  /** Drops the game after a change made beside its log (a seat handed to a bot, here
   * or on another instance): any copy read before now, such as a command still being
   * decided on it, is stale. */
  forget(gameId: string): void {
    this.entries.delete(gameId);
    this.generations.set(gameId, (this.generations.get(gameId) ?? 0) + 1);
  }

  /** Drops every game: changes beside their logs may have gone unheard (the
   * notification connection was lost). */
  forgetAll(): void {
    this.entries.clear();
    this.epoch++;
  }

  private generationOf(gameId: string): number {
    return this.epoch + (this.generations.get(gameId) ?? 0);
  }

  private async recordOf(gameId: string): Promise<GameRecord> {
    const record = await this.store.loadGame(gameId);
    if (record === null) throw new ServiceError(serviceCodes.gameNotFound, `no game ${gameId}`);
    return record;
  }

  /** A game this instance holds nothing of: from its snapshot when it has a usable one
   * (read with the record, in one statement), else from its first event. */
  private async loadCold(gameId: string): Promise<LoadedGame> {
    if (this.snapshots === null) {
      const record = await this.recordOf(gameId);
      return this.catchUp(this.initial(record), record);
    }
    const found = await this.store.loadGameWithSnapshot(gameId);
    if (found === null) throw new ServiceError(serviceCodes.gameNotFound, `no game ${gameId}`);
    const { record, snapshot } = found;
    const initial = this.initial(record);
    const usable = this.snapshots.usable(initial.game, snapshot, record.version);
    const base = usable === null ? initial : { ...initial, ...usable };
    const loaded = await this.catchUp(base, record);
    this.snapshots.loaded(loaded, loaded.version - base.version);
    return loaded;
  }

  private initial(record: GameRecord): LoadedGame {
    const game = gameModuleOf(record);
    const setup = setupOf(record);
    return { record, game, setup, version: 0, state: game.initialState(setup) };
  }

  /** `loaded` brought up to the record's version, carrying the record. */
  private async catchUp(loaded: LoadedGame, record: GameRecord): Promise<LoadedGame> {
    const { version } = record;
    if (loaded.version === version) return { ...loaded, record };
    const base = loaded.version > version ? this.initial(record) : loaded;
    const events = await this.store.readEvents(record.id, base.version, undefined, version);
    return { ...base, record, version, state: foldOn(base.game, base.state, events) };
  }
}
