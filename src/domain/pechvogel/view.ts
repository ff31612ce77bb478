// Pechvogel has no hidden information: every viewer sees the whole table and every
// event unchanged. Kept as functions so the platform treats all games alike.
import type { Viewer } from '../contract.ts';
import type { PechvogelEvent } from './events.ts';
import type { State } from './state.ts';

export type PechvogelView = State;

export const view = (state: State, _viewer: Viewer): PechvogelView => state;

export const redact = (event: PechvogelEvent, _viewer: Viewer, _before: State): PechvogelEvent => event;
