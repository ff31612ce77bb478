// Group commit: appends of many games share one statement, yet each game keeps its
// own version guard, and a batch that fails as a whole falls back to single appends.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import t from 'tap';
import type { GameEvent } from '../../src/domain/contract.ts';
import { GroupCommit } from '../../src/events/group-commit.ts';
import { type EventStore } from '../../src/events/store.ts';
import { AppendChain, type AppendRequest } from '../../src/events/records.ts';
import { createGame, testApp } from '../helpers/app.ts';
import { countingPool, testDatabase } from '../helpers/database.ts';
import { connect } from '../helpers/ws.ts';

/** Each game's committed version, by id. */
async function versionsOf(store: EventStore, ids: readonly string[]): Promise<Map<string, number>> {
  return new Map(await Promise.all(ids.map(async (id) => [id, (await store.version(id))!] as const)));
}

t.test('a batch commits the games whose version still fits and refuses the rest', async (t) => {
  const app = await testApp(t);
  const { store } = app.services;
  const ids: string[] = [];
  for (let i = 0; i < 6; i++) ids.push((await createGame(app, { type: 'pechvogel', seats: [{}, {}] })).id);
  const versions = await versionsOf(store, ids);
  const at = new Date();
  const request = (id: string, expectedVersion: number, key: string | null = null): AppendRequest => ({
    gameId: id,
    expectedVersion,
    events: [{ type: 'Noted' }, { type: 'NotedAgain' }],
    actor: 'test',
    at,
    commandId: key,
    status: 'running',
    deadline: null,
    idempotency: key === null ? null : { key, requestHash: key, response: { key } },
  });
  const current = (id: string) => versions.get(id)!;
  // Issued in one turn of the event loop, so they travel together.
  const outcomes = await Promise.all(ids.map((id, i) => store.append(request(id, i === 2 ? current(id) - 1 : current(id)))));
  t.same(outcomes, ids.map((_, i) => (i === 2 ? 'conflict' : 'appended')), 'one stale game does not spoil the others');
  for (const [i, id] of ids.entries()) {
    const events = await store.readEvents(id, 0);
    t.same(events.map((e) => e.seq), Array.from({ length: current(id) + (i === 2 ? 0 : 2) }, (_, k) => k + 1), `game ${i}: gap-free`);
  }

  // The same idempotency key twice for one game in a batch is impossible within an
  // instance; across requests it makes the batch fail and every append retry alone.
  const again = await versionsOf(store, ids.slice(0, 2));
  const [a, b] = await Promise.all([
    store.append(request(ids[0]!, again.get(ids[0]!)!, 'k1')),
    store.append(request(ids[1]!, again.get(ids[1]!)!, 'k1')),
  ]);
  t.same([a, b], ['appended', 'appended'], 'a key is per game');
  const replay = (await store.version(ids[0]!))!;
  const [dup, fresh] = await Promise.all([
    store.append(request(ids[0]!, replay, 'k1')),
    store.append(request(ids[3]!, (await store.version(ids[3]!))!)),
  ]);
  t.equal(dup, 'conflict', 'a key used before makes that append a conflict');
  t.equal(fresh, 'appended', 'while the other append in the batch still commits');
  t.equal((await store.readEvents(ids[0]!, 0)).length, replay, 'and the refused append left nothing behind');
});

t.test('a chain of appends goes as one block; once a link fails, the links after it are refused unwritten', async (t) => {
  const app = await testApp(t);
  const { store } = app.services;
  const { id } = await createGame(app, { type: 'pechvogel', seats: [{}, {}] });
  const versionNow = async () => (await store.version(id))!;
  const logLength = async () => (await store.readEvents(id, 0)).length;
  const at = new Date();
  const request = (expectedVersion: number, chain?: AppendChain): AppendRequest => ({
    gameId: id,
    expectedVersion,
    events: [{ type: 'Noted' }, { type: 'NotedAgain' }],
    actor: 'test',
    at,
    commandId: null,
    status: 'running',
    deadline: null,
    idempotency: null,
    chain,
  });
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

  // Another instance appends behind this one's back: a chain decided on the old
  // version fails at its first link, and its second link, whose version would now
  // fit, must not land on a state it was not decided on.
  let v = await versionNow();
  t.equal(await store.append(request(v)), 'appended', 'the other writer');
  const stale = new AppendChain();
  t.same(await Promise.all([store.append(request(v, stale)), store.append(request(v + 2, stale))]), ['conflict', 'conflict'], 'together: the block fails whole');
  t.ok(stale.broken, 'and the chain is broken for whoever decides next');
  t.equal(await logLength(), v + 2, 'nothing of the chain was written');

  // The same when the second link is queued while the first is under way.
  v = await versionNow();
  t.equal(await store.append(request(v)), 'appended', 'the other writer again');
  const late = new AppendChain();
  const first = store.append(request(v, late));
  await nextTurn();
  const second = store.append(request(v + 2, late));
  t.same(await Promise.all([first, second]), ['conflict', 'conflict'], 'one after another: the queued link is refused too');
  t.equal(await logLength(), v + 2, 'and not written');

  // A sound chain commits, in one statement or across two.
  v = await versionNow();
  const sound = new AppendChain();
  t.same(await Promise.all([store.append(request(v, sound)), store.append(request(v + 2, sound))]), ['appended', 'appended'], 'a block of two');
  const third = store.append(request(v + 4, sound));
  await nextTurn();
  const fourth = store.append(request(v + 6, sound));
  t.same(await Promise.all([third, fourth]), ['appended', 'appended'], 'a link queued behind one under way');
  t.equal(await versionNow(), v + 8, 'the game is where the last link leaves it');
  t.same((await store.readEvents(id, 0)).map((e) => e.seq), Array.from({ length: v + 8 }, (_, k) => k + 1), 'gap-free');
});

t.test('appends of several games asked for in one turn go in one statement', async (t) => {
  const database = await testDatabase(t);
  const app = await testApp(t, { database });
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push((await createGame(app, { type: 'pechvogel', seats: [{}, {}] })).id);
  const versions = await versionsOf(app.services.store, ids);
  const counting = countingPool(database.pool);
  let alone = 0;
  const group = new GroupCommit(counting.pool, async () => {
    alone++;
    return 'conflict';
  });
  const at = new Date();
  const outcomes = await Promise.all(
    ids.map((id) =>
      group.append({ gameId: id, expectedVersion: versions.get(id)!, events: [{ type: 'Noted' }], actor: 'test', at, commandId: null, status: 'running', deadline: null, idempotency: null }),
    ),
  );
  t.same(outcomes, ['appended', 'appended', 'appended'], 'every game committed');
  t.equal(counting.queries, 1, 'in one statement');
  t.equal(alone, 0, 'none of them alone');
  t.same(
    [...(await versionsOf(app.services.store, ids))].map(([id, version]) => version - versions.get(id)!),
    [1, 1, 1],
    'each game one event further',
  );
});

t.test("a refused race command's record rides with its game's next append, without making it wait", async (t) => {
  const database = await testDatabase(t);
  const app = await testApp(t, { database });
  const [game, other] = [(await createGame(app, { type: 'pechvogel', seats: [{}, {}] })).id, (await createGame(app, { type: 'pechvogel', seats: [{}, {}] })).id];
  const counting = countingPool(database.pool);
  const group = new GroupCommit(counting.pool, (request) => app.services.store['appendOne'](request, false));
  const at = new Date();
  const versionOf = async (id: string) => (await app.services.store.version(id))!;
  const append = (id: string, expectedVersion: number) =>
    group.append({ gameId: id, expectedVersion, events: [{ type: 'Noted' }], actor: 'test', at, commandId: null, status: 'running', deadline: null, idempotency: null });
  const rider = (id: string, version: number) => ({ id: randomUUID(), game_id: id, version, seat: 1, actor: 'seat:1', command: { type: 'frustrate' }, code: 'pechvogel/already-decided', received_at: at.getTime(), ord: 0 });
  const recorded = async (id: string) => (await app.services.store.raceRefusals.list(id)).length;

  // Its standing still open: the append's guard proves the state it was decided on.
  let v = await versionOf(game);
  const open = group.reserve(rider(game, v));
  let before = counting.queries;
  t.equal(await append(game, v), 'appended', 'the append does not wait for the refusal to stand');
  t.equal(counting.queries - before, 1, 'one statement for both');
  t.ok(open.recorded(), 'the record committed with it');
  t.equal(await recorded(game), 1);
  before = counting.queries;
  await open.confirm();
  // Its id would keep a second write out of the table anyway: count the statements.
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.equal(counting.queries - before, 0, 'confirming it afterwards sends nothing');
  t.equal(await recorded(game), 1, 'confirming it afterwards writes nothing more');

  // Decided on a state the game has left: an append at another version does not write it.
  v = await versionOf(game);
  const stale = group.reserve(rider(game, v - 1));
  t.equal(await append(game, v), 'appended');
  t.notOk(stale.recorded(), 'an append from a later state proves nothing about it');
  stale.cancel();
  const conflicted = group.reserve(rider(game, v + 1));
  t.equal(await append(game, v), 'conflict', 'an append whose guard fails');
  t.notOk(conflicted.recorded(), 'writes no record of its game either');
  conflicted.cancel();
  t.equal(await append(game, v + 1), 'appended');
  t.equal(await recorded(game), 1, 'a cancelled record is never written');

  // Confirmed: the game's next append carries it, in the same statement.
  v = await versionOf(game);
  const confirmed = group.reserve(rider(game, v));
  const written = confirmed.confirm();
  before = counting.queries;
  t.equal(await append(game, v), 'appended');
  await written;
  t.equal(counting.queries - before, 1, 'no statement of its own');
  t.equal(await recorded(game), 2);

  // With no append of its game to ride with, it goes alone after a short wait.
  const alone = group.reserve(rider(other, await versionOf(other)));
  before = counting.queries;
  await alone.confirm();
  t.equal(counting.queries - before, 1, 'a statement of its own');
  t.equal(await recorded(other), 1);
});

t.test('a record that two statements carry is kept once', async (t) => {
  const database = await testDatabase(t);
  const app = await testApp(t, { database });
  const game = (await createGame(app, { type: 'pechvogel', seats: [{}, {}] })).id;
  const row = { id: randomUUID(), game_id: game, version: 1, seat: 0, actor: 'seat:0', command: { type: 'frustrate' }, code: 'pechvogel/already-decided', received_at: Date.now(), ord: 0 };
  // Two instances, say, each writing it: both commit.
  const [first, second] = [new GroupCommit(database.pool, () => Promise.resolve('conflict')), new GroupCommit(database.pool, () => Promise.resolve('conflict'))];
  await Promise.all([first.reserve(row).confirm(), second.reserve(row).confirm()]);
  t.equal((await app.services.store.raceRefusals.list(game)).length, 1);
});

t.test('a statement that goes alone carries its notifications; one beside another is announced after its commit', async (t) => {
  const database = await testDatabase(t);
  const committing = await testApp(t, { database });
  const watching = await testApp(t, { database });
  const ids: string[] = [];
  for (let i = 0; i < 4; i++) ids.push((await createGame(committing, { type: 'pechvogel', seats: [{}, {}] })).id);
  const watchers = await Promise.all(ids.map((id) => connect(watching, `/games/${id}/live`)));
  await Promise.all(watchers.map((w) => w.next()));
  const announced: string[] = [];
  const group = new GroupCommit(database.pool, () => Promise.resolve('conflict'), (request) => {
    announced.push(request.gameId);
    committing.services.store['announce'](request);
  }, committing.services.notifier!.instance);
  const at = new Date();
  const versions = await versionsOf(committing.services.store, ids);
  const aborted: GameEvent = { type: 'GameAborted', by: 'referee' } as GameEvent;
  const abort = (id: string) =>
    group.append({ gameId: id, expectedVersion: versions.get(id)!, events: [aborted], actor: 'test', at, commandId: null, status: 'finished', deadline: null, idempotency: null });
  const heard = async (i: number) => t.equal((await watchers[i]!.next()).version, versions.get(ids[i]!)! + 1, `the other instance heard of game ${i}`);

  // The first two games' statement goes alone, but waits on a lock of the first game's row.
  // Batches of one would go through the append of one (a stub here).
  const lock = new pg.Client({ connectionString: database.url });
  await lock.connect();
  t.teardown(() => lock.end());
  await lock.query('BEGIN');
  await lock.query('SELECT 1 FROM game WHERE id = $1 FOR UPDATE', [ids[0]]);
  const alone = Promise.all([abort(ids[0]!), abort(ids[1]!)]);
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.same(await Promise.all([abort(ids[2]!), abort(ids[3]!)]), ['appended', 'appended'], 'the other two go beside it');
  t.same(announced, [ids[2], ids[3]], 'and are announced after their commit');
  await heard(2);
  await heard(3);
  await lock.query('COMMIT');
  t.same(await alone, ['appended', 'appended']);
  t.same(announced, [ids[2], ids[3]], 'the statement that went alone carried its own notifications');
  await heard(0);
  await heard(1);
});
