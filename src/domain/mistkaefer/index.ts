// Mistkäfer as a game module for the platform.
import type { GameModule } from '../contract.ts';
import { violation } from '../contract.ts';
import { codes } from './codes.ts';
import type { Command } from './commands.ts';
import { commandSchema } from './commands.ts';
import { decide } from './decide.ts';
import { edition } from './edition.ts';
import type { Event } from './events.ts';
import { eventSchema } from './events.ts';
import { evolve } from './evolve.ts';
import { legalCommands, pending } from './legal.ts';
import { result } from './result.ts';
import type { Options } from './options.ts';
import { optionsSchema } from './options.ts';
import type { State } from './state.ts';
import { componentsFor, initialState } from './state.ts';
import type { View } from './view.ts';
import { redact, view } from './view.ts';
import { editionSchema, viewSchemas } from './view-schema.ts';

export const mistkaefer: GameModule<Options, State, Command, Event, View> = {
  type: 'mistkaefer',
  title: 'Mistkäfer',
  // 2: a chip gain stops drawing at the chip that wins (docs, interpretation 12).
  // 3: lifecycle.ts wraps the state: resign, abort, expiry (and the turn clock).
  rulesVersion: '3',
  players: { min: 2, max: 4 },
  traits: { hiddenInformation: true, simultaneous: false, realTime: false },
  optionsSchema,
  // Nothing in Mistkäfer is timed.
  untimedOptions: {},
  commandSchema,
  eventSchema,
  edition,
  editionSchema,
  codes: Object.values(codes),
  viewSchemas,
  validateSetup: ({ seats }) =>
    seats >= 2 && seats <= 4 ? null : violation(codes.playerCount, 'Mistkäfer is for 2 to 4 players.'),
  initialState: ({ seats }) => initialState(seats),
  // "The biggest dung beetle begins": the platform's seat 0.
  setup: (state) => [{ type: 'GameStarted', seats: state.seats, ...componentsFor(state.seats), firstSeat: 0 }],
  decide,
  evolve,
  view,
  redact: (event, viewer) => redact(event, viewer),
  pending,
  legalCommands,
  result,
};

export type { Command, Event, Options, State, View };
