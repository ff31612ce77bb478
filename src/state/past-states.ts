// A game's states at earlier versions, for pages of the event log, views of the past
// and the catch-up of a live connection.
// Redacting a page needs the state before each of its events, and clients read a long
// log page after page: the last state folded for each game is kept, so the next page
// folds on from there instead of from the start. Logs only grow, so a kept state never
// goes stale.
import { foldOn, type LoadedGame } from './latest-states.ts';
import type { EventStore } from '../events/store.ts';

export class PastStates {
  private readonly folded = new Map<string, { readonly seq: number; readonly state: unknown }>();

  constructor(
    private readonly store: EventStore,
    private readonly capacity = 1000,
  ) {}

  /** The game's state after event `seq` (at most the game's version). */
  async at(game: LoadedGame, seq: number): Promise<unknown> {
    if (seq === game.version) return game.state;
    const id = game.record.id;
    const kept = this.folded.get(id);
    const from = kept !== undefined && kept.seq <= seq ? kept : { seq: 0, state: game.game.initialState(game.setup) };
    if (from.seq === seq) return from.state;
    const events = await this.store.readEvents(id, from.seq, undefined, seq);
    const state = foldOn(game.game, from.state, events);
    this.remember(id, seq, state);
    return state;
  }

  remember(gameId: string, seq: number, state: unknown): void {
    this.folded.delete(gameId);
    this.folded.set(gameId, { seq, state });
    if (this.folded.size > this.capacity) this.folded.delete(this.folded.keys().next().value as string);
  }
}
