// Porca Miseria: a real-time race for target cards and a stack of hands.
import type { GameModule } from '../contract.ts';
import { violation } from '../contract.ts';
import { codes } from './codes.ts';
import { commandSchema, type PorcaCommand } from './commands.ts';
import { decide } from './decide.ts';
import { edition } from './edition.ts';
import { eventSchema, type PorcaEvent } from './events.ts';
import { evolve } from './evolve.ts';
import { luckyNumberTable } from './lucky-numbers.ts';
import { optionsSchema, untimedOptions, type Options } from './options.ts';
import { legalCommands, pending, result } from './queries.ts';
import { initialState, type PorcaState } from './state.ts';
import { redact, view, type PorcaView } from './view.ts';
import { editionSchema, viewSchemas } from './view-schema.ts';

export const porcaMiseria: GameModule<Options, PorcaState, PorcaCommand, PorcaEvent, PorcaView> = {
  type: 'porca-miseria',
  title: 'Porca Miseria',
  // 2: the game also ends after `maxActions` revealed cards (docs, rule 20).
  // 3: lifecycle.ts wraps the state: resign, abort, expiry (and the turn clock).
  rulesVersion: '3',
  players: { min: 3, max: 8 },
  traits: { hiddenInformation: false, simultaneous: true, realTime: true },
  optionsSchema,
  untimedOptions,
  commandSchema,
  eventSchema,
  edition,
  editionSchema,
  codes: Object.values(codes),
  viewSchemas,
  validateSetup: ({ seats }) =>
    luckyNumberTable[seats] ? null : violation(codes.playerCount, `Porca Miseria is for 3 to 8 players, not ${seats}`),
  initialState: ({ options, seats }) => initialState(options, seats),
  // Seat 0 is the first starting player: the platform's seating decides who that is.
  setup: (_state, ctx) => [{ type: 'GameStarted', startingSeat: 0, at: ctx.now }],
  decide,
  evolve,
  view,
  redact,
  pending,
  legalCommands,
  result,
};

export { edition };
export type { Options, PorcaCommand, PorcaEvent, PorcaState, PorcaView };
