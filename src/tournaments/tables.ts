// Lookups on a tournament's state that its commands share: the round and table a game
// is, a registered player, the result a finished table counts for.
import { ServiceError, serviceCodes } from '../errors.ts';
import type { TableResult } from '../domain/tournament/results.ts';
import type { PairedTable, Player, TournamentState } from './log.ts';

/** The round and table `gameId` is in the tournament, or a refusal. */
export function tableOf(state: TournamentState, gameId: string): { round: number; table: PairedTable } {
  for (const round of state.rounds) {
    const table = round.tables.find((t) => t.gameId === gameId);
    if (table !== undefined) return { round: round.round, table };
  }
  throw new ServiceError(serviceCodes.gameNotInTournament, `game ${gameId} is no table of tournament ${state.id}`);
}

export function playerOf(state: TournamentState, playerId: string): Player {
  const player = state.players.find((p) => p.id === playerId);
  if (player === undefined) throw new ServiceError(serviceCodes.unknownPlayer, `tournament ${state.id} has no player ${playerId}`);
  return player;
}

/** A table's result as the tournament counts it: the game's ranks and scores, who
 * forfeited there and who never played it (no-shows), a knockout's placement table. */
export function tableResult(state: TournamentState, gameId: string, round: number, table: PairedTable, result: { readonly ranks: readonly number[]; readonly scores: readonly number[] }): TableResult {
  const forfeited = state.forfeits.get(gameId);
  const absent = state.noShows.get(gameId);
  return {
    tableId: gameId,
    round,
    players: table.players,
    ranks: result.ranks,
    scores: result.scores,
    ...(forfeited === undefined ? {} : { forfeited }),
    ...(absent === undefined ? {} : { absent }),
    ...(table.placement ? { placement: true } : {}),
  };
}
