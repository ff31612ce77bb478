// Watching a game over a WebSocket: every version in order, commands over the socket,
// a reconnect with catch-up, and pushes from another server instance's commits.
import pg from 'pg';
import t from 'tap';
import { buildApp, type App } from '../../src/app.ts';
import { createClients } from '../../src/db/client.ts';
import { testDatabase } from '../helpers/database.ts';
import { command, createGame, testApp } from '../helpers/app.ts';
import { connect } from '../helpers/ws.ts';
import { onCitus } from '../helpers/citus.ts';


/** Plays the pending seat's first legal command over HTTP. */
async function playOne(app: App, id: string, tokens: (string | null)[]) {
  const game = (await app.inject({ url: `/games/${id}` })).json();
  const seat = game.pending.seats[0];
  const mine = (await app.inject({ url: `/games/${id}`, headers: { authorization: `Bearer ${tokens[seat]}` } })).json();
  const answer = await command(app, id, tokens[seat], { command: mine.legalCommands[0], expectedVersion: mine.version });
  return answer.json();
}

t.test('a spectator sees every version in order and catches up after a reconnect', async (t) => {
  const app = await testApp(t);
  const { id, tokens } = await createGame(app, { type: 'pechvogel', seats: [{}, {}], seed: 'live' });
  const watcher = await connect(app, `/games/${id}/live`);
  const first = await watcher.next();
  t.equal(first.type, 'update');
  t.same(first.events.map((e: { seq: number }) => e.seq), Array.from({ length: first.version }, (_, i) => i + 1), 'the first update catches up from the start');
  t.same(first.legalCommands, [], 'a spectator has no legal commands');

  let seen = first.version;
  for (let i = 0; i < 6; i++) {
    const answer = await playOne(app, id, tokens);
    const update = await watcher.next();
    t.equal(update.version, answer.version, 'each command is pushed as its own version');
    t.same(update.events.map((e: { seq: number }) => e.seq), Array.from({ length: update.version - seen }, (_, k) => seen + k + 1), 'in order, without gaps');
    t.same(update.view, (await app.inject({ url: `/games/${id}` })).json().view, 'with the spectator view of that version');
    seen = update.version;
  }
  watcher.socket.close();

  const missedFrom = seen;
  const a = await playOne(app, id, tokens);
  const b = await playOne(app, id, tokens);
  const again = await connect(app, `/games/${id}/live?after=${missedFrom}`);
  const catchUp = await again.next();
  t.equal(catchUp.version, b.version);
  t.same(catchUp.events.map((e: { seq: number }) => e.seq), Array.from({ length: b.version - missedFrom }, (_, k) => missedFrom + k + 1), 'a reconnect with after=N gets exactly what it missed');
  t.ok(a.version > missedFrom);
  const logged = (await app.inject({ url: `/games/${id}/events?after=${missedFrom}` })).json().events.map(({ seq, event }: { seq: number; event: unknown }) => ({ seq, event }));
  t.same(catchUp.events, logged, 'redacted as the event log shows them to a spectator');
  t.same(catchUp.view, (await app.inject({ url: `/games/${id}` })).json().view, 'with the current spectator view');
  again.socket.close();
});

t.test('a seat sends commands over its socket and gets an ack and the update', async (t) => {
  const app = await testApp(t);
  const { id, tokens } = await createGame(app, { type: 'pechvogel', seats: [{}, {}], seed: 'ws-commands' });
  const seat0 = await connect(app, `/games/${id}/live?token=${tokens[0]}`);
  const hello = await seat0.next();
  t.same(hello.legalCommands, [{ type: 'throw' }], 'the seat gets its own legal commands');

  seat0.socket.send(JSON.stringify({ type: 'command', id: 'c1', command: { type: 'throw' }, expectedVersion: hello.version }));
  const messages = [await seat0.next(), await seat0.next()];
  const ack = messages.find((m) => m.type === 'ack');
  const update = messages.find((m) => m.type === 'update');
  t.equal(ack?.id, 'c1', 'the ack names the command');
  t.equal(ack?.version, update?.version, 'and the push carries the same version');
  t.same(update?.legalCommands, ack?.legalCommands, "with the seat's own legal commands");
  t.same(update?.view, ack?.view, 'and the same view');

  seat0.socket.send(JSON.stringify({ type: 'command', id: 'c2', command: { type: 'throw' }, expectedVersion: hello.version }));
  const stale = await seat0.next();
  t.equal(stale.type, 'error');
  t.equal(stale.id, 'c2');
  t.equal(stale.problem.code, 'command/stale-version', 'a refused command comes back as a problem');

  seat0.socket.send('not json');
  const bad = await seat0.next();
  t.equal(bad.problem.code, 'request/invalid', 'garbage is answered, not fatal');
  t.notOk('id' in bad, 'without an id to name');

  // A refusal names the message whenever its id can be read, whatever else is wrong with it.
  const malformed: [string, object][] = [
    ['a NUL in its idempotency key', { type: 'command', id: 'c3', command: { type: 'throw' }, idempotencyKey: 'a\u0000b' }],
    ['no command', { type: 'command', id: 'c4' }],
    ['an unknown message type', { type: 'subscribe', id: 'c5' }],
    ['a field of the wrong type', { type: 'command', id: 'c6', command: { type: 'throw' }, expectedVersion: 'one' }],
  ];
  for (const [what, message] of malformed) {
    seat0.socket.send(JSON.stringify(message));
    const refused = await seat0.next();
    t.equal(refused.problem.code, 'request/invalid', `${what}: request/invalid`);
    t.equal(refused.id, (message as { id: string }).id, `${what}: the error names the message`);
  }
  seat0.socket.close();
});

t.test('a socket with a wrong token or for an unknown game is refused with a close code', async (t) => {
  const app = await testApp(t);
  const { id } = await createGame(app, { type: 'pechvogel', seats: [{}, {}] });
  const wrong = await connect(app, `/games/${id}/live?token=nope`);
  t.equal((await wrong.next()).problem.code, 'auth/forbidden');
  t.same(await wrong.closed, { code: 4403, reason: 'auth/forbidden' });
  const unknown = await connect(app, '/games/00000000-0000-4000-8000-000000000000/live');
  t.equal((await unknown.next()).problem.code, 'game/not-found');
  t.equal((await unknown.closed).code, 4404);
});

t.test('commits on another instance reach this instance\'s watchers through Postgres notifications', async (t) => {
  const database = await testDatabase(t);
  const watching = await testApp(t, { database });
  const otherClients = createClients(database.url, { poolSize: 2 });
  t.teardown(() => otherClients.close());
  const other = await buildApp({ ...otherClients, notifyUrl: database.url, scheduler: { timers: false }, resyncMs: 60_000, distributed: onCitus() });
  t.teardown(() => other.close());

  const { id, tokens } = await createGame(other, { type: 'pechvogel', seats: [{}, {}], seed: 'cross-instance' });
  const watcher = await connect(watching, `/games/${id}/live`);
  const first = await watcher.next();
  const answer = await playOne(other, id, tokens);
  const update = await watcher.next();
  t.equal(update.version, answer.version, 'the other instance\'s command is pushed here');
  t.ok(update.version > first.version);
  watcher.socket.close();
});

t.test("an update from another instance's commit carries the status of its own last event, not of a commit made since", async (t) => {
  const database = await testDatabase(t);
  const watching = await testApp(t, { database });
  const other = await testApp(t, { database });
  const { id, tokens, referee } = await createGame(other, { type: 'pechvogel', seats: [{}, {}], seed: 'status-race' });
  const watcher = await connect(watching, `/games/${id}/live`);
  await watcher.next();
  // While this instance reads a move of the other's for its watchers, the referee
  // aborts the game there: the abort commits in the middle of the read.
  const { store } = watching.services;
  const readEvents = store.readEvents.bind(store);
  let aborting: Promise<unknown> | null = null;
  store.readEvents = async (...args) => {
    const events = await readEvents(...args);
    aborting ??= other.inject({ method: 'POST', url: `/games/${id}/abort`, headers: { authorization: `Bearer ${referee}` } });
    await aborting;
    return events;
  };
  t.teardown(() => void (store.readEvents = readEvents));
  const moved = await playOne(other, id, tokens);
  const update = await watcher.next();
  t.equal(update.version, moved.version, 'the move is pushed');
  t.equal(update.status, 'running', 'as the game was after it: not finished before its final event');
  const last = await watcher.next();
  t.equal(last.status, 'finished', 'then the abort');
  t.same(last.events.map((e: { event: { type: string } }) => e.event.type), ['GameAborted']);
  watcher.socket.close();
});

t.test('without a notification, the periodic check catches watchers up with another instance\'s commits', async (t) => {
  const database = await testDatabase(t);
  const other = await testApp(t, { database });
  // An instance that hears no notifications (as after a lost connection): only resync helps.
  const deaf = await buildApp({ prisma: database.prisma, pool: database.pool, scheduler: { timers: false } });
  await deaf.ready();
  t.teardown(() => deaf.close());

  const games = await Promise.all([0, 1].map((n) => createGame(other, { type: 'pechvogel', seats: [{}, {}], seed: `resync-${n}` })));
  const watchers = await Promise.all(games.map(({ id }) => connect(deaf, `/games/${id}/live`)));
  const first = await Promise.all(watchers.map((w) => w.next()));
  const answers: { version: number }[] = [];
  for (const { id, tokens } of games) answers.push(await playOne(other, id, tokens));
  await deaf.services.hub.resync();
  const updates = await Promise.all(watchers.map((w) => w.next()));
  t.same(updates.map((u) => u.version), answers.map((a) => a.version), 'each watched game is caught up to its own version');
  t.same(
    updates.map((u) => u.events.map((e: { seq: number }) => e.seq)),
    first.map((f, i) => Array.from({ length: answers[i]!.version - f.version }, (_, k) => f.version + k + 1)),
    'with the events it missed, in order',
  );
  for (const w of watchers) w.socket.close();
});

t.test('a WebSocket message over the size limit closes the connection (1009)', async (t) => {
  const app = await testApp(t);
  const { id, tokens } = await createGame(app, { type: 'pechvogel', seats: [{}, {}] });
  const seat0 = await connect(app, `/games/${id}/live?token=${tokens[0]}`);
  await seat0.next();
  seat0.socket.send(JSON.stringify({ type: 'command', command: { type: 'throw', pad: 'x'.repeat(70_000) } }));
  t.equal((await seat0.closed).code, 1009, 'message too big');
  t.equal((await app.inject({ url: `/games/${id}/events` })).json().events.length, (await app.inject({ url: `/games/${id}` })).json().version, 'nothing was appended');
});

t.test('closing the app says goodbye to sockets with 1001', async (t) => {
  const app = await testApp(t);
  const { id } = await createGame(app, { type: 'pechvogel', seats: [{}, {}] });
  const watcher = await connect(app, `/games/${id}/live`);
  await watcher.next();
  await app.close();
  t.equal((await watcher.closed).code, 1001);
});

const inline = { skip: onCitus() && 'on Citus every append is announced after its commit (docs/scaling.md)' };

t.test('a statement that goes alone carries its notifications: a command alone, and a batch alone (one beside another: test/events/group-commit.test.ts)', inline, async (t) => {
  const app = await testApp(t);
  const listener = new pg.Client({ connectionString: app.databaseUrl });
  await listener.connect();
  t.teardown(() => listener.end());
  const heard: string[] = [];
  listener.on('notification', (message) => heard.push(message.payload ?? ''));
  await listener.query('LISTEN spielwerk_game');
  // Every statement of this process, to tell the append from a separate announcement.
  const statements: string[] = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const config = args[0] as string | { text?: string };
    statements.push(typeof config === 'string' ? config : config.text ?? '');
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  t.teardown(() => void (pg.Client.prototype.query = query));
  const until = async (done: () => boolean) => {
    for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
  };

  const { id, tokens } = await createGame(app, { type: 'pechvogel', seats: [{}, {}], seed: 'notify-alone' });
  await until(() => heard.length > 0);
  heard.length = 0;
  statements.length = 0;
  const answer = await playOne(app, id, tokens);
  await until(() => heard.length > 0);
  t.match(heard, [new RegExp(`^${id}:${answer.version}:[0-9a-f-]+:\\d+$`)], 'one notification of the new version, signed by the instance and timed by the database');
  t.equal(statements.filter((s) => s.includes('pg_notify')).length, 1, 'sent by one statement');
  t.equal(statements.filter((s) => s.includes('pg_notify') && s.includes('INSERT INTO event')).length, 1, 'the append itself');
  t.equal(statements.filter((s) => s.includes('unnest')).length, 0, 'no separate announcement');

  const games = await Promise.all([0, 1, 2].map((i) => createGame(app, { type: 'pechvogel', seats: [{}, {}], seed: `notify-batch-${i}` })));
  const pending = await Promise.all(games.map(async ({ id: gameId, tokens: seatTokens }) => {
    const seat = (await app.inject({ url: `/games/${gameId}` })).json().pending.seats[0];
    const mine = (await app.inject({ url: `/games/${gameId}`, headers: { authorization: `Bearer ${seatTokens[seat]}` } })).json();
    return { gameId, token: seatTokens[seat]!, command: mine.legalCommands[0], version: mine.version as number };
  }));
  // Every game's own announcements (a game may be announced more than once as it is
  // made) are heard before counting, or a late one would count among the batch's.
  await until(() => pending.every((p) => heard.some((h) => h.startsWith(`${p.gameId}:${p.version}:`))));
  heard.length = 0;
  statements.length = 0;
  // Decided in one turn, so their appends share one statement.
  const { commands } = app.services;
  const answers = await Promise.all(pending.map((p) => commands.handle({ gameId: p.gameId, caller: { kind: 'token', token: p.token }, command: p.command, expectedVersion: p.version })));
  await until(() => heard.length >= 3);
  t.equal(statements.filter((s) => s.includes('jsonb_to_recordset')).length, 1, 'the three appends went in one statement');
  t.equal(statements.filter((s) => s.includes('pg_notify') && s.includes('jsonb_to_recordset')).length, 1, 'which carried their notifications');
  t.equal(statements.filter((s) => s.includes('unnest')).length, 0, 'no separate announcement');
  t.same(heard.map((h) => h.split(':').slice(0, 2).join(':')).sort(), answers.map((a, i) => `${pending[i]!.gameId}:${a.version}`).sort(), 'each game at its new version');
});
