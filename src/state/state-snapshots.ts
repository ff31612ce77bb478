// Persisted state snapshots: a game's folded state saved every `every` events, so that
// a long game loaded after a restart (or by another instance) reads and folds only the
// events after its snapshot instead of its whole log. A snapshot is a cache of the log,
// never the truth:
// - it is saved after the commit that reached it, off the command's path (nobody waits
//   for it, and a failed save costs only a longer fold later);
// - it is read back only when the rules running now folded it (the game module's
//   rulesVersion): a state folded by other rules may differ in shape or content, and is
//   refolded from the log instead;
// - replaying the log stays the definition of the state, and a test folds every game
//   type both ways and compares.
import type { AnyGame } from '../domain/games.ts';
import type { StoredSnapshot } from '../events/records.ts';
import type { EventStore } from '../events/store.ts';

/** How often a snapshot is saved, in events: a cold load then folds fewer than this many. */
export const SNAPSHOT_EVERY = 200;

/** A game at a version, as LatestStates holds it (LoadedGame fits). */
interface FoldedGame {
  readonly record: { readonly id: string };
  readonly game: AnyGame;
  readonly version: number;
  readonly state: unknown;
}

export class StateSnapshots {
  private readonly saving = new Set<Promise<void>>();

  constructor(
    private readonly store: EventStore,
    /** A failed save: worth a warning, never a failure of anything else. */
    private readonly failed: (error: unknown) => void,
    readonly every = SNAPSHOT_EVERY,
  ) {}

  /** The snapshot's version and state when `game`'s current rules folded it and it is
   * not ahead of the game's committed version; otherwise null (fold from the start). */
  usable(game: AnyGame, snapshot: StoredSnapshot | null, version: number): { version: number; state: unknown } | null {
    if (snapshot === null || snapshot.rulesVersion !== game.rulesVersion || snapshot.version > version) return null;
    return { version: snapshot.version, state: snapshot.state };
  }

  /** After a commit took the game from `before` to `after`: saves `after` when the
   * commit crossed a multiple of `every`. */
  committed(before: FoldedGame, after: FoldedGame): void {
    if (Math.floor(after.version / this.every) > Math.floor(before.version / this.every)) this.save(after);
  }

  /** After a load folded `folded` events on top of its snapshot (or of the initial
   * state): saves the result when that was more than a snapshot's worth, e.g. a game
   * saved before snapshots existed, or by other rules. */
  loaded(loaded: FoldedGame, folded: number): void {
    if (folded >= this.every) this.save(loaded);
  }

  /** Settles once every save under way has (graceful shutdown, before the pool closes). */
  async drain(): Promise<void> {
    while (this.saving.size > 0) await Promise.all(this.saving);
  }

  private save({ record, game, version, state }: FoldedGame): void {
    const saved = this.store
      .saveSnapshot(record.id, { version, rulesVersion: game.rulesVersion, state })
      .catch(this.failed)
      .finally(() => this.saving.delete(saved));
    this.saving.add(saved);
  }
}
