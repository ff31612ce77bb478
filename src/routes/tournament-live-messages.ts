// The messages of the live tournament feed (/tournaments/{id}/live): the route sends
// these, and the AsyncAPI document (asyncapi/asyncapi.json) is generated from them.
import { z } from 'zod';
import { TournamentEvent } from '../tournaments/log.ts';
import { named } from './game-schemas.ts';

export const TournamentEventsMessage = named(
  z
    .object({
      type: z.literal('events'),
      events: z
        .array(z.object({ seq: z.int().min(1).describe("The event's place in the log, from 1"), event: TournamentEvent }))
        .min(1)
        .describe('The events of one commit (or of the catch-up after `after`), in order and without gaps'),
      version: z.int().min(1).describe('The seq of the last event: reconnect with ?after= this'),
    })
    .describe('The tournament log grew: rounds paired, tables finished (adjudicated, corrected), standings changed, players registered, checked in, absent or withdrawn, the tournament blocked (TournamentBlocked: the round the server cannot pair, why, and what the organizer may do) or finished, …'),
  'TournamentEventsMessage',
);
export type TournamentEventsMessage = z.infer<typeof TournamentEventsMessage>;
