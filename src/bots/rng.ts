// The bots' own seeded randomness. The game's chance stays with serverChance (keyed by
// the game version, as the platform does); bots and the runner's race order draw from
// this separate stream so a bot's choices never shift the dice.

export interface Rng {
  /** Uniform integer in [0, n). */
  below(n: number): number;
}

/** FNV-1a: turns a seed string into a 32-bit start value; no crypto needed for bots. */
const hash = (text: string): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
};

/** mulberry32: tiny and fast; `below` uses floor(x·n), a bias of at most n/2^32. */
export function seededRng(seed: string): Rng {
  let a = hash(seed);
  const next = (): number => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  return { below: (n) => Math.floor(next() * n) };
}

export const pick = <T>(rng: Rng, items: readonly T[]): T => {
  if (items.length === 0) throw new RangeError('pick from nothing');
  return items[rng.below(items.length)]!;
};

export const shuffle = <T>(rng: Rng, items: readonly T[]): T[] => {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};

/** The items with the highest score; ties are broken by the rng so bots do not favour
 * whatever the game happens to list first. */
export function best<T>(rng: Rng, items: readonly T[], score: (item: T) => number): T {
  let top: T[] = [];
  let topScore = -Infinity;
  for (const item of items) {
    const s = score(item);
    if (s > topScore) [top, topScore] = [[item], s];
    else if (s === topScore) top.push(item);
  }
  return pick(rng, top);
}
