// A whole Porca Miseria game from the lobby, as a person plays it (issue 26): created with a
// greedy bot in the lobby's form, opened from "Your games", played by clicking what the
// page offers (grabs and slaps included, as they come) until the result banner, then a
// rematch. At most 30 revealed cards keep the game short.
import t from 'tap';
import { playFromLobby } from './lobby-game.ts';

t.setTimeout(120_000);

// Its game is short, so it is also played on a phone with touch.
const sizes = { desktop: { viewport: { width: 1280, height: 900 } }, phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } };

for (const [size, device] of Object.entries(sizes)) t.test(`Porca Miseria from the lobby to the rematch (${size})`, async (t) => {
  const { played, rematch } = await playFromLobby(t, { type: 'porca-miseria', options: { maxActions: 30 } }, device);
  t.ok(played.buttons + played.onTable > 0, 'the person played');
  for (const area of ['revealed']) t.ok(played.marked.has(area), `the newest move was marked on the table's ${area} (a revealed card is marked): ${[...played.marked].join(', ')}`);
  await rematch();
});
