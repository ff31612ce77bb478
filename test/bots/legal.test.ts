// Every bot answers only with one of the legal commands it was offered, in every game
// and at every table size, and sees the same view a client of its seat would.
import t from 'tap';
import { botsFor, play, type AnyBot } from '../../src/bots/index.ts';
import { games } from '../../src/domain/games.ts';

/** Wraps a bot so each answer is checked against what it was offered. */
function checked(bot: AnyBot, offences: string[]): AnyBot {
  return {
    name: bot.name,
    choose: (turn, rng) => {
      const command = bot.choose(turn, rng);
      const offered = turn.legal.map((c) => JSON.stringify(c));
      if (!offered.includes(JSON.stringify(command))) offences.push(`${bot.name} sent ${JSON.stringify(command)}`);
      return command;
    },
  };
}

for (const game of games) {
  const bots = botsFor(game.type)!;
  t.test(`${game.type}: every bot sends only legal commands`, async (t) => {
    for (let seats = game.players.min; seats <= Math.min(game.players.max, 5); seats++) {
      for (const seed of ['a', 'b']) {
        const offences: string[] = [];
        // Mixed tables, so each bot meets the other; a cap keeps long random games short.
        const lineup = Array.from({ length: seats }, (_, s) => checked(s % 2 === 0 ? bots.greedy! : bots.random!, offences));
        play(game, { bots: lineup, seed: `${seed}${seats}`, maxCommands: 3_000 });
        t.same(offences, [], `${seats} seats, seed ${seed}`);
      }
    }
  });
}

t.test('a bot is shown its seat view and nothing else', async (t) => {
  const game = games.find((g) => g.type === 'fackel-und-keule')!;
  let looked = 0;
  const peeking: AnyBot = {
    name: 'peek',
    choose: ({ view, seat, legal }) => {
      const v = view as { you: { seat: number } | null; all: unknown };
      if (v.you?.seat !== seat || v.all !== null) throw new Error(`seat ${seat} was shown more than its own view`);
      looked++;
      return legal[0]!;
    },
  };
  play(game, { bots: [peeking, peeking, peeking], seed: 'peek' });
  t.ok(looked > 0, `${looked} views checked`);
});
