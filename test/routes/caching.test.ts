// HTTP caching and compression of game reads (src/routes/caching.ts): a finished
// game's answers are immutable (ETag, a year's max-age, 304 on If-None-Match), a
// running game's are never kept, a token's answer is private and varies by it; the
// replay also streams as NDJSON, read from the store a batch at a time.
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import t from 'tap';
import { buildApp, type App } from '../../src/app.ts';
import { unchanged } from '../../src/reads/game-reads.ts';
import { bearerHeader, command, createGame, testApp } from '../helpers/app.ts';
import { testDatabase } from '../helpers/database.ts';

/** A Fackel+Keule game (hands hidden from the other seats) played to its end. */
async function finishedGame(app: App, seed: string) {
  const game = await createGame(app, { type: 'fackel-und-keule', seats: [{}, {}, {}], seed });
  for (let i = 0; i < 500; i++) {
    const now = (await app.inject({ url: `/games/${game.id}` })).json();
    if (now.status !== 'running') break;
    const seat = now.pending.seats[0];
    const legal = (await app.inject({ url: `/games/${game.id}`, headers: bearerHeader(game.tokens[seat]) })).json().legalCommands;
    await command(app, game.id, game.tokens[seat], { command: legal[0] });
  }
  return game;
}

const yearLong = 'max-age=31536000, immutable';

t.test('a running game\'s answers are never kept, and a token\'s answer is private', async (t) => {
  const app = await testApp(t);
  const { id, tokens } = await createGame(app, { type: 'fackel-und-keule', seats: [{}, {}, {}], seed: 'running-cache' });
  const seat = await app.inject({ url: `/games/${id}`, headers: bearerHeader(tokens[0]) });
  t.equal(seat.headers['cache-control'], 'private, no-store', 'a seat\'s view of a running game is never stored');
  t.equal(seat.headers.vary, 'authorization');
  t.notOk(seat.headers.etag, 'no tag while the game runs');
  const spectator = await app.inject({ url: `/games/${id}/view?version=1` });
  t.equal(spectator.headers['cache-control'], 'no-cache');
  t.equal(spectator.headers.vary, 'authorization', 'a shared cache keeps the spectator\'s answer apart from a seat\'s');
  const replay = await app.inject({ url: `/games/${id}/replay` });
  t.equal(replay.statusCode, 409);
  t.equal(replay.headers['cache-control'], 'no-store', 'a refusal is never kept');
  t.notOk(replay.headers.etag);
});

t.test('a finished game\'s reads carry an ETag and a year\'s max-age, and If-None-Match answers 304', async (t) => {
  const app = await testApp(t);
  const { id, tokens } = await finishedGame(app, 'finished-cache');

  const anonymous = await app.inject({ url: `/games/${id}` });
  t.equal(anonymous.json().game.status, 'finished');
  t.equal(anonymous.headers['cache-control'], 'public, no-cache', 'the summary is revalidated while the game has no rematch: the rematch link is still to come');
  t.equal(anonymous.headers.vary, 'authorization');
  const etag = anonymous.headers.etag as string;
  t.match(etag, /^W\/"[\w-]+"$/);
  const again = await app.inject({ url: `/games/${id}`, headers: { 'if-none-match': etag } });
  t.equal(again.statusCode, 304, 'the client holds it already');
  t.equal(again.body, '', 'so nothing is sent');
  t.equal(again.headers.etag, etag);
  // A seat's page showed "Rematch" for good: its browser kept the answer as immutable.
  const rematch = await app.inject({ method: 'POST', url: `/games/${id}/rematch`, headers: bearerHeader(tokens[0]) });
  t.equal(rematch.statusCode, 200);
  const after = await app.inject({ url: `/games/${id}`, headers: { 'if-none-match': etag } });
  t.equal(after.statusCode, 200, 'once the rematch is made, the old tag no longer holds');
  t.same(after.json().game.rematch, { gameId: rematch.json().game.id });
  t.equal(after.headers['cache-control'], `public, ${yearLong}`, 'and the summary never changes again');
  t.not(after.headers.etag, etag);

  // Hidden information: each seat's answer is its own, private, and tagged apart.
  const seat0 = await app.inject({ url: `/games/${id}/view?version=5`, headers: bearerHeader(tokens[0]) });
  const seat1 = await app.inject({ url: `/games/${id}/view?version=5`, headers: bearerHeader(tokens[1]) });
  t.notSame(seat0.json().view, seat1.json().view, 'the seats saw version 5 differently');
  t.equal(seat0.headers['cache-control'], `private, ${yearLong}`, 'a seat\'s answer is for its own cache only');
  t.not(seat0.headers.etag, seat1.headers.etag);
  const borrowed = await app.inject({ url: `/games/${id}/view?version=5`, headers: { ...bearerHeader(tokens[1]), 'if-none-match': seat0.headers.etag as string } });
  t.equal(borrowed.statusCode, 200, 'another seat\'s tag does not stand for this seat\'s answer');
  t.same(borrowed.json().view, seat1.json().view);
  const same = await app.inject({ url: `/games/${id}/view?version=5`, headers: { ...bearerHeader(tokens[0]), 'if-none-match': `"x", ${seat0.headers.etag}` } });
  t.equal(same.statusCode, 304, 'one of several tags matches');
  t.not((await app.inject({ url: `/games/${id}/view?version=6`, headers: bearerHeader(tokens[0]) })).headers.etag, seat0.headers.etag, 'another version, another tag');

  const events = await app.inject({ url: `/games/${id}/events?after=0&limit=10` });
  t.equal(events.headers['cache-control'], `public, ${yearLong}`);
  t.equal((await app.inject({ url: `/games/${id}/events?after=0&limit=10`, headers: { 'if-none-match': events.headers.etag as string } })).statusCode, 304);

  const wrong = await app.inject({ url: `/games/${id}/view?version=100000`, headers: { 'if-none-match': '*' } });
  t.equal(wrong.statusCode, 400, 'a bad request is refused before any tag is matched');
  t.equal(wrong.headers['cache-control'], 'no-store');
  t.notOk(wrong.headers.etag);

  const replay = await app.inject({ url: `/games/${id}/replay` });
  t.equal(replay.headers['cache-control'], `public, ${yearLong}`);
  t.equal(replay.headers.vary, 'accept', 'JSON and NDJSON are two answers');
  t.equal((await app.inject({ url: `/games/${id}/replay`, headers: { 'if-none-match': replay.headers.etag as string } })).statusCode, 304);
  const lines = await app.inject({ url: `/games/${id}/replay`, headers: { accept: 'application/x-ndjson', 'if-none-match': replay.headers.etag as string } });
  t.equal(lines.statusCode, 200, 'the JSON replay\'s tag does not stand for the NDJSON one');
  t.not(lines.headers.etag, replay.headers.etag);
  t.equal((await app.inject({ url: `/games/${id}/replay`, headers: { accept: 'application/x-ndjson', 'if-none-match': lines.headers.etag as string } })).statusCode, 304);
});

t.test('the replay streams as NDJSON, a batch of events at a time, and both forms compress', async (t) => {
  const app = await testApp(t);
  const { id } = await finishedGame(app, 'ndjson');
  const replay = (await app.inject({ url: `/games/${id}/replay` })).json();

  const response = await app.inject({ url: `/games/${id}/replay`, headers: { accept: 'application/x-ndjson' } });
  t.equal(response.statusCode, 200);
  t.match(response.headers['content-type'], /^application\/x-ndjson/);
  const lines = response.body.trimEnd().split('\n').map((line) => JSON.parse(line));
  t.same(lines[0], { kind: 'start', gameType: 'fackel-und-keule', game: replay.game, initialView: replay.initialView }, 'first the game');
  t.same(lines.slice(1, -1), replay.steps.map((step: object) => ({ kind: 'step', gameType: 'fackel-und-keule', ...step })), 'then every step, in order');
  t.same(lines.at(-1), { kind: 'end', gameType: 'fackel-und-keule', result: replay.result }, 'then the result');

  // The store is read a bounded batch at a time, as the client takes the lines.
  const { store, reads } = app.services;
  const read = store.readEvents.bind(store);
  const limits: (number | undefined)[] = [];
  store.readEvents = (gameId, after, limit, upTo) => {
    limits.push(limit);
    return read(gameId, after, limit, upTo);
  };
  const batches = await reads.replayLines(id, undefined, 7);
  if (batches === unchanged) throw new Error('no tag was given');
  const sizes: number[] = [];
  for await (const batch of batches) sizes.push(batch.length);
  t.ok(limits.length >= Math.ceil(replay.steps.length / 7), `${limits.length} reads for ${replay.steps.length} events`);
  t.ok(limits.every((limit) => limit === 7), 'each of at most 7 events');
  t.ok(sizes.every((size) => size <= 7), 'and each batch of lines as small');
  store.readEvents = read;

  const gzipped = await app.inject({ url: `/games/${id}/replay`, headers: { 'accept-encoding': 'gzip' } });
  t.equal(gzipped.headers['content-encoding'], 'gzip');
  t.same(JSON.parse(gunzipSync(gzipped.rawPayload).toString()), replay, 'the JSON replay, gzipped');
  t.ok(gzipped.rawPayload.length * 4 < JSON.stringify(replay).length, `${gzipped.rawPayload.length} bytes instead of ${JSON.stringify(replay).length}`);
  const streamed = await app.inject({ url: `/games/${id}/replay`, headers: { accept: 'application/x-ndjson', 'accept-encoding': 'br' } });
  t.equal(streamed.headers['content-encoding'], 'br');
  t.equal(brotliDecompressSync(streamed.rawPayload).toString(), response.body, 'the NDJSON replay, in brotli');
});

t.test('Vary adds to what CORS says rather than replacing it', async (t) => {
  const database = await testDatabase(t);
  const app = await buildApp({ prisma: database.prisma, pool: database.pool, background: false, corsOrigins: ['https://play.example.org'] });
  t.teardown(() => app.close());
  const { id } = await createGame(app, { type: 'pechvogel', seats: [{}, {}] });
  const response = await app.inject({ url: `/games/${id}`, headers: { origin: 'https://play.example.org' } });
  t.equal(response.headers['access-control-allow-origin'], 'https://play.example.org');
  t.same(String(response.headers.vary).split(', ').sort(), ['Origin', 'authorization'], 'both the origin and the token');
});
