// The runner: whole games for every game and table size, determinism per seed, and a
// log that replays to the final state.
import t from 'tap';
import { botsFor, play } from '../../src/bots/index.ts';
import { formatSummary, simulate } from '../../src/bots/simulate.ts';
import { z } from 'zod';
import { randomBot } from '../../src/bots/bot.ts';
import { START } from '../../src/bots/play.ts';
import { fold, rankByScore, violation, type Command, type GameModule } from '../../src/domain/contract.ts';
import { findGame, games } from '../../src/domain/games.ts';

// Random Porca Miseria games run to ~1,500 commands (and under rules 1 need not end);
// greedy ones take ~200, so the size sweep stays quick.
const finisher = (type: string) => botsFor(type)![type === 'porca-miseria' ? 'greedy' : 'random']!;

for (const game of games) {
  t.test(`${game.type}: the runner finishes games at every table size`, async (t) => {
    for (let seats = game.players.min; seats <= game.players.max; seats++) {
      const played = play(game, { bots: Array(seats).fill(finisher(game.type)), seed: `size${seats}` });
      t.ok(played.result, `${seats} seats: a result after ${played.commands} commands`);
      t.equal(played.result?.scores.length, seats);
      t.same(game.pending(played.state).seats, [], 'nobody may act afterwards');
      t.same(fold(game, played.setup, played.events), played.state, 'the log folds to the final state');
      t.equal(played.commandsBySeat.reduce((a, b) => a + b, 0), played.commands);
    }
  });

  t.test(`${game.type}: the same seed plays the same game`, async (t) => {
    const bots = botsFor(game.type)!;
    const lineup = Array.from({ length: game.players.min }, (_, s) => (s === 0 ? bots.greedy! : finisher(game.type)));
    const one = play(game, { bots: lineup, seed: 'same' });
    const two = play(game, { bots: lineup, seed: 'same' });
    const other = play(game, { bots: lineup, seed: 'other' });
    t.equal(JSON.stringify(two.events), JSON.stringify(one.events), 'identical event logs');
    t.not(JSON.stringify(other.events), JSON.stringify(one.events), 'another seed, another game');
  });
}

t.test('with nobody pending, the clock jumps to the deadline and the system sends timeout', async (t) => {
  // A stand-in game: three deadlines a second apart, nobody ever pending.
  type Tick = { type: 'Ticked'; at: number };
  const clock: GameModule<object, number[], Command, Tick, null> = {
    type: 'clock',
    title: 'Clock',
    rulesVersion: '1',
    players: { min: 1, max: 1 },
    traits: { hiddenInformation: false, simultaneous: false, realTime: true },
    optionsSchema: z.object({}),
    untimedOptions: {},
    commandSchema: z.object({ type: z.string() }),
    eventSchema: z.object({ type: z.literal('Ticked'), at: z.number() }),
    viewSchemas: { seat: z.null(), spectator: z.null(), all: z.null() },
    edition: null,
    editionSchema: z.null(),
    codes: ['clock/no'],
    initialState: () => [],
    setup: (_s, { now }) => [{ type: 'Ticked', at: now }],
    decide: (_s, command, { actor, now }) =>
      command.type === 'timeout' && actor.kind === 'system' ? [{ type: 'Ticked', at: now }] : violation('clock/no', 'no'),
    evolve: (ticks, event) => [...ticks, event.at],
    view: () => null,
    redact: (event) => event,
    pending: (ticks) => ({ seats: [], deadline: ticks.at(-1)! + 1000 }),
    legalCommands: () => [],
    result: (ticks) => (ticks.length > 3 ? rankByScore([ticks.length]) : null),
  };
  const played = play(clock, { bots: [randomBot], seed: 'tick' });
  t.equal(played.timeouts, 3);
  t.equal(played.commands, 0);
  t.same(played.state, [START, START + 1000, START + 2000, START + 3000]);
});

t.test('simulate prints the same summary for the same seed', async (t) => {
  const game = findGame('pechvogel')!;
  const bots = botsFor(game.type)!;
  const run = () =>
    formatSummary(simulate({ game, bots: [bots.greedy!, bots.random!], games: 20, seed: 's', rotate: true, maxCommands: 20_000 }));
  const text = run();
  t.equal(run(), text);
  t.match(text, /, seed s\n/, 'without options the first line names none');
  t.match(text, /games 20, finished 20/);
  t.match(text, /greedy +\d+\.\d%/);
});

t.test("simulate plays the game's variant it is given", async (t) => {
  const game = findGame('porca-miseria')!;
  const bots = botsFor(game.type)!;
  const run = (options?: unknown) => simulate({ game, bots: [bots.random!, bots.random!, bots.random!], games: 5, seed: 's', rotate: false, maxCommands: 20_000, options });
  const short = run({ maxActions: 1 });
  t.ok(short.commands.max < run().commands.min, 'games that end after one revealed card are shorter than every default game');
  t.match(formatSummary(short), /seed s, options \{"maxActions":1\}\n/, 'and the summary names the options');
});
