// The `position` field of a new game (supplied-chance games started from a described
// position, src/domain/positions.ts), per game type, with an example for each.
import { z } from 'zod';
import { positionRulesOf } from '../domain/positions.ts';
import { named, pascal } from './game-schemas.ts';

/** The field for games that take a position; nothing for the others. */
export function positionField(type: string): z.ZodRawShape {
  const rules = positionRulesOf(type);
  if (rules === null) return {};
  const schema = named(rules.schema as z.ZodType, `${pascal(type)}Position`);
  return {
    position: schema
      .optional()
      .describe('Start from this position instead of a deal (chance "supplied" only): the table already in play. Checked against the rules: every component exactly once, counts within the box, a phase the game can rest in; problems are named in `problems` (position/*)'),
  };
}

/** A supplied-chance game started from the game's example position. */
export function positionExample(type: string): Record<string, unknown>[] {
  const rules = positionRulesOf(type);
  if (rules === null) return [];
  const names = ['Umberto', 'Thea', 'Kelly', 'Ada', 'Ben', 'Cleo'];
  return [{ chance: 'supplied', seats: names.slice(0, rules.exampleSeats).map((name) => ({ name })), position: rules.example }];
}
