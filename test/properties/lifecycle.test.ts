// The lifecycle every game is wrapped in (src/domain/lifecycle.ts), as properties of
// random games of the modules the platform plays: a seat resigns at a random moment
// (the game ends with that seat last, nobody is pending, every command is refused, and
// every view and event still fits its schema), and a random game with a turn clock
// ends (the harness sends the system's timeout at random: seats lose on time). Logs
// written before the lifecycle (by a game's own module) fold as before.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import t from 'tap';
import { serverChance } from '../../src/domain/chance.ts';
import { isViolation, type GameEvent, type Viewer } from '../../src/domain/contract.ts';
import { fackelUndKeule } from '../../src/domain/fackel-und-keule/index.ts';
import { games, findGame, type AnyGame } from '../../src/domain/games.ts';
import { mistkaefer } from '../../src/domain/mistkaefer/index.ts';
import { pechvogel } from '../../src/domain/pechvogel/index.ts';
import { porcaMiseria } from '../../src/domain/porca-miseria/index.ts';
import { lifecycleCodes } from '../../src/domain/lifecycle.ts';
import { play, START } from './harness.ts';

const SEED = Number(process.env.FC_SEED ?? 20261201);
const timed = new Set(['pechvogel', 'mistkaefer']);

const setupOf = (game: AnyGame, seats: number, turnSeconds: number) => ({
  seats,
  options: game.optionsSchema.parse(timed.has(game.type) ? { turnSeconds } : {}),
});

function checkFits(game: AnyGame, state: unknown, seats: number, log: readonly GameEvent[]): void {
  const viewers: Viewer[] = [...Array.from({ length: seats }, (_, seat) => ({ kind: 'seat', seat }) as const), { kind: 'spectator' }, { kind: 'all' }];
  for (const viewer of viewers) {
    const seen = game.view(state, viewer);
    const parsed = game.viewSchemas[viewer.kind].safeParse(seen);
    assert.ok(parsed.success, `the ${viewer.kind} view does not fit: ${parsed.error?.message}`);
  }
  for (const event of log) assert.ok(game.eventSchema.safeParse(event).success, `${JSON.stringify(event)} does not fit eventSchema`);
}

for (const game of games) {
  t.test(`${game.type}: a seat resigns at a random moment`, async (t) => {
    const arb = fc.record({
      seats: fc.integer({ min: game.players.min, max: game.players.max }),
      seed: fc.string({ minLength: 1, maxLength: 8 }),
      at: fc.integer({ min: 0, max: 300 }),
      resigning: fc.nat(),
      turnSeconds: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 600 })),
    });
    fc.assert(
      fc.property(arb, ({ seats, seed, at, resigning, turnSeconds }) => {
        const played = play(game, { seed, setup: setupOf(game, seats, turnSeconds) }, at);
        if (played.ended) return;
        const seat = resigning % seats;
        const now = START + 10_000_000;
        const events = game.decide(played.final, { type: 'resign' }, { actor: { kind: 'seat', seat }, now, chance: serverChance(seed, played.log.length) });
        assert.ok(!isViolation(events), `resign refused: ${JSON.stringify(events)}`);
        const state = events.reduce((s, e) => game.evolve(s, e), played.final);
        const result = game.result(state);
        assert.ok(result !== null, 'the game has a result');
        assert.deepStrictEqual(result.resigned, [seat]);
        assert.equal(result.ranks[seat], seats, 'the resigned seat ranks last');
        assert.deepStrictEqual(result.winners, Array.from({ length: seats }, (_, s) => s).filter((s) => s !== seat));
        assert.deepStrictEqual(game.pending(state).seats, [], 'nobody is pending');
        for (let s = 0; s < seats; s++) assert.deepStrictEqual(game.legalCommands(state, s), [], `seat ${s} has nothing to do`);
        const again = game.decide(state, { type: 'resign' }, { actor: { kind: 'seat', seat: (seat + 1) % seats }, now, chance: serverChance(seed, 0) });
        assert.ok(isViolation(again) && again.code === lifecycleCodes.over, 'nothing more is decided');
        checkFits(game, state, seats, [...played.log, ...events]);
      }),
      { numRuns: 40, seed: SEED },
    );
    t.pass(`holds for 40 random games (fast-check seed ${SEED})`);
  });
}

for (const game of games.filter((g) => timed.has(g.type))) {
  t.test(`${game.type}: random games with a turn clock end, and views fit`, async (t) => {
    fc.assert(
      fc.property(fc.integer({ min: game.players.min, max: game.players.max }), fc.string({ minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 600 }), (seats, seed, turnSeconds) => {
        const played = play(game, { seed, setup: setupOf(game, seats, turnSeconds) });
        assert.ok(played.ended, 'the game ends');
        const ending = game.ending!(played.final) as { kind: string; timedOut?: boolean } | null;
        if (ending !== null) assert.deepStrictEqual([ending.kind, ending.timedOut], ['resigned', true], 'ended by its rules or on time');
        checkFits(game, played.final, seats, played.log);
      }),
      { numRuns: 30, seed: SEED },
    );
    t.pass(`holds for 30 random games (fast-check seed ${SEED})`);
  });
}

for (const own of [pechvogel, fackelUndKeule, mistkaefer, porcaMiseria] as AnyGame[]) {
  const game = findGame(own.type)!;
  t.test(`${own.type}: a log written before the lifecycle folds as before`, async (t) => {
    fc.assert(
      fc.property(fc.integer({ min: own.players.min, max: own.players.max }), fc.string({ minLength: 1, maxLength: 8 }), (seats, seed) => {
        const setup = { seats, options: own.optionsSchema.parse({}) };
        const played = play(own, { seed, setup }, 400);
        const folded = played.log.reduce((s, e) => game.evolve(s, e), game.initialState(setup));
        assert.deepStrictEqual((folded as { game: unknown }).game, played.final, "the game's own state, unchanged");
        assert.deepStrictEqual(game.result(folded), own.result(played.final), 'the same result');
        assert.deepStrictEqual(game.pending(folded), own.pending(played.final), 'the same seats pending');
        assert.deepStrictEqual(game.view(folded, { kind: 'all' }), { ...(own.view(played.final, { kind: 'all' }) as object), lifecycle: { ending: null, turnDeadline: null } }, 'the same view, with no ending');
      }),
      { numRuns: 20, seed: SEED },
    );
    t.pass(`holds for 20 random games (fast-check seed ${SEED})`);
  });
}
