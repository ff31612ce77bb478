// Reading a game's past: the event log page by page, and the view at any version. Both
// fold on from the last state folded for the game (src/events/past-states.ts) when they
// can, so they must show exactly what a fold from the start shows, whichever order a
// client reads in.
import t from 'tap';
import { bearerHeader, command, createGame, testApp } from '../helpers/app.ts';
import type { App } from '../../src/app.ts';

type Page = { events: { seq: number; event: unknown }[]; next: number | null; version: number };

const page = async (app: App, id: string, token: string, after: number, limit: number): Promise<Page> =>
  (await app.inject({ url: `/games/${id}/events?after=${after}&limit=${limit}`, headers: bearerHeader(token) })).json();

t.test('pages in order, out of order and all at once show a seat the same log', async (t) => {
  const app = await testApp(t);
  // Fackel+Keule hides each seat's hand and choices from the others.
  const { id, tokens } = await createGame(app, { type: 'fackel-und-keule', seats: [{}, {}, {}], seed: 'pages' });
  const refused: string[] = [];
  for (let i = 0; i < 200; i++) {
    const game = (await app.inject({ url: `/games/${id}` })).json();
    if (game.status !== 'running') break;
    const seat = game.pending.seats[0];
    const legal = (await app.inject({ url: `/games/${id}`, headers: bearerHeader(tokens[seat]) })).json().legalCommands;
    const answer = await command(app, id, tokens[seat], { command: legal[0] });
    if (answer.statusCode !== 200) refused.push(answer.body);
  }
  t.same(refused, [], 'the game was played');
  const viewer = tokens[1]!;
  const whole = await page(app, id, viewer, 0, 1000);
  t.ok(whole.events.length > 60, `a long log (${whole.events.length} events)`);
  t.notSame(whole.events, (await page(app, id, tokens[0]!, 0, 1000)).events, 'which the two seats see differently');

  const inOrder: Page['events'] = [];
  for (let after: number | null = 0; after !== null; ) {
    const next: Page = await page(app, id, viewer, after, 7);
    inOrder.push(...next.events);
    after = next.next;
  }
  t.same(inOrder, whole.events, 'page after page, seven at a time');
  t.same((await page(app, id, viewer, 20, 10)).events, whole.events.slice(20, 30), 'a jump back to an earlier page');
  t.same((await page(app, id, viewer, 50, 5)).events, whole.events.slice(50, 55), 'and forward again');
  t.same((await page(app, id, viewer, whole.version + 5, 10)).events, [], 'past the end: nothing');
});

t.test('the view at every version, stepped through forwards and backwards, is the replay\'s', async (t) => {
  const app = await testApp(t);
  const { id, tokens } = await createGame(app, { type: 'fackel-und-keule', seats: [{}, {}, {}], seed: 'steps' });
  for (let i = 0; i < 500; i++) {
    const game = (await app.inject({ url: `/games/${id}` })).json();
    if (game.status !== 'running') break;
    const seat = game.pending.seats[0];
    const legal = (await app.inject({ url: `/games/${id}`, headers: bearerHeader(tokens[seat]) })).json().legalCommands;
    await command(app, id, tokens[seat], { command: legal[0] });
  }
  const replay = (await app.inject({ url: `/games/${id}/replay` })).json();
  t.equal(replay.game.status, 'finished', 'a finished game');
  const steps: { seq: number; view: unknown }[] = replay.steps;
  const viewAt = async (version: number) => (await app.inject({ url: `/games/${id}/view?version=${version}&viewer=all` })).json().view;
  const mismatches: number[] = [];
  const order = [...steps.keys(), ...[...steps.keys()].reverse().filter((i) => i % 3 === 0)];
  for (const i of order) if (JSON.stringify(await viewAt(steps[i]!.seq)) !== JSON.stringify(steps[i]!.view)) mismatches.push(steps[i]!.seq);
  t.same(mismatches, [], `all ${steps.length} versions forwards, then every third backwards`);
});
