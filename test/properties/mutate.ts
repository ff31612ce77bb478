// Candidate commands that legalCommands did not offer: legal commands with another
// parameter, another type (every discriminator value of commandSchema), parameters
// borrowed from other types, or garbage fields. The values come from the JSON Schema
// of commandSchema, so a new command or parameter is mutated without touching this file.
import { z } from 'zod';
import type { Chance } from '../../src/domain/chance.ts';
import type { AnyGame } from '../../src/domain/games.ts';
import { below } from './harness.ts';

type Json = Record<string, unknown>;

/** Numbers around every seat, die face, card number and count these games use. */
const NUMBERS = [-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 33, 46, 47, 99, 1.5];

const valuesOf = (schema: Json): unknown[] => {
  if ('const' in schema) return [schema.const];
  if (Array.isArray(schema.enum)) return schema.enum;
  const alternatives = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (alternatives) return alternatives.flatMap(valuesOf);
  switch (schema.type) {
    case 'null':
      return [null];
    case 'boolean':
      return [true, false];
    case 'integer':
    case 'number':
      return NUMBERS;
    case 'string':
      return ['', 'garbage'];
    case 'array': {
      const items = valuesOf((schema.items ?? {}) as Json);
      return [[], ...items.map((v) => [v]), items.slice(0, 2), [items[0], items[0]]];
    }
    default:
      return [null, 'garbage', 1];
  }
};

export interface CommandShapes {
  readonly types: readonly string[];
  /** Per command type, per parameter: values to try. */
  readonly fields: Readonly<Record<string, Readonly<Record<string, readonly unknown[]>>>>;
}

export function shapesOf(game: AnyGame): CommandShapes {
  const root = z.toJSONSchema(game.commandSchema, { io: 'input' }) as Json;
  const options = (root.oneOf ?? root.anyOf) as Json[];
  const fields: Record<string, Record<string, unknown[]>> = {};
  for (const option of options) {
    const properties = option.properties as Record<string, Json>;
    const type = properties.type!.const as string;
    fields[type] = Object.fromEntries(
      Object.entries(properties)
        .filter(([name]) => name !== 'type')
        .map(([name, schema]) => [name, valuesOf(schema)]),
    );
  }
  return { types: Object.keys(fields), fields };
}

const pick = <T>(rng: Chance, items: readonly T[]): T => items[below(rng, items.length)]!;

/** An array parameter changed the ways a client might get it wrong. */
const mutateArray = (rng: Chance, value: readonly unknown[], pool: readonly unknown[]): unknown[] => {
  const items = pool.flatMap((v) => (Array.isArray(v) ? v : [v]));
  const other = items.length > 0 ? pick(rng, items) : 1;
  switch (below(rng, 5)) {
    case 0:
      return value.slice(1);
    case 1:
      return [...value, other];
    case 2:
      return value.length > 0 ? [...value, value[0]] : [other, other];
    case 3:
      return value.length > 0 ? [...value.slice(0, -1), other] : [];
    default:
      return [...value, below(rng, 60)];
  }
};

/** One candidate: a legal command (or a bare type) with up to two changes. */
export function mutate(rng: Chance, shapes: CommandShapes, legal: readonly Json[]): Json {
  const fromLegal = legal.length > 0 && below(rng, 4) > 0;
  let command: Json = fromLegal ? { ...pick(rng, legal) } : { type: pick(rng, shapes.types) };
  const changes = 1 + below(rng, 2);
  for (let i = 0; i < changes; i++) {
    const type = command.type as string;
    const own = Object.keys(shapes.fields[type] ?? {});
    switch (below(rng, 5)) {
      case 0: {
        // Another type, keeping the parameters: they may or may not fit it.
        command = { ...command, type: pick(rng, shapes.types) };
        break;
      }
      case 1: {
        command = { ...command, garbage: pick(rng, NUMBERS) };
        break;
      }
      default: {
        const everyField = Object.values(shapes.fields).flatMap((f) => Object.keys(f));
        const name = own.length > 0 && below(rng, 4) > 0 ? pick(rng, own) : pick(rng, everyField.length > 0 ? everyField : ['x']);
        const pool = shapes.fields[type]?.[name] ?? Object.values(shapes.fields).find((f) => name in f)?.[name] ?? NUMBERS;
        const current = command[name];
        command = {
          ...command,
          [name]: Array.isArray(current) && below(rng, 3) > 0 ? mutateArray(rng, current, pool) : pick(rng, pool),
        };
      }
    }
  }
  return command;
}
