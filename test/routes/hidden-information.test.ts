// Hidden information through every door: a seat never sees another seat's hand,
// pending choice or face-down chips — not in its view, not in the event log, not in
// command answers, not in WebSocket pushes — until the rules reveal them.
import t from 'tap';
import { botsFor, seededRng } from '../../src/bots/index.ts';
import { bearerHeader as auth, command, createGame, testApp } from '../helpers/app.ts';

/** The ids from `ids` that appear in any JSON array named `key` in `text`. */
function containsAny(text: string, ids: readonly number[], key: string): number[] {
  // Card ids are small numbers, so look for them only inside the named arrays.
  const found: number[] = [];
  for (const match of text.matchAll(new RegExp(`"${key}":\\[([0-9,]*)\\]`, 'g'))) {
    for (const id of match[1]!.split(',').filter(Boolean).map(Number)) if (ids.includes(id)) found.push(id);
  }
  return found;
}

t.test('Fackel+Keule: hands and chosen cards stay with their seat until the reveal', async (t) => {
  const app = await testApp(t);
  const { id, tokens } = await createGame(app, { type: 'fackel-und-keule', seats: [{}, {}, {}], seed: 'hidden' });
  const me = (await app.inject({ url: `/games/${id}`, headers: auth(tokens[0]) })).json();
  const myHand: number[] = me.view.you.hand;
  t.ok(Array.isArray(myHand) && myHand.length === 5, 'seat 0 sees its own hand of 5');

  // Seat 1 watches over a WebSocket while seat 0 chooses.
  const pushes: string[] = [];
  const watcher = await app.injectWS(`/games/${id}/live`, { headers: auth(tokens[1]) } as never, { onInit: (ws) => ws.on('message', (raw) => pushes.push(raw.toString())) });

  const choice = me.legalCommands.find((c: { cards: number[] }) => c.cards.length === 2);
  const answer = await command(app, id, tokens[0], { command: choice, expectedVersion: me.version });
  t.equal(answer.statusCode, 200);
  t.same(answer.json().events[0].event.cards?.slice().sort(), [...choice.cards].sort(), 'the chooser sees its own choice in the answer');

  const doors = {
    "seat 1's view": (await app.inject({ url: `/games/${id}`, headers: auth(tokens[1]) })).body,
    "a spectator's view": (await app.inject({ url: `/games/${id}` })).body,
    "seat 1's event log": (await app.inject({ url: `/games/${id}/events`, headers: auth(tokens[1]) })).body,
    "a spectator's event log": (await app.inject({ url: `/games/${id}/events` })).body,
    "seat 1's view at this version": (await app.inject({ url: `/games/${id}/view`, headers: auth(tokens[1]) })).body,
  };
  for (let i = 0; i < 50 && pushes.length < 2; i++) await new Promise((r) => setImmediate(r));
  t.ok(pushes.length >= 2, 'seat 1 was pushed the choice');
  for (const [door, body] of Object.entries({ ...doors, "seat 1's pushes": pushes.join('\n') })) {
    for (const key of ['cards', 'hand', 'choice', 'hands', 'choices']) {
      t.same(containsAny(body, myHand, key), [], `${door}: no card of seat 0's hand or choice under "${key}"`);
    }
  }
  t.ok(doors["seat 1's event log"].includes('"commitment"'), 'but everyone sees that seat 0 committed to a choice');
  const peek = await app.inject({ url: `/games/${id}/events?viewer=seat:0`, headers: auth(tokens[1]) });
  t.equal(peek.statusCode, 403, "and nobody may ask for another seat's eyes while the game runs");
  watcher.close();

  // Once everyone has chosen, the choices are revealed to all.
  for (const seat of [1, 2]) {
    const view = (await app.inject({ url: `/games/${id}`, headers: auth(tokens[seat]) })).json();
    t.equal((await command(app, id, tokens[seat], { command: view.legalCommands[0] })).statusCode, 200);
  }
  const log = (await app.inject({ url: `/games/${id}/events?limit=1000`, headers: auth(tokens[1]) })).json();
  const revealed = log.events.find((e: { event: { type: string } }) => e.event.type === 'CardsRevealed');
  t.ok(revealed, 'the reveal is in the log');
  t.match(JSON.stringify(revealed), new RegExp(choice.cards.join('|')), "and shows seat 0's cards to seat 1");
});

/** A two-seat Mistkäfer table whose seats the greedy bot plays from what the API shows
 * them; `read()` is the spectator's read, `read(seat)` that seat's. */
async function mistkaeferTable(t: Parameters<typeof testApp>[0], seed: string) {
  const app = await testApp(t);
  const { id, tokens } = await createGame(app, { type: 'mistkaefer', seats: [{}, {}], seed });
  const greedy = botsFor('mistkaefer')!.greedy!;
  const rng = seededRng(seed);
  const read = async (seat?: number) => (await app.inject({ url: `/games/${id}`, headers: seat === undefined ? {} : auth(tokens[seat]) })).json();
  return { app, id, tokens, greedy, rng, read };
}

t.test("Mistkäfer: a seat sees the kinds of its own chips and only the count of others'", async (t) => {
  const { app, id, tokens, greedy, rng, read } = await mistkaeferTable(t, 'chips');
  let owner = -1;
  for (let step = 0; step < 300 && owner < 0; step++) {
    const seat = (await read()).pending.seats[0];
    const mine = await read(seat);
    // The strategy bot plays both seats from what the API shows them.
    const pick = greedy.choose({ view: mine.view, seat, legal: mine.legalCommands }, rng);
    t.equal((await command(app, id, tokens[seat], { command: pick })).statusCode, 200);
    owner = (await read()).view.hands.findIndex((h: { count: number }) => h.count > 0);
  }
  t.ok(owner >= 0, 'somebody won chips');
  const other = 1 - owner;
  const ownerEyes = (await read(owner)).view.hands[owner];
  t.equal(ownerEyes.kinds.length, ownerEyes.count, 'the owner sees the kind of each of its chips');
  const otherEyes = (await read(other)).view.hands[owner];
  t.same(otherEyes, { count: ownerEyes.count, kinds: null }, "the other seat sees only how many the owner has");
  t.same((await read()).view.hands[owner], { count: ownerEyes.count, kinds: null }, 'and so does a spectator');
  const otherLog = (await app.inject({ url: `/games/${id}/events?limit=1000`, headers: auth(tokens[other]) })).json();
  const ownersTakes = otherLog.events.filter((e: { event: { type: string; seat: number } }) => e.event.type === 'ChipsTaken' && e.event.seat === owner);
  t.ok(ownersTakes.length > 0, "the other seat's log shows that the owner took chips");
  t.ok(ownersTakes.every((e: { event: { chips: unknown } }) => e.event.chips === null), 'but not which');
  const ownLog = (await app.inject({ url: `/games/${id}/events?limit=1000`, headers: auth(tokens[owner]) })).json();
  t.ok(ownLog.events.some((e: { event: { type: string; seat: number; chips: unknown } }) => e.event.type === 'ChipsTaken' && e.event.seat === owner && Array.isArray(e.event.chips)), 'while the owner sees its own');
});

t.test("Mistkäfer: no result shows anything before the end; then the result turns every seat's chips face up", async (t) => {
  const { app, id, tokens, greedy, rng, read } = await mistkaeferTable(t, 'face up');
  let steps = 0;
  let running = true;
  while (running && steps++ < 3000) {
    const seen = await Promise.all([read(0), read(1), read()]);
    running = seen[2].status === 'running';
    if (!running) break;
    // The only place the chips turn face up is the result, and a running game has none.
    if (!t.ok(seen.every((s) => s.result === null), `no result while the game runs (step ${steps})`)) break;
    const seat = seen[2].pending.seats[0];
    const pick = greedy.choose({ view: seen[seat].view, seat, legal: seen[seat].legalCommands }, rng);
    t.equal((await command(app, id, tokens[seat], { command: pick })).statusCode, 200);
  }
  t.ok(!running, `the game ended (after ${steps} commands)`);
  const result = (await read()).result;
  for (const seat of [0, 1]) {
    // Each seat's own view shows its chips: the result shows what they count to everyone.
    const kinds: string[] = (await read(seat)).view.hands[seat].kinds;
    const faces = ['oneDungBall', 'twoDungBalls', 'cloverLeaf'].map((face) => kinds.filter((k) => k === face).length);
    t.same(result.breakdown[seat].slice(0, 3).map((p: { count: number }) => p.count), faces, `seat ${seat}'s chips are in the result, face up: ${faces.join(', ')} of one dung ball, two and a clover leaf`);
    t.equal(result.breakdown[seat].reduce((sum: number, p: { points: number }) => sum + p.points, 0), result.scores[seat], `seat ${seat}'s parts add up to its score`);
  }
});
