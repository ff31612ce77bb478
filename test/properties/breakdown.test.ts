// Every game that ends by its rules explains its scores: for 100 seeds over every
// table size, bots play whole games and each seat's breakdown adds up to its score,
// names its parts, and the result fits the documented schema (resultSchema). The
// battery checks the same on a few uniformly random games per run, with a new seed
// each run; these are many, the same every run, and played as bots play.
import assert from 'node:assert/strict';
import t from 'tap';
import { botsFor, play, seededRng, type AnyBot } from '../../src/bots/index.ts';
import { scoreOf } from '../../src/domain/contract.ts';
import { games } from '../../src/domain/games.ts';
import { resultSchema } from '../../src/domain/view-parts.ts';

const SEEDS = 100;

for (const game of games) {
  t.test(`${game.type}: a finished game's breakdown adds up to its scores, seat by seat`, async (t) => {
    const bots = botsFor(game.type)!;
    const strategy = Object.values(bots).find((b) => b !== bots.random)!;
    let finished = 0;
    for (let i = 0; i < SEEDS; i++) {
      const seed = `breakdown:${i}`;
      const rng = seededRng(seed);
      const seats = game.players.min + (i % (game.players.max - game.players.min + 1));
      // Random Porca Miseria games run long: its random bot sits beside a greedy one only.
      const lineup: AnyBot[] = Array.from({ length: seats }, (_, s) => (s === 0 || (game.type !== 'porca-miseria' && rng.below(2) === 0) ? strategy : bots.random!));
      const { result } = play(game, { bots: lineup, seed });
      if (result === null) continue;
      finished++;
      const parsed = resultSchema.safeParse(result);
      assert.ok(parsed.success, `${seed}: the result does not fit resultSchema: ${parsed.error?.message}`);
      assert.deepStrictEqual(parsed.data, result, `${seed}: resultSchema changes the result`);
      assert.equal(result.breakdown?.length, seats, `${seed}: a breakdown for each of the ${seats} seats`);
      result.breakdown.forEach((parts, seat) => {
        assert.equal(scoreOf(parts), result.scores[seat], `${seed}: seat ${seat}'s parts ${JSON.stringify(parts)} add up to its score`);
        assert.ok(parts.every((p) => p.label.trim().length > 0), `${seed}: seat ${seat}'s parts are named`);
      });
    }
    t.equal(finished, SEEDS, `all ${SEEDS} games finished, each seat's parts add up`);
  });
}
