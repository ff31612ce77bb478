// PostgreSQL's text and jsonb cannot hold U+0000: a NUL in any string a client sends
// (a seat name, a seed, a filter, an Idempotency-Key, a command's field) would fail the
// statement. It is refused at the boundary as the client's mistake.
//
// This scan runs before validation, on whatever JSON arrived, so it walks with a stack
// of its own rather than by recursion (10,000 nested arrays overflowed the call stack,
// a 500), and refuses nesting deeper than any request of the API has: what comes after
// it (validation, JSON.stringify, Postgres' jsonb) need not meet such a body at all.
import { ServiceError, serviceCodes } from '../errors.ts';

/** Deeper than any request nests (a described position is the deepest, under ten). */
export const maxDepth = 64;

interface Frame {
  readonly value: unknown;
  readonly key: string;
  readonly parent: Frame | null;
  readonly depth: number;
}

interface Finding {
  readonly problem: 'nul' | 'too-deep';
  /** Where, as keys from the scanned value down (array indices as numbers). */
  readonly keys: readonly string[];
}

/** The first string or object key holding U+0000, or the first value nested deeper
 * than maxDepth, in `value`; null when there is none. */
function scan(value: unknown): Finding | null {
  const stack: Frame[] = [{ value, key: '', parent: null, depth: 0 }];
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const inner = frame.value;
    if (typeof inner === 'string') {
      if (inner.includes('\u0000')) return { problem: 'nul', keys: keysOf(frame) };
      continue;
    }
    if (inner === null || typeof inner !== 'object') continue;
    if (frame.depth >= maxDepth) return { problem: 'too-deep', keys: keysOf(frame) };
    const entries = Object.entries(inner);
    // Pushed last first, so the first member is looked at first, as a reader would.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, member] = entries[i]!;
      if (key.includes('\u0000')) return { problem: 'nul', keys: keysOf(frame) };
      stack.push({ value: member, key, parent: frame, depth: frame.depth + 1 });
    }
  }
  return null;
}

function keysOf(frame: Frame): string[] {
  const keys: string[] = [];
  for (let at: Frame | null = frame; at !== null && at.parent !== null; at = at.parent) keys.push(at.key);
  return keys.reverse();
}

/** Throws `request/invalid` naming where (`body.seats.0.name`) `value` holds a NUL or
 * nests too deeply. */
export function refuseNul(value: unknown, path: string): void {
  const found = scan(value);
  if (found === null) return;
  const at = [path, ...found.keys].join('.');
  throw new ServiceError(serviceCodes.validation, found.problem === 'nul' ? `${at}: a NUL character (U+0000) cannot be stored` : `${at}: nested deeper than ${maxDepth} levels`);
}
