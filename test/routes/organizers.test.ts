// Organizers' API keys: created by the admin key, shown once, stored hashed, scoped,
// listable and revocable; a bad key is refused with its own code and changes nothing;
// anonymous play goes on as before.
import t from 'tap';
import { sha256 } from '../../src/access/tokens.ts';
import { testDatabase } from '../helpers/database.ts';
import { bearerHeader, createGame, createOrganizer, testAdminKey, testApp, testClock } from '../helpers/app.ts';

t.test('the admin key creates an organizer whose key is shown once and stored hashed', async (t) => {
  const database = await testDatabase(t);
  const app = await testApp(t, { database });
  const organizer = await createOrganizer(app, ['games:create', 'keys:manage']);
  t.match(organizer.key, /^sw_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
  const rows = await database.prisma.apiKey.findMany();
  t.equal(rows.length, 1);
  t.equal(rows[0]!.secretHash, sha256(organizer.key.split('_').slice(2).join('_')), 'only the secret\'s SHA-256 is stored');
  t.notOk(JSON.stringify(rows).includes(organizer.key.slice(16)), 'the secret itself is nowhere in the table');

  const listed = await app.inject({ method: 'GET', url: `/organizers/${organizer.id}/keys`, headers: bearerHeader(organizer.key) });
  t.equal(listed.statusCode, 200);
  t.same(listed.json().keys.map((k: { id: string; scopes: string[] }) => [k.id, k.scopes]), [[organizer.keyId, ['games:create', 'keys:manage']]]);
  t.notOk(listed.body.includes(organizer.key.slice(16)), 'lists never carry the secret');
});

t.test('only the admin key creates organizers', async (t) => {
  const database = await testDatabase(t);
  const app = await testApp(t, { database });
  const organizer = await createOrganizer(app);
  for (const [headers, code] of [[{}, 'auth/key-required'], [bearerHeader(organizer.key), 'auth/scope-missing']] as const) {
    const refused = await app.inject({ method: 'POST', url: '/organizers', headers, payload: { name: 'x', key: { name: 'k', scopes: ['games:create'] } } });
    t.equal(refused.json().code, code);
  }
  t.equal(await database.prisma.organizer.count(), 1, 'nothing was written');
});

t.test('a game created with a key belongs to the organizer; anonymous games still work', async (t) => {
  const app = await testApp(t);
  const organizer = await createOrganizer(app);
  const owned = await app.inject({ method: 'POST', url: '/games', headers: bearerHeader(organizer.key), payload: { type: 'pechvogel', seats: [{}, {}] } });
  t.equal(owned.statusCode, 201);
  t.equal(owned.json().game.organizerId, organizer.id);
  const anonymous = await createGame(app, { type: 'pechvogel', seats: [{}, {}] });
  t.equal((anonymous.created.game as { organizerId?: string | null }).organizerId, null);
  const mine = await app.inject({ method: 'GET', url: `/games?organizer=${organizer.id}` });
  t.same(mine.json().games.map((g: { id: string }) => g.id), [owned.json().game.id], 'the list filters by organizer');
  const seat = await app.inject({ method: 'GET', url: `/games/${anonymous.id}`, headers: bearerHeader(anonymous.tokens[0]) });
  t.equal(seat.json().you.kind, 'seat', 'seat tokens are no keys and pass through');
});

t.test('a key without the scope, a revoked, an expired or an unknown key: each its code, nothing written', async (t) => {
  const clock = testClock();
  const database = await testDatabase(t);
  const app = await testApp(t, { clock, database });
  const organizer = await createOrganizer(app, ['results:read', 'keys:manage']);
  const gamesBefore = await database.prisma.game.count();
  const create = (key: string) => app.inject({ method: 'POST', url: '/games', headers: bearerHeader(key), payload: { type: 'pechvogel', seats: [{}, {}] } });

  const missing = await create(organizer.key);
  t.equal(missing.statusCode, 403);
  t.equal(missing.json().code, 'auth/scope-missing');
  t.equal(missing.json().scope, 'games:create');
  t.equal(missing.headers['content-type'], 'application/problem+json; charset=utf-8');

  const keysBefore = await database.prisma.apiKey.count();
  for (const expiresAt of [new Date(clock.now - 1000).toISOString(), new Date(clock.now).toISOString()]) {
    const past = await app.inject({ method: 'POST', url: `/organizers/${organizer.id}/keys`, headers: bearerHeader(organizer.key), payload: { name: 'stale', scopes: ['games:create'], expiresAt } });
    t.same([past.statusCode, past.json().code], [400, 'request/invalid'], `a key expiring at ${expiresAt}, not after now, is refused`);
  }
  const pastOrganizer = await app.inject({ method: 'POST', url: '/organizers', headers: bearerHeader(testAdminKey), payload: { name: 'Gestern', key: { name: 'k', scopes: ['games:create'], expiresAt: '2001-01-01T00:00:00Z' } } });
  t.equal(pastOrganizer.json().code, 'request/invalid', "and an organizer's first key too");
  t.equal(await database.prisma.apiKey.count(), keysBefore, 'nothing written');

  const expiring = await app.inject({
    method: 'POST',
    url: `/organizers/${organizer.id}/keys`,
    headers: bearerHeader(organizer.key),
    payload: { name: 'short', scopes: ['games:create'], expiresAt: new Date(clock.now + 60_000).toISOString() },
  });
  t.equal(expiring.statusCode, 201);
  const shortKey: string = expiring.json().key;
  t.equal((await create(shortKey)).statusCode, 201, 'valid until it expires');
  clock.now += 60_000;
  const expired = await create(shortKey);
  t.equal(expired.statusCode, 401);
  t.equal(expired.json().code, 'auth/key-expired');

  const revoked = await app.inject({ method: 'DELETE', url: `/organizers/${organizer.id}/keys/${organizer.keyId}`, headers: bearerHeader(organizer.key) });
  t.equal(revoked.statusCode, 200);
  t.type(revoked.json().revokedAt, 'string');
  const afterRevoke = await app.inject({ method: 'GET', url: `/organizers/${organizer.id}/keys`, headers: bearerHeader(organizer.key) });
  t.equal(afterRevoke.statusCode, 401);
  t.equal(afterRevoke.json().code, 'auth/key-revoked', 'revocation holds at once');

  const forged = `sw_${organizer.keyId}_${'A'.repeat(43)}`;
  t.equal((await create(forged)).json().code, 'auth/key-invalid', 'a right id with a wrong secret');
  t.equal((await create('sw_nonsense')).json().code, 'auth/key-invalid');
  t.equal(await database.prisma.game.count(), gamesBefore + 1, 'only the one valid creation wrote a game');
});

t.test("an organizer's key cannot touch another organizer's keys", async (t) => {
  const app = await testApp(t);
  const first = await createOrganizer(app);
  const second = await createOrganizer(app, undefined, 'Brettspielclub Süd');
  const listed = await app.inject({ method: 'GET', url: `/organizers/${second.id}/keys`, headers: bearerHeader(first.key) });
  t.equal(listed.statusCode, 404);
  t.equal(listed.json().code, 'organizer/not-found');
  const revoked = await app.inject({ method: 'DELETE', url: `/organizers/${second.id}/keys/${second.keyId}`, headers: bearerHeader(first.key) });
  t.equal(revoked.json().code, 'organizer/not-found');
  t.equal((await app.inject({ method: 'GET', url: `/organizers/${second.id}/keys`, headers: bearerHeader(second.key) })).statusCode, 200, 'the other key still works');
  const byAdmin = await app.inject({ method: 'GET', url: `/organizers/${second.id}/keys`, headers: bearerHeader(testAdminKey) });
  t.equal(byAdmin.statusCode, 200, 'the admin key manages every organizer');
});
