// Pechvogel as one GameModule object: the facts of the game and its functions.
import type { GameModule } from '../contract.ts';
import { commandSchema, type PechvogelCommand } from './commands.ts';
import { decide } from './decide.ts';
import { edition } from './edition.ts';
import { eventSchema, type PechvogelEvent } from './events.ts';
import { evolve } from './evolve.ts';
import { legalCommands, pending } from './legal.ts';
import { optionsSchema, PLAYERS, untimedOptions, validateSetup, type Options } from './options.ts';
import { result } from './scoring.ts';
import { initialState, type State } from './state.ts';
import { redact, view, type PechvogelView } from './view.ts';
import { editionSchema, viewSchemas } from './view-schema.ts';
import { CODES } from './codes.ts';

export type { Options, State, PechvogelCommand, PechvogelEvent, PechvogelView };

export const pechvogel: GameModule<Options, State, PechvogelCommand, PechvogelEvent, PechvogelView> = {
  type: 'pechvogel',
  title: 'Pechvogel',
  // 2: lifecycle.ts wraps the state: resign, abort, expiry (and the turn clock).
  rulesVersion: '2',
  players: PLAYERS,
  traits: { hiddenInformation: false, simultaneous: true, realTime: false },
  optionsSchema,
  untimedOptions,
  commandSchema,
  eventSchema,
  edition,
  editionSchema,
  codes: Object.values(CODES),
  viewSchemas,
  validateSetup,
  initialState,
  setup: (state) => [{ type: 'TurnStarted', seat: state.options.firstSeat }],
  decide,
  evolve,
  view,
  redact,
  pending,
  legalCommands,
  result,
};
