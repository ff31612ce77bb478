// Pechvogel has no hidden information: every viewer sees the whole table and every
// event unchanged. Kept as functions so the platform treats all games alike.
import type { Viewer } from '../contract.ts';
import { edition } from './edition.ts';
import type { PechvogelEvent } from './events.ts';
import type { State } from './state.ts';

export interface PechvogelView extends State {
  /** Frustrations left in the supply: the box's tokens not held by a player or lying on
   * the board. The rulebook's supply never runs out, so 0 means the table makes do
   * with stand-ins. */
  readonly frustrationSupply: number;
}

export const view = (state: State, _viewer: Viewer): PechvogelView => {
  const held = state.players.reduce((n, p) => n + p.frustrations, 0);
  const onBoard = state.turn?.frustraters.length ?? 0;
  return { ...state, frustrationSupply: Math.max(0, edition.frustrations - held - onBoard) };
};

export const redact = (event: PechvogelEvent, _viewer: Viewer, _before: State): PechvogelEvent => event;
