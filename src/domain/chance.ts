// Chance sources. Every random outcome is drawn in `decide`/`setup` through a Chance
// and written into the events, so replay folds events and never draws again.
// - server: a PRNG whose stream is derived from (game seed, game version), so the
//   same seed and the same commands give the same game.
// - supplied: a referee hands in the outcomes (physical games, exact rulebook tests).
import { hash } from 'node:crypto';

/** What a table's chance produces, in the words a referee reads: `die`, `card`,
 * `chip`, … Every game names the kind of each roll and draw (its docs list them);
 * only tests that use a Chance as a plain random source leave it out. */
export type ChanceKind = string;

/** What chance must supply next: `count` outcomes of `kind`, each one of `values`
 * (for a draw: the items still in the pool, each once). */
export interface ChanceNeed {
  readonly kind: ChanceKind;
  readonly count: number;
  readonly values: readonly unknown[];
}

/** A need as a viewer sees it: without the values to those who may not see them. */
export type ShownNeed = Omit<ChanceNeed, 'values'> & { readonly values?: readonly unknown[] };

export interface Chance {
  /** `count` independent uniform picks from `faces`, e.g. dice. */
  roll<T>(faces: readonly T[], count: number, kind?: ChanceKind): T[];
  /** `count` distinct items drawn uniformly from `pool`, in the order drawn.
   * `draw(pool, pool.length)` is a shuffle. Prefer drawing at the moment a card is
   * revealed over shuffling up front: a referee then supplies only what is seen. */
  draw<T>(pool: readonly T[], count: number, kind?: ChanceKind): T[];
  /** An unguessable 128-bit hex string, e.g. the salt of a commitment. */
  secret(): string;
}

/** Why a referee's supplied outcomes do not fit a command. */
export const chanceCodes = ['chance/outcome-missing', 'chance/outcome-invalid', 'chance/outcome-unused'] as const;

/** Thrown by a supplied chance source when the referee's outcomes do not fit. */
export class SuppliedChanceError extends Error {
  constructor(
    readonly code: (typeof chanceCodes)[number],
    message: string,
    /** With outcome-missing and outcome-invalid: what the draw needs. */
    readonly need: ChanceNeed | null = null,
    /** Which outcome (0-based) was missing or invalid. */
    readonly position = 0,
  ) {
    super(message);
    this.name = 'SuppliedChanceError';
  }
}

/** sfc32: small, fast, and good enough for games; seeded from SHA-256. */
class Sfc32 {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  constructor(key: string) {
    // One-shot hashing: createHash's stream object cost more than the hash itself.
    const h = hash('sha256', key, 'buffer');
    this.a = h.readUInt32LE(0);
    this.b = h.readUInt32LE(4);
    this.c = h.readUInt32LE(8);
    this.d = h.readUInt32LE(12);
    for (let i = 0; i < 12; i++) this.next();
  }
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }
  /** Uniform integer in [0, n) without modulo bias. */
  below(n: number): number {
    if (!Number.isInteger(n) || n <= 0 || n > 2 ** 32) throw new RangeError(`below(${n})`);
    const limit = 2 ** 32 - (2 ** 32 % n);
    for (;;) {
      const x = this.next();
      if (x < limit) return x % n;
    }
  }
  /** 128 bits as 32 hex digits. */
  hex128(): string {
    return Array.from({ length: 4 }, () => this.next().toString(16).padStart(8, '0')).join('');
  }
}

/** A server chance source for one command: the stream is keyed by (seed, version).
 * One is built for every command, and most draw nothing, so the stream is seeded (a
 * SHA-256, once a fifth of a bot game's time) only when the first value is picked: a
 * roll or draw of none seeds nothing, and callers need not avoid it. A class rather
 * than an object of closures, for the same reason. */
class ServerChance implements Chance {
  private stream: Sfc32 | undefined;
  constructor(
    private readonly seed: string,
    private readonly version: number | string,
  ) {}
  private get rng(): Sfc32 {
    return (this.stream ??= new Sfc32(`${this.seed}:${this.version}`));
  }
  roll<T>(faces: readonly T[], count: number): T[] {
    if (faces.length === 0) throw new RangeError('roll from no faces');
    // Exactly `count` long: events keep these lists for the whole game, and a list grown
    // by push carries spare room.
    const rolled = new Array<T>(count);
    for (let i = 0; i < count; i++) rolled[i] = faces[this.rng.below(faces.length)]!;
    return rolled;
  }
  draw<T>(pool: readonly T[], count: number): T[] {
    if (count > pool.length) throw new RangeError(`draw ${count} from ${pool.length}`);
    const rest = pool.slice();
    const drawn = new Array<T>(count);
    for (let i = 0; i < count; i++) {
      const k = this.rng.below(rest.length);
      drawn[i] = rest[k]!;
      // The rest keeps its order, which the next draw's index refers to.
      rest.copyWithin(k, k + 1);
      rest.length--;
    }
    return drawn;
  }
  secret(): string {
    return this.rng.hex128();
  }
}

export function serverChance(seed: string, version: number | string): Chance {
  return new ServerChance(seed, version);
}

const sameValue = (a: unknown, b: unknown): boolean =>
  a === b || JSON.stringify(a) === JSON.stringify(b);

/** A chance source that hands out the referee's outcomes in order. Each roll or draw
 * consumes one supplied value per die or card; a value must be one of the faces (or
 * one of the items still in the pool). Secrets are not the referee's business: they
 * come from `secretSeed`. Call `assertAllUsed()` after the command. */
/** Each value once, in the pool's order: what a draw may still give. */
const distinct = (items: readonly unknown[]): unknown[] =>
  items.filter((item, i) => items.findIndex((other) => sameValue(other, item)) === i);

export function suppliedChance(
  outcomes: readonly unknown[],
  secretSeed: string,
): Chance & { assertAllUsed(): void; readonly used: number } {
  let next = 0;
  const rng = new Sfc32(`secret:${secretSeed}`);
  const take = (need: () => ChanceNeed): unknown => {
    if (next >= outcomes.length) {
      const missing = need();
      throw new SuppliedChanceError(
        'chance/outcome-missing',
        `the supplied outcomes ran out at #${next + 1}: ${missing.count} more ${missing.kind} outcome(s) needed`,
        missing,
        next,
      );
    }
    return outcomes[next++];
  };
  return {
    get used() {
      return next;
    },
    roll: (faces, count, kind = 'outcome') =>
      Array.from({ length: count }, (_, i) => {
        const need = (): ChanceNeed => ({ kind, count: count - i, values: [...faces] });
        const value = take(need);
        const face = faces.find((f) => sameValue(f, value));
        if (face === undefined) {
          throw new SuppliedChanceError(
            'chance/outcome-invalid',
            `outcome #${next} (${JSON.stringify(value)}) is not one of ${JSON.stringify(faces)}`,
            need(),
            next - 1,
          );
        }
        return face;
      }),
    draw: (pool, count, kind = 'outcome') => {
      const rest = [...pool];
      return Array.from({ length: count }, (_, i) => {
        const need = (): ChanceNeed => ({ kind, count: count - i, values: distinct(rest) });
        const value = take(need);
        const at = rest.findIndex((item) => sameValue(item, value));
        if (at < 0) {
          throw new SuppliedChanceError(
            'chance/outcome-invalid',
            `outcome #${next} (${JSON.stringify(value)}) is not among the ${kind} outcomes left to draw`,
            need(),
            next - 1,
          );
        }
        return rest.splice(at, 1)[0]!;
      });
    },
    secret: () => rng.hex128(),
    assertAllUsed: () => {
      if (next < outcomes.length) {
        throw new SuppliedChanceError(
          'chance/outcome-unused',
          `${outcomes.length - next} supplied outcome(s) were not needed by this command`,
        );
      }
    },
  };
}
