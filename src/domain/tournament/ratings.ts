// Multi-player skill ratings (OpenSkill's Weng–Lin model, Plackett–Luce by default),
// one rating per player and game type, updated table by table. The maths is the
// library's; this module only fixes the shapes the platform stores.
import { ordinal, rate as rateTeams, rating } from 'openskill';

export interface Rating {
  readonly mu: number;
  readonly sigma: number;
  /** A conservative single number to sort by: mu − 3·sigma. */
  readonly ordinal: number;
}

const withOrdinal = (r: { mu: number; sigma: number }): Rating => ({ mu: r.mu, sigma: r.sigma, ordinal: ordinal(r) });

/** A new player's rating; `seed` is a known strength on the same scale (mu, 25 by
 * default), which keeps the default uncertainty. */
export function initialRating(seed?: number): Rating {
  return withOrdinal(seed === undefined ? rating() : rating({ mu: seed }));
}

/** The ratings after one table: `ranks` as the table finished (1 = first, ties share
 * a rank), same order as `ratings`. Each player is a team of one. */
export function rate(ratings: readonly Rating[], ranks: readonly number[]): Rating[] {
  if (ratings.length !== ranks.length) throw new RangeError(`rate: ${ratings.length} ratings but ${ranks.length} ranks`);
  if (ratings.length < 2) return ratings.map(withOrdinal);
  const teams = ratings.map((r) => [{ mu: r.mu, sigma: r.sigma }]);
  return rateTeams(teams, { rank: [...ranks] }).map(([r]) => withOrdinal(r!));
}
