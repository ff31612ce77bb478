// Group commit: appends of many games share one statement, yet each game keeps its
// own version guard, and a batch that fails as a whole falls back to single appends.
import t from 'tap';
import type { AppendRequest } from '../../src/events/store.ts';
import { createGame, testApp } from '../helpers/app.ts';

t.test('a batch commits the games whose version still fits and refuses the rest', async (t) => {
  const app = await testApp(t);
  const { store } = app.services;
  const ids: string[] = [];
  for (let i = 0; i < 6; i++) ids.push((await createGame(app, { type: 'pechvogel', seats: [{}, {}] })).id);
  const versions = await store.versions(ids);
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
  const current = (id: string) => versions.find((v) => v.id === id)!.version;
  // Issued in one turn of the event loop, so they travel together.
  const outcomes = await Promise.all(ids.map((id, i) => store.append(request(id, i === 2 ? current(id) - 1 : current(id)))));
  t.same(outcomes, ids.map((_, i) => (i === 2 ? 'conflict' : 'appended')), 'one stale game does not spoil the others');
  for (const [i, id] of ids.entries()) {
    const events = await store.readEvents(id, 0);
    t.same(events.map((e) => e.seq), Array.from({ length: current(id) + (i === 2 ? 0 : 2) }, (_, k) => k + 1), `game ${i}: gap-free`);
  }

  // The same idempotency key twice for one game in a batch is impossible within an
  // instance; across requests it makes the batch fail and every append retry alone.
  const again = await store.versions(ids.slice(0, 2));
  const [a, b] = await Promise.all([
    store.append(request(ids[0]!, again.find((v) => v.id === ids[0])!.version, 'k1')),
    store.append(request(ids[1]!, again.find((v) => v.id === ids[1])!.version, 'k1')),
  ]);
  t.same([a, b], ['appended', 'appended'], 'a key is per game');
  const replay = await store.versions([ids[0]!]);
  const [dup, fresh] = await Promise.all([
    store.append(request(ids[0]!, replay[0]!.version, 'k1')),
    store.append(request(ids[3]!, (await store.versions([ids[3]!]))[0]!.version)),
  ]);
  t.equal(dup, 'conflict', 'a key used before makes that append a conflict');
  t.equal(fresh, 'appended', 'while the other append in the batch still commits');
  t.equal((await store.readEvents(ids[0]!, 0)).length, replay[0]!.version, 'and the refused append left nothing behind');
});
