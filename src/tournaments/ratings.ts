// Ratings per game type (OpenSkill, through src/domain/tournament/ratings.ts), updated
// in the transaction that records a finished table, so a rating has seen each table
// exactly once. A player is rated across the organizer's tournaments by the
// organizer's external id; without one, within the tournament: every entry its own row
// (two greedy bots at a table are two players), and never across organizers. A table
// is not rated for a player who never played it (a no-show).
//
// A corrected result changes every rating computed after it: the organizer's ratings
// of that game type are then folded again from all their rated tables, in the order
// they were recorded, each with its result as it stands now. Both ways take one lock
// per organizer and game type, so they never interleave.
import type pg from 'pg';
import { places, type TableResult } from '../domain/tournament/results.ts';
import type { Player, TournamentState } from './log.ts';
import type { StoredRating, TournamentStore } from './tournament-store.ts';

// Loaded by the first table rated, not at start: OpenSkill brings all of ramda, about
// 8 MiB of RSS that an instance running no tournament never needs.
const openSkill = () => import('../domain/tournament/ratings.ts');

export function ratedAs(state: TournamentState, player: Player): string {
  if (player.externalId !== undefined) return `organizer:${state.organizerId}:${player.externalId}`;
  return `tournament:${state.id}:${player.id}`;
}

/** Rates `tables` of `state` in order into `current` (by rating key). */
async function rateTables(current: Map<string, StoredRating>, state: TournamentState, tables: readonly TableResult[]): Promise<void> {
  const { initialRating, rate } = await openSkill();
  const byId = new Map(state.players.map((p) => [p.id, p]));
  for (const table of tables) {
    const placed = places(table);
    const played = table.players.flatMap((p, i) => (table.absent?.includes(p) ? [] : [{ key: ratedAs(state, byId.get(p)!), seed: byId.get(p)!.seed, place: placed[i]! }]));
    if (played.length < 2) continue;
    const before = played.map(({ key, seed }) => current.get(key) ?? { ...initialRating(seed), tables: 0 });
    const after = rate(before, played.map((p) => p.place));
    played.forEach(({ key }, i) => current.set(key, { ...after[i]!, tables: before[i]!.tables + 1 }));
  }
}

export async function ratingUpdates(store: TournamentStore, client: pg.ClientBase, state: TournamentState, tables: readonly TableResult[], at: Date): Promise<void> {
  await store.lockRatings(client, state.organizerId, state.gameType);
  const byId = new Map(state.players.map((p) => [p.id, p]));
  const keys = [...new Set(tables.flatMap((t) => t.players.map((p) => ratedAs(state, byId.get(p)!))))];
  const current = await store.ratings(client, state.gameType, keys);
  await rateTables(current, state, tables);
  await store.saveRatings(client, state.gameType, [...current].map(([player, rating]) => ({ player, ...rating })), at);
}

/** Folds the organizer's ratings of the tournament's game type again from every rated
 * table of theirs (`changed` stands for its tournament as it is about to be). */
export async function refoldRatings(store: TournamentStore, client: pg.ClientBase, changed: TournamentState, stateOf: (id: string) => Promise<TournamentState>, at: Date): Promise<void> {
  await store.lockRatings(client, changed.organizerId, changed.gameType);
  const states = new Map<string, TournamentState>();
  const current = new Map<string, StoredRating>();
  for (const table of await store.ratedTables(client, changed.organizerId, changed.gameType)) {
    let state = states.get(table.tournamentId);
    if (state === undefined) states.set(table.tournamentId, (state = table.tournamentId === changed.id ? changed : await stateOf(table.tournamentId)));
    const result = state.settings.rated ? state.results.get(table.gameId) : undefined;
    if (result !== undefined) await rateTables(current, state, [result]);
  }
  await store.saveRatings(client, changed.gameType, [...current].map(([player, rating]) => ({ player, ...rating })), at);
}
