// "Who Loses?": markers count their value; frustrations −3 each, −7 with Murphy.
import { rankByParts, scoreOf, type GameResult, type ScorePart, type Seat } from '../contract.ts';
import { edition } from './edition.ts';
import type { PlayerState, State } from './state.ts';

/** "Each score marker is worth the number printed on it. Frustrations are worth minus
 * three points each, unless you're holding Murphy at the end of the game, in which case
 * each of yours is worth minus seven points instead." */
export const scoreParts = (player: PlayerState, holdsMurphy: boolean): ScorePart[] => [
  { label: 'score marker', count: player.markers.length, points: player.markers.reduce((sum, v) => sum + v, 0) },
  holdsMurphy
    ? { label: 'frustration with Murphy', count: player.frustrations, points: -player.frustrations * edition.frustrationPenaltyWithMurphy }
    : { label: 'frustration', count: player.frustrations, points: -player.frustrations * edition.frustrationPenalty },
];

export const score = (player: PlayerState, holdsMurphy: boolean): number => scoreOf(scoreParts(player, holdsMurphy));

/** Ties share rank 1: "several non-losers". */
export function result(state: State): GameResult | null {
  if (state.phase !== 'over' || state.turn !== null || state.middle.length > 0) return null;
  return rankByParts(state.players.map((p, seat: Seat) => scoreParts(p, state.murphy === seat)));
}
