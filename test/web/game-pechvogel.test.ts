// A whole Pechvogel game from the lobby, as a person plays it (issue 26): created with a
// greedy bot in the lobby's form, opened from "Your games", played by clicking what the
// page offers until the result banner, then a rematch. No reaction deadline, so the
// game waits for the person's clicks instead of a timer; the bot, seat 2 as a person
// counts, begins.
import t from 'tap';
import { playFromLobby } from './lobby-game.ts';

t.setTimeout(120_000);

t.test('Pechvogel from the lobby to the rematch', async (t) => {
  const { served, id, played, rematch } = await playFromLobby(t, { type: 'pechvogel', options: { reactionSeconds: 0, firstSeat: 2 } });
  const created = await served.api('GET', `/games/${id}`);
  t.equal(created.game.options.firstSeat, 1, 'the lobby counts seats from 1: "first to play: 2" is the API\'s seat 1, the bot');
  t.ok(played.buttons + played.onTable > 0, 'the person played');
  for (const area of ['last-throw', 'player']) t.ok(played.marked.has(area), `the newest move was marked on the table's ${area} (a throw marks the last throw, a turn's end the seat): ${[...played.marked].join(', ')}`);
  await rematch();
});
