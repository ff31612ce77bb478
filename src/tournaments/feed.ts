// Who watches which tournament on this instance: every committed batch of a
// tournament's events reaches its watchers in order, with their seq numbers.
import type { TournamentEvent } from './log.ts';

export type FeedListener = (firstSeq: number, events: readonly TournamentEvent[]) => void;

export class TournamentFeed {
  private readonly listeners = new Map<string, Set<FeedListener>>();

  watch(tournamentId: string, listener: FeedListener): () => void {
    const set = this.listeners.get(tournamentId) ?? new Set();
    set.add(listener);
    this.listeners.set(tournamentId, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(tournamentId);
    };
  }

  appended(tournamentId: string, firstSeq: number, events: readonly TournamentEvent[]): void {
    for (const listener of this.listeners.get(tournamentId) ?? []) listener(firstSeq, events);
  }
}
