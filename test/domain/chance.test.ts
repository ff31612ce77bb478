import t from 'tap';
import { serverChance, suppliedChance, SuppliedChanceError } from '../../src/domain/chance.ts';

t.test('server chance is reproducible from (seed, version) and differs across versions', async (t) => {
  const a = serverChance('seed', 3).roll([1, 2, 3, 4, 5, 6], 20);
  t.same(serverChance('seed', 3).roll([1, 2, 3, 4, 5, 6], 20), a);
  t.notSame(serverChance('seed', 4).roll([1, 2, 3, 4, 5, 6], 20), a);
});

t.test('server draws are distinct items of the pool', async (t) => {
  const drawn = serverChance('x', 1).draw(['a', 'b', 'c', 'd'], 4);
  t.same([...drawn].sort(), ['a', 'b', 'c', 'd']);
  t.throws(() => serverChance('x', 1).draw(['a'], 2), RangeError);
});

t.test('server rolls are roughly uniform', async (t) => {
  const counts = [0, 0, 0, 0, 0, 0];
  for (const v of serverChance('uniform', 0).roll([0, 1, 2, 3, 4, 5], 60000)) counts[v]!++;
  for (const c of counts) t.ok(c > 9500 && c < 10500, `count ${c} near 10000`);
});

t.test('supplied chance hands out the referee outcomes in order and checks them', async (t) => {
  const c = suppliedChance([3, 'raven', 'b'], 's');
  t.same(c.roll([3, 4, 'raven'], 2), [3, 'raven']);
  t.same(c.draw(['a', 'b'], 1), ['b']);
  t.doesNotThrow(() => c.assertAllUsed());
  t.throws(() => c.roll([1], 1), { code: 'chance/outcome-missing' });

  t.throws(() => suppliedChance([9], 's').roll([1, 2], 1), { code: 'chance/outcome-invalid' });
  t.throws(() => suppliedChance(['a', 'a'], 's').draw(['a', 'b'], 2), { code: 'chance/outcome-invalid' });
  const unused = suppliedChance([1, 2], 's');
  unused.roll([1, 2], 1);
  t.throws(() => unused.assertAllUsed(), SuppliedChanceError);
});
