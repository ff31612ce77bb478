// A whole Pechvogel game from the lobby, as a person plays it (issue 26): created with a
// greedy bot in the lobby's form, opened from "Your games", played by clicking what the
// page offers until the result banner, then a rematch. No reaction deadline, so the
// game waits for the person's clicks instead of a timer; the bot, seat 2 as a person
// counts, begins.
import t from 'tap';
import { browser, serve } from './browser.ts';
import { bannerAndRematch, createFromLobby, playToTheEnd } from './lobby-game.ts';

t.setTimeout(120_000);

t.test('Pechvogel from the lobby to the rematch', async (t) => {
  const served = await serve(t);
  const chromium = await browser(t);
  const page = await chromium.newPage({ viewport: { width: 1280, height: 900 } });
  const dialogs: string[] = [];
  page.on('dialog', (d) => (dialogs.push(d.message()), void d.dismiss()));
  const started = performance.now();
  const id = await createFromLobby(page, served.url, { type: 'pechvogel', options: { reactionSeconds: 0, firstSeat: 2 } });
  const created = await served.api('GET', `/games/${id}`);
  t.equal(created.game.options.firstSeat, 1, 'the lobby counts seats from 1: "first to play: 2" is the API\'s seat 1, the bot');
  const played = await playToTheEnd(page);
  t.comment(`played in ${Math.round(performance.now() - started)} ms: ${played.onTable} clicks on the table, ${played.buttons} on buttons`);
  t.ok(played.buttons + played.onTable > 0, 'the person played');
  t.ok(!played.marked.has('more than one'), 'never more than one newest move marked');
  for (const area of ['last-throw', 'player']) t.ok(played.marked.has(area), `the newest move was marked on the table's ${area} (a throw marks the last throw, a turn's end the seat): ${[...played.marked].join(', ')}`);
  await bannerAndRematch(t, page, id);
  t.same(dialogs, [], 'the hostile name ran nothing');
});
