// A whole Fackel+Keule game from the lobby, as a person plays it (issue 26): created with a
// greedy bot in the lobby's form, opened from "Your games", played by clicking what the
// page offers until the result banner, then a rematch.
import t from 'tap';
import { playFromLobby } from './lobby-game.ts';

t.setTimeout(120_000);

t.test('Fackel+Keule from the lobby to the rematch', async (t) => {
  const { played, rematch } = await playFromLobby(t, { type: 'fackel-und-keule' });
  t.ok(played.buttons + played.onTable > 0, 'the person played');
  for (const area of ['animal', 'player']) t.ok(played.marked.has(area), `the newest move was marked on the table's ${area} (the hunted animal, and the seat that chose or took): ${[...played.marked].join(', ')}`);
  await rematch();
});
