// Properties of Swiss and rotation pairing over whole tournaments with drawn results,
// for every game's player range: everyone seated once a round (or a bye), tables in
// range, byes only when sizes cannot absorb them and to the right players, rematches
// as few as any seating allows (brute force on small fields), seat 0 shared out, and
// the same input giving the same tables.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import t from 'tap';
import { serverChance } from '../../../src/domain/chance.ts';
import { games } from '../../../src/domain/games.ts';
import { byesNeeded, knockoutRounds, tableSizes, validateFormat, type Format, type KnockoutRound } from '../../../src/domain/tournament/format.ts';
import { pairRound, type Pairing, type PairingInput } from '../../../src/domain/tournament/pairing.ts';
import type { TableResult } from '../../../src/domain/tournament/results.ts';
import { standings } from '../../../src/domain/tournament/standings.ts';
import { fewestRematches, fewestScheduleRematches, rematches } from './brute-force.ts';
import { drawnResults, ids, playKnockout } from './helpers.ts';

const FC = { numRuns: 120, seed: process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined };

/** A format for one of the games, sized within its range, and a field it can seat. */
const tournament = (maxPlayers: number) =>
  fc
    .record({
      game: fc.constantFrom(...games),
      kind: fc.constantFrom('swiss' as const, 'rotation' as const),
      low: fc.nat(6),
      span: fc.nat(3),
      n: fc.integer({ min: 2, max: maxPlayers }),
      rounds: fc.integer({ min: 1, max: 6 }),
      byes: fc.boolean(),
      seed: fc.string({ maxLength: 6 }),
      withdrawals: fc.array(fc.nat(), { maxLength: 3 }),
    })
    .map(({ game, kind, low, span, n, rounds, byes, seed, withdrawals }) => {
      const min = game.players.min + (low % (game.players.max - game.players.min + 1));
      const tableSize = { min, max: Math.min(game.players.max, min + span) };
      const format: Format = { kind, rounds, tableSize, byes };
      return { game: game.type, format, n, seed, withdrawals };
    })
    .filter(({ format, game, n }) => validateFormat(format, game, n) === null);

interface Round {
  readonly input: PairingInput;
  readonly pairing: Pairing;
}

/** Plays the tournament; before a round a player may withdraw, if the rest can still be seated. */
function play(game: string, format: Format & { rounds: number }, n: number, seed: string, withdrawals: readonly number[]): Round[] {
  const rng = serverChance(seed, 'results');
  let active = ids(n);
  const results: TableResult[] = [];
  const byes: { round: number; player: string }[] = [];
  const rounds: Round[] = [];
  for (let round = 1; round <= format.rounds; round++) {
    const w = withdrawals[round - 2];
    if (w !== undefined) {
      const rest = active.filter((_, i) => i !== w % active.length);
      if (validateFormat(format, game, rest.length) === null) active = rest;
    }
    const input: PairingInput = { format, round, players: active.map((id) => ({ id })), results: [...results], byes: [...byes], seed };
    const pairing = pairRound(input);
    if ('violation' in pairing) throw new Error(`round ${round}: ${pairing.violation}`);
    rounds.push({ input, pairing });
    results.push(...drawnResults(pairing, round, rng));
    byes.push(...pairing.byes.map((player) => ({ round, player })));
  }
  return rounds;
}

const metBefore = (results: readonly TableResult[]) => (a: string, b: string) =>
  results.some((r) => r.players.includes(a) && r.players.includes(b));

t.test('every active player sits at exactly one table or has a bye, at tables within the range', async (t) => {
  fc.assert(
    fc.property(tournament(40), ({ game, format, n, seed, withdrawals }) => {
      for (const { input, pairing } of play(game, format as Format & { rounds: number }, n, seed, withdrawals)) {
        const seated = [...pairing.tables.flatMap((table) => table.players), ...pairing.byes].sort();
        assert.deepEqual(seated, input.players.map((p) => p.id).sort(), 'seated once');
        for (const table of pairing.tables) {
          assert.ok(table.players.length >= format.tableSize.min && table.players.length <= format.tableSize.max, 'in range');
        }
      }
    }),
    FC,
  );
  t.pass('held on every generated tournament');
});

t.test('a bye only when no mix of sizes seats everyone, and to those with the fewest byes (Swiss: the lowest standing among them)', async (t) => {
  fc.assert(
    fc.property(tournament(30), ({ game, format, n, seed, withdrawals }) => {
      for (const { input, pairing } of play(game, format as Format & { rounds: number }, n, seed, withdrawals)) {
        const field = input.players.map((p) => p.id);
        assert.equal(pairing.byes.length, byesNeeded(field.length, format.tableSize), 'as few byes as the sizes allow');
        if (tableSizes(field.length, format.tableSize)) assert.equal(pairing.byes.length, 0);
        if (pairing.byes.length === 0) continue;
        const had = (p: string) => input.byes.filter((b) => b.player === p).length;
        const rank = new Map(standings(field, input.results, input.byes).map((s) => [s.player, s.rank]));
        for (const x of pairing.byes) {
          for (const y of field.filter((p) => !pairing.byes.includes(p))) {
            assert.ok(had(x) < had(y) || (had(x) === had(y) && (format.kind === 'rotation' || rank.get(x)! >= rank.get(y)!)), `${x} before ${y}`);
          }
        }
      }
    }),
    FC,
  );
  t.pass('held on every generated tournament');
});

t.test('Swiss rematches: as few as the best of every seating with the same table sizes (brute force, ≤ 10 players)', async (t) => {
  let compared = 0;
  let withRematches = 0;
  fc.assert(
    fc.property(tournament(10).filter(({ format }) => format.kind === 'swiss'), ({ game, format, n, seed, withdrawals }) => {
      for (const { input, pairing } of play(game, format as Format & { rounds: number }, n, seed, withdrawals)) {
        const met = metBefore(input.results);
        const field = input.players.map((p) => p.id).filter((p) => !pairing.byes.includes(p));
        const seated = pairing.tables.map((table) => table.players);
        assert.equal(pairing.repeats, rematches(seated, met), 'repeats counts the rematches seated');
        const best = fewestRematches(field, pairing.tables.map((table) => table.players.length), met);
        assert.equal(pairing.repeats, best, `round ${input.round}: as few rematches as brute force`);
        compared++;
        if (best > 0) withRematches++;
      }
    }),
    { ...FC, numRuns: 150 },
  );
  t.comment(`${compared} rounds compared with brute force, ${withRematches} of them with unavoidable rematches`);
  t.ok(withRematches > 20, 'the comparison includes rounds where rematches cannot be avoided');
});

/** How many ways one round can seat n players at tables of `sizes`. */
const seatingsOf = (sizes: readonly number[]) => {
  let count = 1;
  let n = 0;
  const equal = new Map<number, number>();
  for (const size of sizes) {
    for (let k = 1; k <= size; k++) count = (count * ++n) / k;
    equal.set(size, (equal.get(size) ?? 0) + 1);
    count /= equal.get(size)!;
  }
  return count;
};

t.test('rotation rematches over all its rounds: as few as the best of every schedule (brute force on small fields)', async (t) => {
  let compared = 0;
  let repeats = 0;
  let optimum = 0;
  fc.assert(
    fc.property(
      tournament(9).filter(({ format, n }) => {
        const sizes = tableSizes(n, format.tableSize);
        return format.kind === 'rotation' && sizes !== null && format.rounds > 1 && sizes.length > 1 && seatingsOf(sizes) ** (format.rounds - 1) <= 1_500_000;
      }),
      ({ game, format, n, seed }) => {
        const rounds = play(game, format as Format & { rounds: number }, n, seed, []);
        const total = rounds.reduce((sum, { pairing }) => sum + pairing.repeats, 0);
        const best = fewestScheduleRematches(ids(n), tableSizes(n, format.tableSize)!, rounds.length);
        assert.equal(total, best, `${n} players at ${format.tableSize.min}–${format.tableSize.max} for ${rounds.length} rounds: ${total} rematches, brute force ${best}`);
        compared++;
        repeats += total;
        optimum += best;
      },
    ),
    { ...FC, numRuns: 40 },
  );
  t.comment(`${compared} rotations compared with brute force: ${repeats} rematches in all, the optimum ${optimum}`);
  t.ok(optimum > 0, 'the comparison includes schedules where rematches cannot be avoided');
});

t.test('rotation plans its rounds together: where seating round by round runs into rematches, the plan avoids them', async (t) => {
  const total = (n: number, tableSize: { min: number; max: number }, rounds: number, seed: string) => {
    const format: Format = { kind: 'rotation', rounds, tableSize };
    return play('pechvogel', format as Format & { rounds: number }, n, seed, []).map(({ pairing }) => pairing.repeats);
  };
  // The affine plane of order 4: 16 players at tables of 4 can meet everyone once in 5 rounds
  // (round by round, the last two rounds had 4 rematches each).
  t.same(total(16, { min: 4, max: 4 }, 5, 'x'), [0, 0, 0, 0, 0], '16 players, 5 rounds at 4: no rematch');
  // Round by round: 0, 0, 0, 2; brute force over every schedule: 1.
  const seven = total(7, { min: 2, max: 3 }, 4, 'c');
  t.equal(seven.reduce((a, b) => a + b, 0), fewestScheduleRematches(ids(7), [3, 2, 2], 4), `7 players at 2–3 for 4 rounds: ${seven.join(', ')}`);
});

t.test('seat 0 is shared out: nobody starts more than ⌈rounds / smallest table⌉ + 1 times', async (t) => {
  fc.assert(
    fc.property(tournament(40), ({ game, format, n, seed }) => {
      const rounds = play(game, format as Format & { rounds: number }, n, seed, []);
      const starts = new Map<string, number>();
      for (const { pairing } of rounds) for (const table of pairing.tables) starts.set(table.players[0]!, (starts.get(table.players[0]!) ?? 0) + 1);
      const bound = Math.ceil(rounds.length / format.tableSize.min) + 1;
      for (const [player, count] of starts) assert.ok(count <= bound, `${player} started ${count} times, bound ${bound}`);
    }),
    { ...FC, numRuns: 60 },
  );
  t.pass('held on every generated tournament');
});

t.test('deterministic: the same input gives the same pairing, whatever the order of the players', async (t) => {
  fc.assert(
    fc.property(tournament(30), fc.nat(), ({ game, format, n, seed, withdrawals }, shift) => {
      for (const { input, pairing } of play(game, format as Format & { rounds: number }, n, seed, withdrawals)) {
        assert.deepEqual(pairRound(input), pairing);
        const k = shift % input.players.length;
        const turned = { ...input, players: [...input.players.slice(k), ...input.players.slice(0, k)].reverse() };
        assert.deepEqual(pairRound(turned), pairing);
      }
    }),
    { ...FC, numRuns: 40 },
  );
  t.pass('held on every generated tournament');
});

t.test('the tournament seed is the only chance: another seed draws other tables', async (t) => {
  const format: Format = { kind: 'rotation', rounds: 1, tableSize: { min: 4, max: 4 } };
  const tables = (seed: string) => JSON.stringify(pairRound({ format, round: 1, players: ids(16).map((id) => ({ id })), results: [], byes: [], seed }));
  t.equal(tables('a'), tables('a'));
  t.not(tables('a'), tables('b'));
});

t.test('knockout: each round seats only players who placed within the cut or had a bye, in range, down to the planned final', async (t) => {
  const knockout = fc
    .record({ game: fc.constantFrom(...games), low: fc.nat(6), span: fc.nat(3), advance: fc.integer({ min: 1, max: 4 }), n: fc.integer({ min: 2, max: 120 }), seed: fc.string({ maxLength: 6 }) })
    .map(({ game, low, span, advance, n, seed }) => {
      const min = game.players.min + (low % (game.players.max - game.players.min + 1));
      const format = { kind: 'knockout' as const, tableSize: { min, max: Math.min(game.players.max, min + span) }, advance };
      return { game: game.type, format, n, seed };
    })
    .filter(({ game, format, n }) => validateFormat(format, game, n) === null);
  fc.assert(
    fc.property(knockout, ({ format, n, seed }) => {
      const played = playKnockout(format, ids(n), seed);
      const plan = knockoutRounds(n, format.tableSize, format.advance, true) as KnockoutRound[];
      assert.deepEqual(played.pairings.map((p) => ({ tables: p.tables.map((table) => table.players.length), byes: p.byes.length })), plan, 'the planned rounds');
      played.pairings.forEach((pairing, r) => {
        const seated = pairing.tables.flatMap((table) => table.players);
        assert.equal(new Set(seated).size, seated.length, 'seated once');
        if (r === 0) return assert.deepEqual([...seated, ...pairing.byes].sort(), ids(n));
        for (const player of seated) {
          if (played.byes.some((b) => b.round === r && b.player === player)) continue;
          const table = played.results.find((x) => x.round === r && x.players.includes(player))!;
          const mine = table.ranks[table.players.indexOf(player)]!;
          assert.ok(table.ranks.filter((rank) => rank < mine).length < format.advance, `${player} placed within the cut`);
        }
      });
    }),
    { ...FC, numRuns: 80 },
  );
  t.pass('held on every generated knockout');
});
