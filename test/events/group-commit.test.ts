// Group commit: appends of many games share one statement, yet each game keeps its
// own version guard, and a batch that fails as a whole falls back to single appends.
import t from 'tap';
import { GroupCommit } from '../../src/events/group-commit.ts';
import { type EventStore } from '../../src/events/store.ts';
import { AppendChain, type AppendRequest } from '../../src/events/records.ts';
import { createGame, testApp } from '../helpers/app.ts';
import { countingPool, testDatabase } from '../helpers/database.ts';

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

t.test("a rider's place holds its game's later appends until it is confirmed, then both go in one statement", async (t) => {
  const database = await testDatabase(t);
  const app = await testApp(t, { database });
  const [held, other] = [(await createGame(app, { type: 'pechvogel', seats: [{}, {}] })).id, (await createGame(app, { type: 'pechvogel', seats: [{}, {}] })).id];
  const versions = await versionsOf(app.services.store, [held, other]);
  const counting = countingPool(database.pool);
  const group = new GroupCommit(counting.pool, (request) => app.services.store['appendOne'](request, false));
  const at = new Date();
  const append = (id: string) => group.append({ gameId: id, expectedVersion: versions.get(id)!, events: [{ type: 'Noted' }], actor: 'test', at, commandId: null, status: 'running', deadline: null, idempotency: null });
  const rider = { game_id: held, version: versions.get(held)!, seat: 1, actor: 'seat:1', command: { type: 'frustrate' }, code: 'pechvogel/already-decided', received_at: at.getTime(), ord: 0 };

  const place = group.reserve(held);
  const later = append(held);
  t.equal(await append(other), 'appended', "another game's append does not wait");
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.equal(await app.services.store.version(held), versions.get(held), 'the append decided after the rider waits for it');
  const before = counting.queries;
  const [committed, outcome] = await Promise.all([place.confirm(rider), later]);
  t.equal(outcome, 'appended');
  t.equal(committed, undefined);
  t.equal(counting.queries - before, 1, 'the rider and the append in one statement');
  t.equal((await app.services.store.raceRefusals.list(held)).length, 1);

  const cancelled = group.reserve(held);
  const next = group.append({ gameId: held, expectedVersion: versions.get(held)! + 1, events: [{ type: 'Noted' }], actor: 'test', at, commandId: null, status: 'running', deadline: null, idempotency: null });
  cancelled.cancel();
  t.equal(await next, 'appended', 'a cancelled place lets the game go on');
  t.equal((await app.services.store.raceRefusals.list(held)).length, 1, 'and writes nothing');
  const alone = group.reserve(other);
  await alone.confirm({ ...rider, game_id: other });
  t.equal((await app.services.store.raceRefusals.list(other)).length, 1, 'a rider with nothing to ride with goes alone');
});
