// Races: commands the rules decide by the order the server receives them, so that a
// dispute can be settled afterwards from the game's race log (docs/realtime.md). Each
// game with races names its race commands and says which events record an accepted
// one; refused ones are kept by the platform (src/events/race-refusals.ts).
import type { Command } from './contract.ts';
import type { RaceRules } from './race-rules.ts';
import { pechvogelRaces } from './pechvogel/race.ts';
import { porcaMiseriaRaces } from './porca-miseria/race.ts';

const byType = new Map<string, RaceRules>([
  ['porca-miseria', porcaMiseriaRaces],
  ['pechvogel', pechvogelRaces],
]);

/** The race rules of a game type; null for games without races. */
export const racesOf = (type: string): RaceRules | null => byType.get(type) ?? null;

export const isRaceCommand = (type: string, command: Command): boolean => racesOf(type)?.commands.includes(command.type) ?? false;
