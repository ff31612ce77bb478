// Fackel+Keule: 3–5 hunters secretly choose tools and clubs, reveal them together,
// and share the prey or fight over it. The module object the platform plays.
import type { GameModule } from '../contract.ts';
import type { Chance } from '../chance.ts';
import { commandSchema, type Command, type GameCommand } from './commands.ts';
import { decide, withDeadline } from './decide.ts';
import { edition } from './edition.ts';
import { eventSchema, type Event } from './events.ts';
import { evolve } from './evolve.ts';
import { deal } from './flow.ts';
import { legalCommands, pending } from './legal.ts';
import { optionsSchema, validateSetup, type Options } from './options.ts';
import { initialState, type State } from './state.ts';
import { GAME_TYPE, MAX_PLAYERS, MIN_PLAYERS } from './vocabulary.ts';
import { redact, result, view, type View } from './view.ts';
import { editionSchema, viewSchemas } from './view-schema.ts';
import { codes } from './codes.ts';

export { verifyCommitment, commitmentOf } from './commitment.ts';
export { codes } from './codes.ts';
export type { Command, Event, GameCommand, Options, State, View };

export const fackelUndKeule: GameModule<Options, State, GameCommand, Event, View> = {
  type: GAME_TYPE,
  title: 'Fackel+Keule',
  // 1.1.0: the optional time limit (turnSeconds) and the system's timeout.
  // 1.2.0: FightWon names every loser, not only those who can be robbed.
  // 1.3.0: lifecycle.ts wraps the state: resign, abort, expiry (and the turn clock).
  rulesVersion: '1.3.0',
  players: { min: MIN_PLAYERS, max: MAX_PLAYERS },
  traits: { hiddenInformation: true, simultaneous: true, realTime: false },
  optionsSchema,
  // The rulebook's game has no time limit; a referee may set one.
  untimedOptions: { turnSeconds: 0 },
  commandSchema,
  eventSchema,
  edition,
  editionSchema,
  codes: Object.values(codes),
  viewSchemas,
  validateSetup,
  initialState,
  setup: (state: State, ctx: { now: number; chance: Chance }) =>
    withDeadline(deal({ state, events: [] }, ctx.chance), ctx.now),
  decide,
  evolve,
  view,
  redact,
  pending,
  legalCommands,
  result,
};
