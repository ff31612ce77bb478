// The greedy bot beats the random one. One greedy seat against random seats, the
// greedy seat moving round the table game by game; a shared win counts as a share.
// Measured (200 games, seeds strength:0..199):
//   pechvogel 2 seats 82.0% · mistkaefer 2 seats 100% (fair share 50%)
//   fackel-und-keule 3 seats 58.2% · porca-miseria 3 seats 99.8% (fair share 33%)
// The assertion asks for the fair share plus a margin of about three standard errors.
import t from 'tap';
import { botsFor, play } from '../../src/bots/index.ts';
import { games } from '../../src/domain/games.ts';

const GAMES = 200;

for (const game of games) {
  const seats = game.players.min;
  const { greedy, random } = botsFor(game.type)!;
  let wins = 0;
  for (let i = 0; i < GAMES; i++) {
    const seat = i % seats;
    const lineup = Array.from({ length: seats }, (_, s) => (s === seat ? greedy! : random!));
    // A game cut off by the cap has no result and counts as lost for greedy.
    const { result } = play(game, { bots: lineup, seed: `strength:${i}`, maxCommands: 5_000 });
    if (result?.winners.includes(seat)) wins += 1 / result.winners.length;
  }
  const rate = wins / GAMES;
  const fair = 1 / seats;
  t.ok(rate > fair + 0.1, `${game.type}: greedy wins ${(100 * rate).toFixed(1)}% at ${seats} seats (fair share ${(100 * fair).toFixed(0)}%)`);
}
