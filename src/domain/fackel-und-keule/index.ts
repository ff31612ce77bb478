// Fackel+Keule: 3–5 hunters secretly choose tools and clubs, reveal them together,
// and share the prey or fight over it. The module object the platform plays.
import type { GameModule } from '../contract.ts';
import type { Chance } from '../chance.ts';
import { commandSchema, type Command } from './commands.ts';
import { decide } from './decide.ts';
import { edition } from './edition.ts';
import { eventSchema, type Event } from './events.ts';
import { evolve } from './evolve.ts';
import { deal } from './flow.ts';
import { legalCommands, pending } from './legal.ts';
import { optionsSchema, validateSetup, type Options } from './options.ts';
import { initialState, type State } from './state.ts';
import { GAME_TYPE, MAX_PLAYERS, MIN_PLAYERS } from './vocabulary.ts';
import { redact, result, view, type View } from './view.ts';

export { verifyCommitment, commitmentOf } from './commitment.ts';
export { codes } from './codes.ts';
export type { Command, Event, Options, State, View };

export const fackelUndKeule: GameModule<Options, State, Command, Event, View> = {
  type: GAME_TYPE,
  title: 'Fackel+Keule',
  rulesVersion: '1.0.0',
  players: { min: MIN_PLAYERS, max: MAX_PLAYERS },
  traits: { hiddenInformation: true, simultaneous: true, realTime: false },
  optionsSchema,
  commandSchema,
  eventSchema,
  edition,
  validateSetup,
  initialState,
  setup: (state: State, ctx: { chance: Chance }) => [...deal({ state, events: [] }, ctx.chance).events],
  decide,
  evolve,
  view,
  redact,
  pending,
  legalCommands,
  result,
};
