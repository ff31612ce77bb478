// Every kind of client mistake gets a problem document with a stable code, never a
// 500, and appends nothing.
import type { InjectOptions } from 'fastify';
import t from 'tap';
import { command, createGame, testApp } from '../helpers/app.ts';

t.test('client mistakes: a clear problem, a stable code, nothing appended', async (t) => {
  const app = await testApp(t);
  const { id, tokens, referee } = await createGame(app, { type: 'pechvogel', seats: [{}, {}], seed: 'bad-input' });
  const logLength = async () => (await app.inject({ url: `/games/${id}/events?limit=1000` })).json().events.length;
  const before = await logLength();
  const { version } = (await app.inject({ url: `/games/${id}` })).json();
  const json = { 'content-type': 'application/json' };
  const seat0 = { authorization: `Bearer ${tokens[0]}` };
  const url = `/games/${id}/commands`;
  const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

  const cases: [string, InjectOptions, number, string][] = [
    ['malformed JSON', { method: 'POST', url, headers: { ...json, ...seat0 }, payload: '{"command":' }, 400, 'request/invalid-json'],
    ['a body that is not JSON', { method: 'POST', url, headers: { 'content-type': 'text/plain', ...seat0 }, payload: 'throw' }, 415, 'request/unsupported-media-type'],
    ['a body over the size limit', { method: 'POST', url, headers: { ...json, ...seat0 }, payload: JSON.stringify({ command: { type: 'throw', pad: 'x'.repeat(70_000) } }) }, 413, 'request/too-large'],
    ['no command', { method: 'POST', url, headers: seat0, payload: { expectedVersion: version } }, 400, 'request/invalid'],
    ['a command of no known shape', { method: 'POST', url, headers: seat0, payload: { command: { type: 'fly' } } }, 400, 'command/invalid'],
    ['a command with wrong fields', { method: 'POST', url, headers: seat0, payload: { command: { type: 'chooseTarget', target: 'eleven' } } }, 400, 'command/invalid'],
    ['a negative expected version', { method: 'POST', url, headers: seat0, payload: { command: { type: 'throw' }, expectedVersion: -1 } }, 400, 'request/invalid'],
    ['a stale expected version', { method: 'POST', url, headers: seat0, payload: { command: { type: 'throw' }, expectedVersion: version - 1 } }, 409, 'command/stale-version'],
    ['no token', { method: 'POST', url, payload: { command: { type: 'throw' } } }, 401, 'auth/token-required'],
    ['a token of no seat', { method: 'POST', url, headers: { authorization: 'Bearer not-a-token' }, payload: { command: { type: 'throw' } } }, 403, 'auth/forbidden'],
    ['a malformed Authorization header', { method: 'POST', url, headers: { authorization: 'Basic abc' }, payload: { command: { type: 'throw' } } }, 400, 'request/invalid'],
    ['a seat acting as another seat', { method: 'POST', url, headers: seat0, payload: { command: { type: 'throw' }, seat: 1 } }, 403, 'auth/forbidden'],
    ['a seat supplying chance', { method: 'POST', url, headers: seat0, payload: { command: { type: 'throw' }, outcomes: [7, 7, 7, 7, 7, 7, 7] } }, 422, 'chance/outcomes-not-allowed'],
    ['the referee acting in a server-chance game', { method: 'POST', url, headers: { authorization: `Bearer ${referee}` }, payload: { command: { type: 'throw' }, seat: 0 } }, 403, 'auth/forbidden'],
    ['out of turn', { method: 'POST', url, headers: { authorization: `Bearer ${tokens[1]}` }, payload: { command: { type: 'throw' } } }, 422, 'pechvogel/'],
    ['an unknown game', { method: 'POST', url: '/games/00000000-0000-4000-8000-000000000000/commands', headers: seat0, payload: { command: { type: 'throw' } } }, 404, 'game/not-found'],
    ['a game id that is no id', { method: 'GET', url: '/games/123' }, 400, 'request/invalid'],
    ['an unknown route', { method: 'GET', url: '/nowhere' }, 404, 'request/no-route'],
    ['a known path with a method it does not have', { method: 'DELETE', url: `/games/${id}?x=1` }, 405, 'request/method-not-allowed'],
    ['a bad page size', { method: 'GET', url: '/games?limit=100000' }, 400, 'request/invalid'],
    ['a forged cursor', { method: 'GET', url: '/games?cursor=bm9wZQ' }, 400, 'request/invalid'],
    ['a bad viewer', { method: 'GET', url: `/games/${id}/events?viewer=god` }, 400, 'request/invalid'],
    // A cursor's parts are compared with the database's columns: each is checked first.
    ['a cursor whose id is no uuid', { method: 'GET', url: `/games?cursor=${cursor(['2026-11-29T12:00:00.000Z', 'x'])}` }, 400, 'request/invalid'],
    ['a cursor dated out of range', { method: 'GET', url: `/games?cursor=${cursor([new Date(-8.64e15).toISOString(), '00000000-0000-4000-8000-000000000000'])}` }, 400, 'request/invalid'],
    ['a cursor that is no pair', { method: 'GET', url: `/games?cursor=${cursor({ at: 1 })}` }, 400, 'request/invalid'],
    // Postgres cannot store U+0000: a NUL anywhere is the client's mistake, not a 500.
    ['a NUL in a query filter', { method: 'GET', url: '/games?type=%00' }, 400, 'request/invalid'],
    ['a NUL in an Idempotency-Key', { method: 'POST', url, headers: { ...seat0, 'idempotency-key': 'a\u0000b' }, payload: { command: { type: 'throw' } } }, 400, 'request/invalid'],
    ['a NUL in a command field', { method: 'POST', url, headers: seat0, payload: { command: { type: 'throw', note: '\u0000' } } }, 400, 'request/invalid'],
    ['a NUL in a join name', { method: 'POST', url: `/games/${id}/join`, payload: { name: 'Ki\u0000m' } }, 400, 'request/invalid'],
    // The NUL scan runs before validation: a body nested 10,000 deep once overflowed its stack (500).
    ['10,000 nested arrays in a command body', { method: 'POST', url, headers: { ...json, ...seat0 }, payload: `{"command":{"type":"throw","note":${'['.repeat(10_000)}${']'.repeat(10_000)}}}` }, 400, 'request/invalid'],
    ['a game option nested 10,000 deep', { method: 'POST', url: '/games', headers: json, payload: `{"type":"pechvogel","seats":[{},{}],"options":{"deep":${'['.repeat(10_000)}${']'.repeat(10_000)}}}` }, 400, 'request/invalid'],
    ['10,000 nested arrays as a body', { method: 'POST', url: `/games/${id}/join`, headers: json, payload: `${'['.repeat(10_000)}${']'.repeat(10_000)}` }, 400, 'request/invalid'],
    ['a live route without Upgrade', { method: 'GET', url: `/games/${id}/live` }, 426, 'request/upgrade-required'],
    ['a path that is not valid percent-encoding', { method: 'GET', url: '/games/%FF' }, 400, 'request/bad-url'],
    ['a path parameter over the length limit', { method: 'GET', url: `/games/${'a'.repeat(150)}` }, 414, 'request/uri-too-long'],
    // One code for one mistake: POST /games refuses the same type with it (422 there).
    ['an unknown catalog entry', { method: 'GET', url: '/catalog/chess' }, 404, 'game/unknown-type'],
  ];
  for (const [name, request, status, code] of cases) {
    const response = await app.inject(request);
    t.equal(response.statusCode, status, `${name}: ${status}`);
    t.match(response.headers['content-type'], /^application\/problem\+json/, `${name}: a problem document`);
    const body = response.json();
    t.ok(body.code.startsWith(code), `${name}: code ${body.code}`);
    t.equal(body.status, status);
    t.type(body.detail, 'string');
    t.equal(body.type, `urn:spielwerk:problem:${body.code}`);
  }
  t.equal(await logLength(), before, 'none of it appended anything');
  t.equal((await app.inject({ url: `/games/${id}` })).json().version, version, 'or moved the game');

  // 405 names the methods the path has (GET's HEAD twin included), whatever its pattern.
  for (const [method, path, allow] of [['DELETE', `/games/${id}`, 'GET, HEAD'], ['POST', '/health', 'GET, HEAD'], ['GET', `/games/${id}/commands/pechvogel`, 'POST'], ['PUT', '/docs/static/index.html', 'GET, HEAD']] as const) {
    const answer = await app.inject({ method, url: path });
    t.equal(answer.statusCode, 405, `${method} ${path}: 405`);
    t.equal(answer.headers.allow, allow, `${method} ${path}: Allow: ${allow}`);
  }
});

t.test('creating games: bad requests are refused and create nothing', async (t) => {
  const app = await testApp(t);
  const cases: [string, unknown, number, string][] = [
    ['an unknown game type', { type: 'chess', seats: [{}, {}] }, 422, 'game/unknown-type'],
    ['too few players', { type: 'pechvogel', seats: [{}] }, 422, 'game/invalid-setup'],
    ['too many players', { type: 'fackel-und-keule', seats: [{}, {}, {}, {}, {}, {}] }, 422, 'game/invalid-setup'],
    ['an option of the wrong type', { type: 'pechvogel', seats: [{}, {}], options: { reactionSeconds: 'soon' } }, 422, 'game/invalid-setup'],
    // A misspelt option would otherwise play the default under the name the client meant.
    ['an option the game does not have', { type: 'porca-miseria', seats: [{}, {}, {}], options: { expret: true } }, 422, 'game/invalid-setup'],
    ['no seats', { type: 'pechvogel', seats: [] }, 400, 'request/invalid'],
    ['an unknown chance mode', { type: 'pechvogel', seats: [{}, {}], chance: 'dice' }, 400, 'request/invalid'],
    ['outcomes with server chance', { type: 'pechvogel', seats: [{}, {}], outcomes: [1] }, 422, 'chance/outcomes-not-allowed'],
    ['open seats with supplied chance', { type: 'pechvogel', seats: [{}, { open: true }], chance: 'supplied' }, 422, 'game/invalid-setup'],
    ['setup outcomes that do not fit', { type: 'fackel-und-keule', seats: [{}, {}, {}], chance: 'supplied', outcomes: ['not-a-card'] }, 422, 'chance/outcome-invalid'],
    ['a NUL in a seat name', { type: 'pechvogel', seats: [{ name: 'A\u0000' }, {}] }, 400, 'request/invalid'],
    ['a NUL in the seed', { type: 'pechvogel', seats: [{}, {}], seed: '\u0000' }, 400, 'request/invalid'],
    ['a NUL in an option key', { type: 'pechvogel', seats: [{}, {}], options: { '\u0000': 1 } }, 400, 'request/invalid'],
  ];
  for (const [name, payload, status, code] of cases) {
    const response = await app.inject({ method: 'POST', url: '/games', payload: payload as object });
    t.equal(response.statusCode, status, `${name}: ${status} (${response.body})`);
    t.equal(response.json().code, code, `${name}: ${code}`);
  }
  t.same((await app.inject({ url: '/games' })).json().games, [], 'no game was created');
});

t.test('open seats: join, then the game starts; a taken seat is refused', async (t) => {
  const app = await testApp(t);
  const { id, tokens } = await createGame(app, { type: 'pechvogel', seats: [{ name: 'Ada' }, { open: true }, { open: true }] });
  t.same(tokens.slice(1), [null, null], 'open seats get no token at creation');
  let game = (await app.inject({ url: `/games/${id}` })).json();
  t.equal(game.status, 'open');
  t.equal(game.version, 0, 'nothing is dealt while seats are open');
  const refused = await command(app, id, tokens[0], { command: { type: 'throw' } });
  t.equal(refused.json().code, 'game/not-running', 'no commands before the game starts');

  const second = (await app.inject({ method: 'POST', url: `/games/${id}/join`, payload: { seat: 2, name: 'Bo' } })).json();
  t.equal(second.seat, 2);
  const again = await app.inject({ method: 'POST', url: `/games/${id}/join`, payload: { seat: 2 } });
  t.equal(again.statusCode, 409);
  t.equal(again.json().code, 'game/seat-unavailable');
  const third = (await app.inject({ method: 'POST', url: `/games/${id}/join`, payload: {} })).json();
  t.equal(third.seat, 1, 'without a seat number the first open seat is taken');

  game = (await app.inject({ url: `/games/${id}` })).json();
  t.equal(game.status, 'running', 'the last seat taken starts the game');
  t.ok(game.version > 0, 'with its setup events');
  t.same(game.game.seats.map((s: { name: string | null }) => s.name), ['Ada', 'Player 2', 'Bo'], 'seat names as given at creation and joining; a seat joined without one is named by its kind');
  const full = await app.inject({ method: 'POST', url: `/games/${id}/join`, payload: {} });
  t.equal(full.json().code, 'game/not-running', 'a running game has no seats to join');
  const mine = (await app.inject({ url: `/games/${id}`, headers: { authorization: `Bearer ${third.token}` } })).json();
  t.same(mine.you, { kind: 'seat', seat: 1 }, 'the joined token is the seat\'s');
});

t.test('the last two seats taken at once start the game exactly once', async (t) => {
  const app = await testApp(t);
  const { id } = await createGame(app, { type: 'pechvogel', seats: [{}, { open: true }, { open: true }], seed: 'race-to-sit' });
  const joins = await Promise.all([1, 2].map((seat) => app.inject({ method: 'POST', url: `/games/${id}/join`, payload: { seat } })));
  t.same(joins.map((j) => j.statusCode), [200, 200]);
  const game = (await app.inject({ url: `/games/${id}` })).json();
  t.equal(game.status, 'running');
  const log = (await app.inject({ url: `/games/${id}/events?limit=1000` })).json();
  t.same(log.events.map((e: { event: { type: string } }) => e.event.type), ['TurnStarted'], "the log holds Pechvogel's setup exactly once");
});
