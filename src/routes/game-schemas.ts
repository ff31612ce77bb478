// Each game's part of the API documents: its commands, events, options, views and
// edition data as named components, and the per-game variants of every answer that
// carries them, so a generated client knows a game's view from its type. Everything
// comes from the game modules' own zod schemas.
import { z } from 'zod';
import { serverChance } from '../domain/chance.ts';
import type { AnyGame } from '../domain/games.ts';
import { games } from '../domain/games.ts';

export const pascal = (type: string) => type.replace(/(^|-)(\w)/g, (_, __, c: string) => c.toUpperCase());

/** Names a schema as a component, keeping its description; a schema that already has
 * a name (several viewer kinds sharing one) keeps the first. */
export const named = <T extends z.ZodType>(schema: T, id: string): T => {
  const meta = z.globalRegistry.get(schema);
  if (meta?.id === undefined) z.globalRegistry.add(schema, { ...meta, id });
  return schema;
};

type ViewerKind = keyof AnyGame['viewSchemas'];
const viewerKinds: readonly ViewerKind[] = ['seat', 'spectator', 'all'];

export interface GameSchemas {
  readonly game: AnyGame;
  /** The component prefix, e.g. FackelUndKeule. */
  readonly name: string;
  readonly type: z.ZodLiteral<string>;
  /** What a seat (or the referee for a seat) may send: the game's commands but the server's own. */
  readonly command: z.ZodType;
  readonly event: z.ZodType;
  /** The options a new game takes (defaults fill the gaps). */
  readonly options: z.ZodType;
  /** The options as a game holds them: games stored before an option existed lack it. */
  readonly storedOptions: z.ZodType;
  /** Any viewer's view. */
  readonly view: z.ZodType;
  /** The view with everything revealed (replays). */
  readonly allView: z.ZodType;
  readonly edition: z.ZodType;
  /** What a new game of this type with the fewest seats lets its first seat send. */
  readonly exampleCommand: unknown;
  /** A table of the fewest seats, the last one open for someone to join. */
  readonly exampleSeats: readonly { readonly name?: string; readonly open?: boolean }[];
}

const names = ['Umberto', 'Thea', 'Kelly', 'Ada', 'Ben', 'Cleo', 'Dan', 'Eva'];

function exampleCommand(game: AnyGame): unknown {
  const setup = { seats: game.players.min, options: game.optionsSchema.parse({}) };
  const start = game.initialState(setup);
  const state = game.setup(start, { now: 0, chance: serverChance('example', 0) }).reduce((s, e) => game.evolve(s, e), start);
  const seat = game.pending(state).seats[0] ?? 0;
  return game.legalCommands(state, seat)[0];
}

/** `timeout` is the server's own command when a deadline passes (every game's, the turn
 * clock's too): a seat that sends it is refused by the rules (`…/system-only`), so the
 * documents, and the types generated from them, do not offer it to clients. */
const serverCommands = new Set(['timeout']);

function seatCommand(game: AnyGame): z.ZodType {
  // The lifecycle wraps every game's commands in one discriminated union (domain/lifecycle.ts).
  const all = game.commandSchema as unknown as z.ZodDiscriminatedUnion<z.ZodObject[]>;
  const forSeats = all.options.filter((option) => !serverCommands.has((option.shape.type as z.ZodLiteral<string>).value));
  const description = z.globalRegistry.get(game.commandSchema)?.description ?? `${game.title} commands`;
  return z.discriminatedUnion('type', forSeats as [z.ZodObject, ...z.ZodObject[]]).describe(`${description} What a seat may send: the server's own timeout is not among them.`);
}

/** Viewer kinds that share one schema get one component, named after the first. */
function views(game: AnyGame, name: string): { view: z.ZodType; allView: z.ZodType } {
  const distinct = [...new Set(viewerKinds.map((kind) => game.viewSchemas[kind]))];
  if (distinct.length === 1) return { view: named(distinct[0]!, `${name}View`), allView: distinct[0]! };
  for (const kind of viewerKinds) named(game.viewSchemas[kind], `${name}${pascal(kind)}View`);
  const view = z.union(distinct as [z.ZodType, z.ZodType, ...z.ZodType[]]).describe(`A ${game.title} view: its shape depends on who looks (seat, spectator, or everything revealed)`);
  return { view: named(view, `${name}View`), allView: game.viewSchemas.all };
}

function schemasOf(game: AnyGame): GameSchemas {
  const name = pascal(game.type);
  const options = named(game.optionsSchema, `${name}Options`);
  const stored = game.optionsSchema instanceof z.ZodObject ? game.optionsSchema.partial() : game.optionsSchema;
  return {
    game,
    name,
    type: z.literal(game.type),
    command: named(seatCommand(game), `${name}Command`),
    event: named(game.eventSchema, `${name}Event`),
    options,
    storedOptions: named(stored.describe(`${game.title} options as the game holds them: a game created before an option existed lacks it`), `${name}StoredOptions`),
    ...views(game, name),
    edition: named(game.editionSchema, `${name}Edition`),
    exampleCommand: exampleCommand(game),
    exampleSeats: Array.from({ length: game.players.min }, (_, seat) => (seat === game.players.min - 1 ? { open: true } : { name: names[seat]! })),
  };
}

export const gameSchemas: readonly GameSchemas[] = games.map(schemasOf);

/** One named variant per game (`${Game}${name}`), told apart by `discriminator`; their
 * union is named `name`. */
export function perGame<K extends string>(
  name: string,
  discriminator: K,
  shape: (g: GameSchemas) => z.ZodRawShape,
  description: string,
  example?: (g: GameSchemas) => Record<string, unknown>,
  /** More examples of a variant, if any. */
  more?: (g: GameSchemas) => readonly Record<string, unknown>[],
): { readonly any: z.ZodType; readonly of: (g: GameSchemas) => z.ZodType } {
  const variant = (g: GameSchemas) => {
    const schema = z.object({ [discriminator]: g.type, ...shape(g) }).describe(`${description} (${g.game.title})`);
    const examples = example === undefined ? [] : [example(g), ...(more?.(g) ?? [])].map((e) => ({ [discriminator]: g.game.type, ...e }));
    return named(examples.length === 0 ? schema : schema.meta({ examples }), `${g.name}${name}`);
  };
  const variants = new Map(gameSchemas.map((g) => [g, variant(g)]));
  const all = [...variants.values()];
  const any = all.length === 1 ? all[0]! : z.discriminatedUnion(discriminator, all as unknown as [z.ZodObject, z.ZodObject, ...z.ZodObject[]]);
  return { any: named(any.describe(description), name), of: (g) => variants.get(g)! };
}
