// Ratings per game type (OpenSkill, through src/domain/tournament/ratings.ts), updated
// in the transaction that records a finished table, so a rating has seen each table
// exactly once. A player is rated across tournaments by the organizer's external id;
// without one, a person within the tournament and a bot by its kind.
import type pg from 'pg';
import { places, type TableResult } from '../domain/tournament/results.ts';
import type { Player, TournamentState } from './log.ts';
import type { TournamentStore } from './tournament-store.ts';

// Loaded by the first table rated, not at start: OpenSkill brings all of ramda, about
// 8 MiB of RSS that an instance running no tournament never needs.
const openSkill = () => import('../domain/tournament/ratings.ts');

export function ratedAs(state: TournamentState, player: Player): string {
  if (player.externalId !== undefined) return `organizer:${state.organizerId}:${player.externalId}`;
  return player.bot === undefined ? `tournament:${state.id}:${player.id}` : `bot:${player.bot}`;
}

export async function ratingUpdates(store: TournamentStore, client: pg.ClientBase, state: TournamentState, tables: readonly TableResult[], at: Date): Promise<void> {
  const { initialRating, rate } = await openSkill();
  const byId = new Map(state.players.map((p) => [p.id, p]));
  const keys = [...new Set(tables.flatMap((t) => t.players.map((p) => ratedAs(state, byId.get(p)!))))];
  const current = await store.ratings(client, state.gameType, keys);
  for (const table of tables) {
    const seated = table.players.map((p) => byId.get(p)!);
    const before = seated.map((p) => current.get(ratedAs(state, p)) ?? { ...initialRating(p.seed), tables: 0 });
    const after = rate(before, places(table));
    seated.forEach((p, i) => current.set(ratedAs(state, p), { ...after[i]!, tables: before[i]!.tables + 1 }));
  }
  await store.saveRatings(client, state.gameType, keys.map((player) => ({ player, ...current.get(player)! })), at);
}
