// Formats: the strict schema, table sizes within each game's player range, and the
// arithmetic of seating a field at tables of a range.
import t from 'tap';
import { byesNeeded, formatSchema, knockoutRounds, tableSizes, validateFormat, type Format } from '../../../src/domain/tournament/format.ts';

const swiss = (min: number, max: number, byes = false): Format => ({ kind: 'swiss', rounds: 5, tableSize: { min, max }, byes });

t.test('the schema is strict and refuses a range upside down', async (t) => {
  t.ok(formatSchema.safeParse({ kind: 'swiss', rounds: 7, tableSize: { min: 4, max: 4 }, byes: true }).success);
  t.ok(formatSchema.safeParse({ kind: 'rotation', rounds: 3, tableSize: { min: 3, max: 5 } }).success);
  t.ok(formatSchema.safeParse({ kind: 'knockout', tableSize: { min: 4, max: 4 }, advance: 2 }).success);
  t.notOk(formatSchema.safeParse({ kind: 'swiss', rounds: 7, tableSize: { min: 4, max: 4 }, byes: true, extra: 1 }).success, 'unknown key');
  t.notOk(formatSchema.safeParse({ kind: 'swiss', rounds: 7, tableSize: { min: 4, max: 4 } }).success, 'byes is required');
  t.notOk(formatSchema.safeParse({ kind: 'rotation', rounds: 3, tableSize: { min: 5, max: 3 } }).success, 'min > max');
  t.notOk(formatSchema.safeParse({ kind: 'rotation', rounds: 0, tableSize: { min: 3, max: 3 } }).success, 'no rounds');
  t.notOk(formatSchema.safeParse({ kind: 'knockout', tableSize: { min: 4, max: 4 }, advance: 1.5 }).success, 'whole numbers');
  t.notOk(formatSchema.safeParse({ kind: 'league', rounds: 3, tableSize: { min: 3, max: 3 } }).success, 'unknown kind');
});

t.test('table sizes lie within each game\'s player range', async (t) => {
  const ranges = { pechvogel: [2, 5], 'fackel-und-keule': [3, 5], mistkaefer: [2, 4], 'porca-miseria': [3, 8] } as const;
  for (const [game, [min, max]] of Object.entries(ranges)) {
    t.equal(validateFormat(swiss(min, max, true), game, 20), null, `${game} ${min}–${max}`);
    t.match(validateFormat(swiss(min - 1, max, true), game, 20), /outside/, `${game} below ${min}`);
    t.match(validateFormat(swiss(min, max + 1, true), game, 20), /outside/, `${game} above ${max}`);
  }
  t.equal(validateFormat(swiss(5, 6), 'porca-miseria', 11), null);
  t.equal(
    validateFormat(swiss(3, 6), 'pechvogel', 12),
    'tables of 3–6 players are outside Pechvogel\'s 2–5 players',
  );
  t.equal(validateFormat(swiss(4, 4), 'chess', 12), 'unknown game type "chess"');
  t.equal(validateFormat(swiss(5, 3), 'porca-miseria', 12), 'tableSize.min (5) exceeds tableSize.max (3)');
});

t.test('a field that cannot be seated needs byes (Swiss) or a wider range', async (t) => {
  t.equal(validateFormat(swiss(4, 4), 'pechvogel', 14), '14 players cannot be seated at tables of 4 players: allow byes or widen the range');
  t.equal(validateFormat(swiss(4, 4, true), 'pechvogel', 14), null);
  t.equal(validateFormat(swiss(3, 4), 'pechvogel', 14), null, '4 + 4 + 3 + 3');
  t.equal(
    validateFormat({ kind: 'rotation', rounds: 3, tableSize: { min: 4, max: 4 }, byes: false }, 'mistkaefer', 10),
    '10 players cannot be seated at tables of 4 players: allow byes or widen the range',
  );
  t.equal(validateFormat({ kind: 'rotation', rounds: 3, tableSize: { min: 4, max: 4 } }, 'mistkaefer', 10), null, 'a rotation has byes unless it says byes: false');
  t.equal(validateFormat({ kind: 'rotation', rounds: 7, tableSize: { min: 2, max: 2 } }, 'pechvogel', 7), null, 'an odd field at 2-seat tables');
  t.equal(validateFormat(swiss(4, 4, true), 'pechvogel', 3), '3 players are too few: a table needs at least 4');
});

t.test('tableSizes: as few tables as the range allows, sizes differing by at most one', async (t) => {
  t.strictSame(tableSizes(13, { min: 3, max: 5 }), [5, 4, 4]);
  t.strictSame(tableSizes(1024, { min: 4, max: 4 }), Array(256).fill(4));
  t.strictSame(tableSizes(1024, { min: 4, max: 5 }), [...Array(204).fill(5), 4]);
  t.strictSame(tableSizes(7, { min: 3, max: 8 }), [7]);
  t.strictSame(tableSizes(17, { min: 5, max: 6 }), [6, 6, 5]);
  t.equal(tableSizes(7, { min: 4, max: 5 }), null);
  t.equal(tableSizes(3, { min: 4, max: 5 }), null);
  t.equal(byesNeeded(7, { min: 4, max: 5 }), 2);
  t.equal(byesNeeded(1023, { min: 4, max: 4 }), 3);
  t.equal(byesNeeded(12, { min: 4, max: 4 }), 0);
  t.equal(byesNeeded(3, { min: 4, max: 4 }), null);
});

t.test('knockout: advance below the smallest table, and every round seatable down to one final', async (t) => {
  const ko = (min: number, max: number, advance: number, byes = false): Format => ({ kind: 'knockout', tableSize: { min, max }, advance, byes });
  const sizes = (plan: ReturnType<typeof knockoutRounds>) => (typeof plan === 'string' ? plan : plan.map((r) => [...r.tables]));
  t.strictSame(sizes(knockoutRounds(64, { min: 4, max: 4 }, 2)), [Array(16).fill(4), Array(8).fill(4), Array(4).fill(4), [4, 4], [4]]);
  t.strictSame(sizes(knockoutRounds(12, { min: 2, max: 5 }, 2)), [[4, 4, 4], [3, 3], [4]]);
  t.equal(validateFormat(ko(4, 4, 2), 'pechvogel', 64), null);
  t.equal(validateFormat(ko(4, 4, 4), 'pechvogel', 64), 'advance (4) must be less than the smallest table (4), or nobody is knocked out');
  t.equal(
    validateFormat(ko(3, 3, 1, true), 'fackel-und-keule', 6),
    'after round 1, 2 players go on, and they cannot be seated at tables of 3 players',
  );
  t.equal(validateFormat(ko(4, 4, 2), 'pechvogel', 10), '10 players cannot be seated at tables of 4 players');
});

t.test('knockout byes: a field that no mix of sizes seats sends the fewest on by a bye, down to a final without one', async (t) => {
  t.strictSame(knockoutRounds(7, { min: 2, max: 2 }, 1, true), [
    { tables: [2, 2, 2], byes: 1 },
    { tables: [2, 2], byes: 0 },
    { tables: [2], byes: 0 },
  ]);
  t.strictSame(knockoutRounds(3, { min: 2, max: 2 }, 1, true), [{ tables: [2], byes: 1 }, { tables: [2], byes: 0 }], 'one table and a bye is no final');
  t.strictSame(knockoutRounds(10, { min: 4, max: 4 }, 2, true), [{ tables: [4, 4], byes: 2 }, { tables: [4], byes: 2 }, { tables: [4], byes: 0 }]);
  t.equal(validateFormat({ kind: 'knockout', tableSize: { min: 2, max: 2 }, advance: 1 }, 'pechvogel', 7), null, 'byes unless byes: false');
  t.equal(validateFormat({ kind: 'knockout', tableSize: { min: 2, max: 2 }, advance: 1, byes: false }, 'pechvogel', 7), '7 players cannot be seated at tables of 2 players');
});
