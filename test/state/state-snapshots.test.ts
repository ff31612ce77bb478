// Persisted state snapshots (src/state/state-snapshots.ts) against the log: for every
// game type, a game loaded from a snapshot is exactly the game folded from its first
// event, and a snapshot folded by other rules, or ahead of the log, is never read.
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { botsFor, play } from '../../src/bots/index.ts';
import type { Viewer } from '../../src/domain/contract.ts';
import { games, type AnyGame } from '../../src/domain/games.ts';
import type { GameRecord } from '../../src/events/records.ts';
import { EventStore } from '../../src/events/store.ts';
import { foldOn, LatestStates, type LoadedGame } from '../../src/state/latest-states.ts';
import { describeVersion } from '../../src/state/snapshot.ts';
import { StateSnapshots } from '../../src/state/state-snapshots.ts';
import { testDatabase } from '../helpers/database.ts';

const EVERY = 50;

/** A game played by random bots, stored as the service stores one; its log and final state. */
async function storedGame(store: EventStore, game: AnyGame, seed: string) {
  const seats = game.players.min;
  const random = botsFor(game.type)!.random!;
  const played = play(game, { bots: Array.from({ length: seats }, () => random), seed });
  const now = new Date();
  const record: Omit<GameRecord, 'updatedAt' | 'finishedAt' | 'version' | 'deadline' | 'status'> = {
    startedAt: null,
    rematchId: null,
    id: randomUUID(),
    organizerId: null,
    tournament: null,
    type: game.type,
    rulesVersion: game.rulesVersion,
    options: played.setup.options,
    seatCount: seats,
    chanceMode: 'server',
    seed,
    seedHash: 'unused',
    seedNonce: null,
    seedChosenBy: null,
    botThinkMs: null,
    refereeTokenHash: 'unused',
    createdAt: now,
    seats: Array.from({ length: seats }, (_, seat) => ({ seat, name: null, tokenHash: `seat-${seat}`, joinedAt: now, bot: 'random', arrivedAt: now })),
  };
  await store.createGame(record, { events: played.events, status: played.result === null ? 'running' : 'finished', deadline: null });
  return { id: record.id, events: played.events, state: played.state };
}

/** Everything a caller can see of the game, for every viewer. */
function seen(loaded: LoadedGame): unknown {
  const viewers: Viewer[] = [{ kind: 'all' }, { kind: 'spectator' }, ...Array.from({ length: loaded.setup.seats }, (_, seat) => ({ kind: 'seat' as const, seat }))];
  return viewers.map((viewer) => describeVersion(loaded, viewer));
}

const never = (error: unknown) => {
  throw error;
};

for (const game of games) {
  t.test(`${game.type}: loading from a snapshot gives exactly the state the log folds to`, async (t) => {
    const { prisma, pool } = await testDatabase(t);
    const store = new EventStore(prisma, pool);
    const { id, events, state } = await storedGame(store, game, `snapshots-${game.type}`);
    t.ok(events.length > 2 * EVERY, `a game of ${events.length} events`);

    const fromLog = await new LatestStates(store).load(id);
    t.strictSame(fromLog.state, state, 'the log folds to the state that was played');

    const snapshots = new StateSnapshots(store, never, EVERY);
    const initial = game.initialState({ options: fromLog.setup.options, seats: fromLog.setup.seats });
    // Each snapshot saved as a commit crossing a multiple of EVERY saves it, then a cold
    // load from it, as after a restart, at several distances from the log's end.
    for (const at of [EVERY, 2 * EVERY, events.length - 1]) {
      const before = { ...fromLog, version: at - 1, state: foldOn(game, initial, events.slice(0, at - 1).map((event) => ({ event }))) };
      const after = { ...fromLog, version: at, state: foldOn(game, before.state, [{ event: events[at - 1]! }]) };
      await pool.query('DELETE FROM state_snapshot');
      snapshots.committed(before, after);
      await snapshots.drain();
      const stored = await store.loadGameWithSnapshot(id);
      t.equal(stored?.snapshot?.version, at % EVERY === 0 ? at : undefined, `a commit reaching ${at} saves a snapshot only at a multiple of ${EVERY}`);
      if (stored?.snapshot == null) await store.saveSnapshot(id, { version: at, rulesVersion: game.rulesVersion, state: after.state });
      // Its own save after the load (it folded from a snapshot behind) lands before the next round.
      const coldSnapshots = new StateSnapshots(store, never, EVERY);
      const cold = await new LatestStates(store, coldSnapshots).load(id);
      await coldSnapshots.drain();
      t.equal(cold.version, events.length, `from the snapshot at ${at}: the game's version`);
      t.strictSame(cold.state, fromLog.state, `from the snapshot at ${at}: the same state`);
      t.strictSame(seen(cold), seen(fromLog), `from the snapshot at ${at}: the same views, pending seats, legal commands and result for every viewer`);
    }
  });
}

t.test('a snapshot is read only when the rules running now folded it, and never ahead of the log', async (t) => {
  const { prisma, pool } = await testDatabase(t);
  const store = new EventStore(prisma, pool);
  const game = games.find((g) => g.type === 'pechvogel')!;
  const { id, events, state } = await storedGame(store, game, 'snapshot-versions');
  const load = () => new LatestStates(store, new StateSnapshots(store, never, 1_000_000)).load(id);
  const planted = { planted: true };

  await store.saveSnapshot(id, { version: events.length, rulesVersion: game.rulesVersion, state: planted });
  t.strictSame((await load()).state, planted, 'a snapshot of the current rules at the current version is the state (no event folded)');

  await store.saveSnapshot(id, { version: events.length, rulesVersion: `${game.rulesVersion}-other`, state: planted });
  t.strictSame((await load()).state, state, 'one of other rules is ignored: the log is folded');

  await store.saveSnapshot(id, { version: events.length + 1, rulesVersion: game.rulesVersion, state: planted });
  t.strictSame((await load()).state, state, 'one ahead of the log is ignored');

  await store.saveSnapshot(id, { version: 3, rulesVersion: game.rulesVersion, state: planted });
  t.equal((await store.loadGameWithSnapshot(id))?.snapshot?.version, events.length + 1, 'an older snapshot never replaces a newer one of the same rules');
});

t.test('a cold load that folds more than a snapshot\'s worth of events saves one', async (t) => {
  const { prisma, pool } = await testDatabase(t);
  const store = new EventStore(prisma, pool);
  const game = games.find((g) => g.type === 'mistkaefer')!;
  const { id, events, state } = await storedGame(store, game, 'snapshot-on-load');

  const snapshots = new StateSnapshots(store, never, EVERY);
  await new LatestStates(store, snapshots).load(id);
  await snapshots.drain();
  const saved = (await store.loadGameWithSnapshot(id))?.snapshot;
  t.equal(saved?.version, events.length, 'at the version loaded');
  t.equal(saved?.rulesVersion, game.rulesVersion, 'with the rules that folded it');
  t.strictSame(saved?.state, state, 'the folded state, back from the database as it was');

  const behind = events.length - EVERY + 1;
  const initial = game.initialState({ options: {}, seats: game.players.min });
  await pool.query('DELETE FROM state_snapshot');
  await store.saveSnapshot(id, { version: behind, rulesVersion: game.rulesVersion, state: foldOn(game, initial, events.slice(0, behind).map((event) => ({ event }))) });
  t.strictSame((await new LatestStates(store, snapshots).load(id)).state, state, 'loaded from a snapshot behind the log');
  await snapshots.drain();
  t.equal((await store.loadGameWithSnapshot(id))?.snapshot?.version, behind, 'fewer events than a snapshot\'s worth folded: none saved');
});
