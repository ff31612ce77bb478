// What a game gives the platform so that a supplied-chance game can start from a
// described position (a table already in play, a puzzle, a test): its schema, the
// rules' invariants, and the state it stands for. See positions.ts and docs/referee.md.
import type { z } from 'zod';
import type { Setup, Viewer } from './contract.ts';

export const positionCodes = {
  /** The position does not have the game's shape (a field missing, an unknown card). */
  invalid: 'position/invalid',
  /** A component is not accounted for exactly once: missing, twice, or foreign. */
  componentsMismatch: 'position/components-mismatch',
  /** A count is outside what the box holds or the rules allow. */
  outOfRange: 'position/out-of-range',
  /** The position is not one the rules let a game rest in (e.g. a game already over). */
  illegalPhase: 'position/illegal-phase',
  /** A position is allowed only in supplied-chance games. */
  notAllowed: 'position/not-allowed',
} as const;

/** One thing that does not add up, with the component it is about. */
export interface PositionProblem {
  readonly code: (typeof positionCodes)[keyof typeof positionCodes];
  /** The component or field, e.g. `card:s-pig-3`, `marker:5`, `winnings[2]`, `turn`. */
  readonly component: string;
  readonly message: string;
  /** How many the box has (or the rules allow), and how many the position has. */
  readonly expected?: number;
  readonly found?: number;
}

export interface PositionRules<O, S, P> {
  readonly schema: z.ZodType<P>;
  /** A valid position for `seats` seats, for the docs and the OpenAPI document. */
  readonly example: P;
  readonly exampleSeats: number;
  /** Everything that does not add up; empty when the position is good. */
  check(position: P, setup: Setup<O>): PositionProblem[];
  /** The state the (checked) position stands for, entered at `at`. */
  state(initial: S, position: P, at: number): S;
  /** The position as `viewer` may see it (hidden hands and chips removed). */
  redact(position: P, viewer: Viewer): P;
}

/** Hands as `viewer` may see them: a seat its own, everyone how many each holds. */
export function shownHands<H extends readonly unknown[]>(hands: readonly (H | null)[], viewer: Viewer): { hands: (H | null)[]; handSizes: number[] } {
  return {
    hands: hands.map((h, s) => (viewer.kind === 'all' || (viewer.kind === 'seat' && viewer.seat === s) ? h : null)),
    handSizes: hands.map((h) => h?.length ?? 0),
  };
}

/** Counts each item of `found` against the box's `expected` (each exactly as often),
 * as problems naming `prefix:<item>`. */
export function countComponents<T extends string | number>(prefix: string, expected: readonly T[], found: readonly T[]): PositionProblem[] {
  const tally = new Map<T, { expected: number; found: number }>();
  for (const item of expected) tally.set(item, { expected: (tally.get(item)?.expected ?? 0) + 1, found: 0 });
  for (const item of found) {
    const entry = tally.get(item) ?? { expected: 0, found: 0 };
    tally.set(item, { ...entry, found: entry.found + 1 });
  }
  return [...tally.entries()].flatMap(([item, { expected: e, found: f }]) =>
    e === f
      ? []
      : [{ code: positionCodes.componentsMismatch, component: `${prefix}:${item}`, message: `${prefix} ${item}: the box has ${e}, the position has ${f}`, expected: e, found: f }],
  );
}
