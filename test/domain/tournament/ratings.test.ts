// Ratings through OpenSkill: a new player's rating, one table's update (known values
// from the openskill README), ties and seeded starts.
import t from 'tap';
import { initialRating, rate } from '../../../src/domain/tournament/ratings.ts';

// The README prints three decimals, some rounded and some cut off.
const near = (x: number, y: number) => Math.abs(x - y) < 1.5e-3;

t.test('a new player starts at mu 25, sigma 25/3, ordinal mu − 3 sigma = 0; a seed sets mu', async (t) => {
  t.strictSame(initialRating(), { mu: 25, sigma: 25 / 3, ordinal: 0 });
  const seeded = initialRating(30);
  t.equal(seeded.mu, 30);
  t.equal(seeded.sigma, 25 / 3);
  t.ok(near(seeded.ordinal, 5));
});

t.test('one 4-player table: the README\'s example (ranks 4, 1, 3, 2)', async (t) => {
  const fresh = initialRating();
  const after = rate([fresh, fresh, fresh, fresh], [4, 1, 3, 2]);
  const expected = [
    [20.963, 8.084],
    [27.795, 8.263],
    [24.689, 8.084],
    [26.553, 8.179],
  ];
  after.forEach((r, i) => {
    t.ok(near(r.mu, expected[i]![0]!) && near(r.sigma, expected[i]![1]!), `player ${i}: ${r.mu} ${r.sigma}`);
    t.ok(near(r.ordinal, r.mu - 3 * r.sigma), 'ordinal = mu − 3 sigma');
  });
});

t.test('tied ranks share the update; a 2-player table moves the winner up and the loser down', async (t) => {
  const fresh = initialRating();
  const [a, b, c, d] = rate([fresh, fresh, fresh, fresh], [2, 4, 2, 1]);
  t.strictSame(a, c, 'equal ratings, equal ranks: equal results');
  t.ok(near(a!.mu, 24.689) && near(b!.mu, 22.826) && near(d!.mu, 27.795), 'the README\'s example with scores 37, 19, 37, 42');
  const [winner, loser] = rate([fresh, fresh], [1, 2]);
  t.ok(winner!.mu > 25 && loser!.mu < 25);
  t.ok(winner!.sigma < fresh.sigma && loser!.sigma < fresh.sigma, 'playing makes both surer');
});

t.test('a ratings list and a ranks list of different lengths are a programming error', async (t) => {
  t.throws(() => rate([initialRating()], [1, 2]), RangeError);
});
