// POST /games/{id}/rematch: one rematch per finished game, whoever asks and however
// often; each person gets a new token for their seat in it.
import t from 'tap';
import type { App } from '../../src/app.ts';
import { bearerHeader, command, createGame, testApp } from '../helpers/app.ts';

const read = async (app: App, id: string, token?: string | null) => (await app.inject({ url: `/games/${id}`, headers: bearerHeader(token) })).json();
const rematch = (app: App, id: string, token?: string | null) => app.inject({ method: 'POST', url: `/games/${id}/rematch`, headers: bearerHeader(token) });
const hostile = `<img src=x onerror=alert(1)>"'&`;

t.test('a rematch: created once, the same for concurrent and later calls, a new token per call', async (t) => {
  const app = await testApp(t);
  const { id, tokens } = await createGame(app, { type: 'fackel-und-keule', seats: [{ name: hostile }, {}, { bot: 'random' }] });
  t.equal((await rematch(app, id, tokens[0])).json().code, 'game/not-finished', 'not while it runs');
  t.equal((await command(app, id, tokens[1], { command: { type: 'resign' } })).statusCode, 200);
  if ((await read(app, id)).game.status !== 'finished') t.equal((await command(app, id, tokens[0], { command: { type: 'resign' } })).statusCode, 200);
  t.equal((await rematch(app, id)).json().code, 'auth/token-required');
  const other = await createGame(app, { type: 'pechvogel', seats: [{}, {}] });
  t.equal((await rematch(app, id, other.tokens[0])).json().code, 'auth/forbidden', "another game's token");
  t.equal((await read(app, id)).game.rematch, null, 'a refused call creates nothing');

  const [a, b] = await Promise.all([rematch(app, id, tokens[0]), rematch(app, id, tokens[0])]);
  t.equal(a.statusCode, 200, a.body);
  t.equal(b.statusCode, 200, b.body);
  const gameId = a.json().game.id;
  t.equal(b.json().game.id, gameId, 'concurrent calls get the same rematch');
  t.not(a.json().token, b.json().token, 'each call mints its own token');
  t.equal([a, b].filter((r) => r.json().refereeToken !== null).length, 1, 'the referee token goes to the call that created it');
  t.same((await read(app, id)).game.rematch, { gameId }, "the finished game names its rematch");
  const fresh = await read(app, gameId);
  t.same(fresh.game.seats.map((s: { name: string; bot: string | null }) => [s.name, s.bot]), [[hostile, null], ['Player 2', null], ['Random bot 3', 'random']]);
  t.equal(fresh.game.status, 'open');
  t.same(fresh.game.waitingFor, [1], 'seat 0 claimed (arrived); seat 1 not yet');
  const mine = [a, b].map((r) => r.json().token as string);
  const seen = await Promise.all(mine.map(async (token) => (await read(app, gameId, token)).you?.seat ?? null));
  t.same(seen.sort(), [0, null], 'only the latest token holds the seat; the replaced one is refused');

  const second = await rematch(app, id, tokens[1]);
  t.equal(second.json().game.id, gameId, 'a later call by another person: the same rematch');
  t.equal(second.json().seat, 1);
  t.equal(second.json().game.status, 'running', 'every person took their seat: it started');
  t.equal((await read(app, gameId, second.json().token)).you.seat, 1);
});
