// Per-client rate limits on creating games and on commands: past the limit a 429
// problem with Retry-After, nothing created; other clients (addresses) are not held back.
import t from 'tap';
import { buildApp } from '../../src/app.ts';
import { testDatabase } from '../helpers/database.ts';
import { bearerHeader, createOrganizer, testAdminKey } from '../helpers/app.ts';

t.test('creating games and sending commands are limited per client address', async (t) => {
  const database = await testDatabase(t);
  const app = await buildApp({ prisma: database.prisma, pool: database.pool, scheduler: { timers: false }, rateLimits: { gamesPerMinute: 3, commandsPerSecond: 2 } });
  t.teardown(() => app.close());
  const create = (remoteAddress: string) => app.inject({ method: 'POST', url: '/games', payload: { type: 'pechvogel', seats: [{}, {}] }, remoteAddress });
  const created = [];
  for (let i = 0; i < 3; i++) created.push(await create('198.51.100.1'));
  t.same(created.map((r) => r.statusCode), [201, 201, 201], 'up to the limit');
  const refused = await create('198.51.100.1');
  t.equal(refused.statusCode, 429, 'then refused');
  t.match(refused.headers['content-type'], /^application\/problem\+json/);
  t.equal(refused.json().code, 'request/rate-limited');
  t.ok(Number(refused.headers['retry-after']) > 0, 'with Retry-After');
  t.equal((await create('198.51.100.2')).statusCode, 201, 'another address is not held back');
  t.equal((await app.inject({ url: '/games?limit=100' })).json().games.length, 4, 'the refused one created nothing');

  const { game, seats } = created[0]!.json() as { game: { id: string }; seats: { token: string }[] };
  const send = () => app.inject({ method: 'POST', url: `/games/${game.id}/commands`, headers: { authorization: `Bearer ${seats[1]!.token}` }, payload: { command: { type: 'throw' } }, remoteAddress: '198.51.100.3' });
  const statuses = [];
  for (let i = 0; i < 3; i++) statuses.push((await send()).statusCode);
  t.same(statuses, [422, 422, 429], 'commands too: two per second, the third refused');
});

t.test("an organizer's API key is limited on its own, apart from its address", async (t) => {
  const database = await testDatabase(t);
  const app = await buildApp({ prisma: database.prisma, pool: database.pool, scheduler: { timers: false }, adminKey: testAdminKey, tournamentPollMs: 0, rateLimits: { gamesPerMinute: 2, commandsPerSecond: 0 } });
  t.teardown(() => app.close());
  const first = await createOrganizer(app, ['games:create'], 'Erster Kreis');
  const second = await createOrganizer(app, ['games:create'], 'Zweiter Kreis');
  const create = (key?: string) =>
    app.inject({ method: 'POST', url: '/games', payload: { type: 'pechvogel', seats: [{}, {}] }, remoteAddress: '198.51.100.7', ...(key === undefined ? {} : { headers: bearerHeader(key) }) });
  const statuses = async (key?: string) => [(await create(key)).statusCode, (await create(key)).statusCode, (await create(key)).statusCode];
  t.same(await statuses(first.key), [201, 201, 429], "the first key's allowance");
  t.same(await statuses(second.key), [201, 201, 429], 'another key from the same address counts apart');
  t.same(await statuses(), [201, 201, 429], 'and so does the address without a key');
});
