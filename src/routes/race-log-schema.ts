// The race log's shape (GET /games/{id}/race-log and the replay's `raceLog`).
import { z } from 'zod';

export const RaceEntry = z
  .object({
    seat: z.int().min(0).describe('The seat the command was sent for'),
    actor: z.string().describe('Who sent it: seat:N, referee:seat:N or bot:seat:N'),
    command: z.object({ type: z.string() }).loose().describe("The command as the game's schema read it"),
    receivedAt: z.int().describe('Server clock when it was decided (ms since epoch); the order decides, equal times are kept in decision order'),
    outcome: z.enum(['accepted', 'refused']),
    version: z.int().min(0).describe('The version it was decided on: it arrived after event `version` (and, when refused, before the command accepted on that version)'),
    seq: z.int().min(1).nullable().describe('Accepted: its first event'),
    code: z.string().nullable().describe("Refused: the refusal's stable code, e.g. porca-miseria/target-taken"),
  })
  .describe('A race command (Porca Miseria grab and slap, Pechvogel frustrate and reduce), in the order the server decided it')
  .meta({ id: 'RaceEntry' });

export const RaceLog = z
  .object({
    gameType: z.string(),
    version: z.int().min(0).describe('The game version the log goes up to'),
    entries: z.array(RaceEntry),
  })
  .describe("Every race command the game received, accepted or refused, in decision order; empty for games without races")
  .meta({ id: 'RaceLog' });
