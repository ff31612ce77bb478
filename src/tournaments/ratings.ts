// Ratings per game type (OpenSkill, through src/domain/tournament/ratings.ts), updated
// in the transaction that records a finished table, so a rating has seen each table
// exactly once. A player is rated across the organizer's tournaments by the
// organizer's external id; without one, within the tournament: every entry its own row
// (two greedy bots at a table are two players), and never across organizers. A table
// is not rated for a player who never played it (a no-show).
import type pg from 'pg';
import { places, type TableResult } from '../domain/tournament/results.ts';
import type { Player, TournamentState } from './log.ts';
import type { TournamentStore } from './tournament-store.ts';

// Loaded by the first table rated, not at start: OpenSkill brings all of ramda, about
// 8 MiB of RSS that an instance running no tournament never needs.
const openSkill = () => import('../domain/tournament/ratings.ts');

export function ratedAs(state: TournamentState, player: Player): string {
  if (player.externalId !== undefined) return `organizer:${state.organizerId}:${player.externalId}`;
  return `tournament:${state.id}:${player.id}`;
}

export async function ratingUpdates(store: TournamentStore, client: pg.ClientBase, state: TournamentState, tables: readonly TableResult[], at: Date): Promise<void> {
  const { initialRating, rate } = await openSkill();
  const byId = new Map(state.players.map((p) => [p.id, p]));
  const keys = [...new Set(tables.flatMap((t) => t.players.map((p) => ratedAs(state, byId.get(p)!))))];
  const current = await store.ratings(client, state.gameType, keys);
  for (const table of tables) {
    const placed = places(table);
    const played = table.players.flatMap((p, i) => (table.absent?.includes(p) ? [] : [{ player: byId.get(p)!, place: placed[i]! }]));
    if (played.length < 2) continue;
    const before = played.map(({ player }) => current.get(ratedAs(state, player)) ?? { ...initialRating(player.seed), tables: 0 });
    const after = rate(before, played.map((p) => p.place));
    played.forEach(({ player }, i) => current.set(ratedAs(state, player), { ...after[i]!, tables: before[i]!.tables + 1 }));
  }
  await store.saveRatings(client, state.gameType, keys.flatMap((player) => (current.has(player) ? [{ player, ...current.get(player)! }] : [])), at);
}
