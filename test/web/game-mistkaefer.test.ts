// A whole Mistkäfer game from the lobby, as a person plays it (issue 26): created with a
// greedy bot in the lobby's form, opened from "Your games", played by clicking what the
// page offers (the dice and spaces on the table first) until the result banner, then a
// rematch.
import t from 'tap';
import { playFromLobby } from './lobby-game.ts';

t.setTimeout(120_000);

t.test('Mistkäfer from the lobby to the rematch', async (t) => {
  const { played, rematch } = await playFromLobby(t, { type: 'mistkaefer' });
  t.ok(played.onTable > 3, 'played on the table itself: the dice and the tableau');
  for (const area of ['rolled', 'player']) t.ok(played.marked.has(area), `the newest move was marked on the table's ${area} (a roll marks the rolled dice, a placement the seat's tableau): ${[...played.marked].join(', ')}`);
  await rematch();
});
