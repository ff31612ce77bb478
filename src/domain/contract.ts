// The game-module contract: what every game (Pechvogel, Fackel+Keule, Mistkäfer,
// Porca Miseria) gives the platform. A game is a Decider: `decide` checks a command
// against the state and answers with events (or a violation), `evolve` folds one
// event into the state. Everything here is pure: no I/O, no clock, no Math.random.
// Time arrives as `ctx.now`; chance arrives through `ctx.chance` and is written into
// the events, so folding the recorded events never needs either.
import type { z } from 'zod';
import type { Chance, ShownNeed } from './chance.ts';

/** Seats are numbered 0..n-1 in clockwise order. */
export type Seat = number;

/** Who issues a command. A referee acting for a seat is a `seat` actor here; the
 * event store records who really sent it. */
export type Actor =
  | { readonly kind: 'seat'; readonly seat: Seat }
  /** The server itself, e.g. the scheduler when a deadline passes. */
  | { readonly kind: 'system' }
  /** Chance as a party: the referee of a supplied-chance game supplying what the
   * rules wait for (see chance-party.ts). Only the chance party handles it. */
  | { readonly kind: 'chance' };

/** Who looks at the game. `all` sees everything (replay of a finished game). */
export type Viewer =
  | { readonly kind: 'seat'; readonly seat: Seat }
  | { readonly kind: 'spectator' }
  | { readonly kind: 'all' };

/** The same string for viewers who see the same. */
export const eyesKey = (viewer: Viewer): string => (viewer.kind === 'seat' ? `seat:${viewer.seat}` : viewer.kind);

export interface RuleViolation {
  /** Stable and namespaced, e.g. `pechvogel/not-your-turn`. Clients switch on it. */
  readonly code: string;
  /** For humans; may change between releases. */
  readonly message: string;
}

export const violation = (code: string, message: string): RuleViolation => ({ code, message });

export const isViolation = <E>(x: readonly E[] | RuleViolation): x is RuleViolation =>
  !Array.isArray(x);

/** Everything `decide` and `setup` may use besides the state and the command. */
export interface DecideContext {
  readonly actor: Actor;
  /** Milliseconds since the epoch, from the server's clock (or a test's). */
  readonly now: number;
  readonly chance: Chance;
}

export interface SetupContext {
  readonly now: number;
  readonly chance: Chance;
}

/** Who may act now. Several seats may act at once (simultaneous choices, reaction
 * windows, races). When `deadline` is set the platform sends the system command
 * `{ type: 'timeout' }` once `now >= deadline`; `decide` must accept it then. */
export interface Pending {
  readonly seats: readonly Seat[];
  readonly deadline?: number;
  /** Set while the game waits for chance (supplied-chance games): what it must supply
   * next. Nobody else acts then and no deadline runs. */
  readonly chance?: ShownNeed;
}

export interface GameResult {
  /** Final score per seat, index = seat. */
  readonly scores: readonly number[];
  /** 1 = best; tied seats share a rank. Index = seat. */
  readonly ranks: readonly number[];
  /** Seats with rank 1. */
  readonly winners: readonly Seat[];
  /** Seats that resigned or lost on time (they rank last); absent when nobody did. */
  readonly resigned?: readonly Seat[];
  /** How each seat's score came about, as its rulebook counts it; index = seat. A
   * seat's parts' points sum to its score. Absent where the rules did not score the
   * game (a resignation, an organizer's result). */
  readonly breakdown?: readonly (readonly ScorePart[])[];
}

/** One line of a seat's score: `count` pieces of a kind (a score marker, a prey chip)
 * or a bonus without a count, and the points it brings (0 for pieces that only count
 * towards a goal, as Mistkäfer's chips do). */
export interface ScorePart {
  readonly label: string;
  readonly count?: number;
  readonly points: number;
}

export interface Setup<O> {
  readonly options: O;
  readonly seats: number;
}

/** The shape every command union member has. Game commands never carry chance
 * outcomes themselves: in `supplied` chance mode the platform passes the referee's
 * outcomes in through `ctx.chance`. */
export interface Command {
  readonly type: string;
}
export interface GameEvent {
  readonly type: string;
}

export interface GameModule<
  O = unknown,
  S = unknown,
  C extends Command = Command,
  E extends GameEvent = GameEvent,
  V = unknown,
> {
  /** URL-safe id, e.g. `pechvogel`, `fackel-und-keule`. */
  readonly type: string;
  readonly title: string;
  /** Bumped whenever a rule interpretation changes; recorded with every game. It also
   * keys the platform's persisted state snapshots: bump it whenever `evolve` or the
   * shape of the state changes, so that no state folded by other code is read back. */
  readonly rulesVersion: string;
  readonly players: { readonly min: number; readonly max: number };
  /** Facts a client or the catalog may show. */
  readonly traits: {
    /** false: every seat and every spectator get the same view and the same redacted
     * events (only `all` may see more), which lets the platform build them once. */
    readonly hiddenInformation: boolean;
    readonly simultaneous: boolean;
    readonly realTime: boolean;
  };
  /** zod schemas: validation at the boundary and the source of OpenAPI. Options
   * have defaults, so `optionsSchema.parse({})` is valid. */
  readonly optionsSchema: z.ZodType<O>;
  /** The options that switch every deadline off. A supplied-chance game (a table the
   * referee records) starts from them, so nothing times out while the table plays and
   * the referee types; options the referee sends override them. */
  readonly untimedOptions: Partial<O>;
  readonly commandSchema: z.ZodType<C>;
  readonly eventSchema: z.ZodType<E>;
  /** The shape of `view` for each kind of viewer (strict: a view has no other field). */
  readonly viewSchemas: { readonly seat: z.ZodType<V>; readonly spectator: z.ZodType<V>; readonly all: z.ZodType<V> };
  /** This project's edition data (components the rulebook does not list), as JSON. */
  readonly edition: unknown;
  readonly editionSchema: z.ZodType;
  /** Every rule-violation code `decide` and `validateSetup` may answer with. */
  readonly codes: readonly string[];

  /** Checked before a game is created; e.g. player count against an option. */
  validateSetup?(setup: Setup<O>): RuleViolation | null;
  /** States are plain JSON data (the platform saves snapshots of them as JSON). */
  initialState(setup: Setup<O>): S;
  /** The opening events (deals, shuffles, the first deadline) once all seats sit. */
  setup(state: S, ctx: SetupContext): E[];
  decide(state: S, command: C, ctx: DecideContext): E[] | RuleViolation;
  /** Pure and total; never draws chance, never reads the clock. */
  evolve(state: S, event: E): S;

  view(state: S, viewer: Viewer): V;
  /** The event as `viewer` may see it. `before` is the state the event applies to. */
  redact(event: E, viewer: Viewer, before: S): E;
  pending(state: S): Pending;
  /** Every command `seat` may send now, without chance outcomes. Commands whose
   * parameters are continuous or huge may be listed by a representative form; say so
   * in the game's docs. */
  legalCommands(state: S, seat: Seat): C[];
  result(state: S): GameResult | null;
  /** Why the game ended outside its rules (resigned, aborted, expired); null while it
   * runs or when its rules ended it. Over = a result or an ending. Given to every game
   * by `withLifecycle` (lifecycle.ts). */
  ending?(state: S): { readonly kind: string } | null;
}

/** The game is over: its rules' result, or an ending (resignation, abort, expiry). */
export const isOver = <S>(game: GameModule<unknown, S>, state: S): boolean => game.result(state) !== null || (game.ending?.(state) ?? null) !== null;

/** Folds events onto the initial state. */
export function fold<O, S, C extends Command, E extends GameEvent>(
  game: GameModule<O, S, C, E>,
  setup: Setup<O>,
  events: readonly E[],
): S {
  return events.reduce((state, event) => game.evolve(state, event), game.initialState(setup));
}

/** Ranks seats by score, higher is better, ties share a rank. */
export function rankByScore(scores: readonly number[]): GameResult {
  const ranks = scores.map((s) => 1 + scores.filter((t) => t > s).length);
  return { scores, ranks, winners: ranks.flatMap((r, seat) => (r === 1 ? [seat] : [])) };
}

/** The score a seat's parts add up to. */
export const scoreOf = (parts: readonly ScorePart[]): number => parts.reduce((sum, part) => sum + part.points, 0);

/** Ranks seats by the sum of their score's parts, and keeps the parts as the breakdown. */
export const rankByParts = (breakdown: readonly (readonly ScorePart[])[]): GameResult => ({ ...rankByScore(breakdown.map(scoreOf)), breakdown });
