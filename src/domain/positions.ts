// Games that start from a described position: the position is the game's first event
// (`PositionSet`), so views, the log, the replay and every check fold it like any
// other. Only supplied-chance games take one (src/commands/game-setup.ts).
import { z } from 'zod';
import type { Command, GameEvent, GameModule, Setup } from './contract.ts';
import { positionCodes, type PositionProblem, type PositionRules } from './position-rules.ts';
import { fackelUndKeulePosition } from './fackel-und-keule/position.ts';
import { mistkaeferPosition } from './mistkaefer/position.ts';
import { pechvogelPosition } from './pechvogel/position.ts';
import { porcaMiseriaPosition } from './porca-miseria/position.ts';

export interface PositionSet {
  readonly type: 'PositionSet';
  readonly position: unknown;
  /** When the position was entered (ms since epoch). */
  readonly at: number;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const byType = new Map<string, PositionRules<any, any, any>>([
  ['pechvogel', pechvogelPosition],
  ['fackel-und-keule', fackelUndKeulePosition],
  ['mistkaefer', mistkaeferPosition],
  ['porca-miseria', porcaMiseriaPosition],
]);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const positionRulesOf = (type: string): PositionRules<any, any, any> | null => byType.get(type) ?? null;

/** The opening event for `position`, or every problem it has. */
export function positionEvent(type: string, setup: Setup<unknown>, position: unknown, at: number): { event: PositionSet } | { problems: PositionProblem[] } {
  const rules = positionRulesOf(type);
  if (rules === null) return { problems: [{ code: positionCodes.notAllowed, component: 'position', message: `${type} games do not start from a position` }] };
  const parsed = rules.schema.safeParse(position);
  if (!parsed.success) {
    return { problems: parsed.error.issues.map((i) => ({ code: positionCodes.invalid, component: i.path.join('.') || 'position', message: i.message })) };
  }
  const problems = rules.check(parsed.data, setup);
  return problems.length > 0 ? { problems } : { event: { type: 'PositionSet', position: parsed.data, at } };
}

/** `game` folding a PositionSet into the state it stands for. */
export function withPositions<O, S, C extends Command, E extends GameEvent, V>(game: GameModule<O, S, C, E, V>): GameModule<O, S, C, E | PositionSet, V> {
  const rules = positionRulesOf(game.type) as PositionRules<O, S, unknown> | null;
  if (rules === null) return game as GameModule<O, S, C, E | PositionSet, V>;
  const event = z
    .object({ type: z.literal('PositionSet'), position: rules.schema, at: z.int().describe('When the position was entered (ms since epoch)') })
    .describe("The game's first event when it starts from a described position (a supplied-chance game's table already in play)");
  const isPosition = (e: GameEvent): e is PositionSet => e.type === 'PositionSet';
  return {
    ...game,
    eventSchema: z.union([game.eventSchema, event]) as unknown as z.ZodType<E | PositionSet>,
    evolve: (state, e) => (isPosition(e) ? rules.state(state, e.position, e.at) : game.evolve(state, e as E)),
    redact: (e, viewer, before) => (isPosition(e) ? { ...e, position: rules.redact(e.position, viewer) } : game.redact(e as E, viewer, before)),
  };
}
