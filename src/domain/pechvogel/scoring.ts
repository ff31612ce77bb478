// "Who Loses?": markers count their value; frustrations −3 each, −7 with Murphy.
import { rankByScore, type GameResult, type Seat } from '../contract.ts';
import { edition } from './edition.ts';
import type { PlayerState, State } from './state.ts';

export const score = (player: PlayerState, holdsMurphy: boolean): number =>
  player.markers.reduce((sum, v) => sum + v, 0) -
  player.frustrations * (holdsMurphy ? edition.frustrationPenaltyWithMurphy : edition.frustrationPenalty);

/** Ties share rank 1: "several non-losers". */
export function result(state: State): GameResult | null {
  if (state.phase !== 'over' || state.turn !== null || state.middle.length > 0) return null;
  return rankByScore(state.players.map((p, seat: Seat) => score(p, state.murphy === seat)));
}
