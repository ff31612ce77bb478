// The published commitment to a game's seed cannot be brute-forced, however weak the
// seed its creator chose: it covers a random server nonce, revealed with the seed once
// the game is over, when anyone can check it.
import { createHash } from 'node:crypto';
import t from 'tap';
import { bearerHeader, createGame, testApp } from '../helpers/app.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

t.test('a weak seed chosen by the creator: committed with a nonce, revealed and verified at the end', async (t) => {
  const app = await testApp(t);
  const { id, referee, created } = await createGame(app, { type: 'fackel-und-keule', seed: '4823', seats: [{}, {}, {}] });
  const published = created.game as unknown as { seedHash: string; seed: string | null; seedNonce: string | null; seedChosenBy: string | null };
  t.not(published.seedHash, sha256('4823'), 'the commitment is not the bare hash of the seed');
  t.equal(published.seed, null, 'the seed is secret while the game runs');
  t.equal(published.seedNonce, null, 'and so is the nonce');
  t.equal(published.seedChosenBy, 'creator', 'the summary says the creator chose the seed');
  t.match(published.seedHash, /^[0-9a-f]{64}$/);
  // Every four-digit seed, hashed bare, as a spectator would try: none is the commitment.
  const found = Array.from({ length: 10_000 }, (_, n) => String(n)).find((s) => sha256(s) === published.seedHash);
  t.equal(found, undefined, 'a search over short seeds finds nothing');

  t.equal((await app.inject({ method: 'POST', url: `/games/${id}/abort`, headers: bearerHeader(referee) })).statusCode, 200);
  const over = (await app.inject({ url: `/games/${id}` })).json().game;
  t.equal(over.seed, '4823', 'the seed is revealed at the end');
  t.match(over.seedNonce, /^[0-9a-f]{32}$/, 'with the nonce');
  t.equal(sha256(`${over.seedNonce}:${over.seed}`), published.seedHash, 'which verify the commitment published at creation');
  const listed = (await app.inject({ url: '/games?limit=10' })).json().games.find((g: { id: string }) => g.id === id);
  t.equal(listed.seedNonce, over.seedNonce, 'the list shows them too');

  const server = await createGame(app, { type: 'pechvogel', seats: [{}, {}] });
  t.equal((server.created.game as unknown as { seedChosenBy: string }).seedChosenBy, 'server', 'a seed the server drew says so');
});
