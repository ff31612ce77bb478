// A whole Fackel+Keule game from the lobby, as a person plays it (issue 26): created with a
// greedy bot in the lobby's form, opened from "Your games", played by clicking what the
// page offers until the result banner, then a rematch.
import t from 'tap';
import { browser, serve } from './browser.ts';
import { bannerAndRematch, createFromLobby, playToTheEnd } from './lobby-game.ts';

t.setTimeout(120_000);

t.test('Fackel+Keule from the lobby to the rematch', async (t) => {
  const served = await serve(t);
  const chromium = await browser(t);
  const page = await chromium.newPage({ viewport: { width: 1280, height: 900 } });
  const dialogs: string[] = [];
  page.on('dialog', (d) => (dialogs.push(d.message()), void d.dismiss()));
  const started = performance.now();
  const id = await createFromLobby(page, served.url, { type: 'fackel-und-keule' });
  const played = await playToTheEnd(page);
  t.comment(`played in ${Math.round(performance.now() - started)} ms: ${played.onTable} clicks on the table, ${played.buttons} on buttons`);
  t.ok(played.buttons + played.onTable > 0, 'the person played');
  t.ok(!played.marked.has('more than one'), 'never more than one newest move marked');
  for (const area of ['animal', 'player']) t.ok(played.marked.has(area), `the newest move was marked on the table's ${area} (the hunted animal, and the seat that chose or took): ${[...played.marked].join(', ')}`);
  await bannerAndRematch(t, page, id);
  t.same(dialogs, [], 'the hostile name ran nothing');
});
