// The latest-state cache (src/state/latest-states.ts) never brings back a game read
// before it was forgotten: a seat handed to a bot beside the log (a tournament's no-show
// or withdrawal) must not be undone by a command that was decided on the old record.
import t from 'tap';
import { LatestStates } from '../../src/state/latest-states.ts';
import { bearerHeader, command, createGame, testApp } from '../helpers/app.ts';
import { testDatabase } from '../helpers/database.ts';

t.test('a game read before it was forgotten is not remembered again', async (t) => {
  const database = await testDatabase(t);
  const app = await testApp(t, { database });
  const { id } = await createGame(app, { type: 'pechvogel', seats: [{ name: 'Ada' }, { name: 'Bea' }] });
  const latest = new LatestStates(app.services.store);

  const read = await latest.load(id);
  t.equal(latest.peek(id), read, 'a load is remembered');

  // As a command in flight when the seat changed: decided on `read`, committed after.
  await database.pool.query(`UPDATE seat SET bot = 'greedy' WHERE game_id = $1::uuid AND seat = 1`, [id]);
  latest.forget(id);
  latest.remember({ ...read });
  t.equal(latest.peek(id), undefined, 'the stale copy is not cached again');

  const fresh = await latest.load(id);
  t.equal(fresh.record.seats[1]?.bot, 'greedy', 'the next load reads the seat as it is now');
  t.equal(latest.peek(id), fresh, 'and is remembered');
});

t.test('forgetting every game (changes may have gone unheard) makes every copy read before stale', async (t) => {
  const app = await testApp(t);
  const games = await Promise.all(['Ada', 'Bea'].map((name) => createGame(app, { type: 'pechvogel', seats: [{ name }, {}] })));
  const latest = new LatestStates(app.services.store);
  const [first, second] = await Promise.all(games.map(({ id }) => latest.load(id)));
  latest.forget(first!.record.id);
  const again = await latest.load(first!.record.id);

  latest.forgetAll();
  t.equal(latest.peek(first!.record.id), undefined, 'nothing is cached any more');
  t.equal(latest.peek(second!.record.id), undefined);
  latest.remember({ ...again });
  latest.remember({ ...second! });
  t.equal(latest.peek(first!.record.id), undefined, 'a copy read after the game was forgotten once, but before all were, is not cached again');
  t.equal(latest.peek(second!.record.id), undefined, 'nor one of a game never forgotten by itself');
  const fresh = await latest.load(second!.record.id);
  t.equal(latest.peek(second!.record.id), fresh, 'a load after it is remembered');
});

t.test('a slower load that read an older version does not replace a newer one', async (t) => {
  // The cause of a bot seat that stopped moving (issue 25): a read (a page, a live socket)
  // loaded version n, a command committed n+1 and the bots were woken; the read stored
  // n after n+1, the bots decided on n, lost the append, and nobody woke them again.
  const app = await testApp(t);
  const { id, tokens } = await createGame(app, { type: 'pechvogel', seats: [{ name: 'Ada' }, { name: 'Bea' }] });
  const store = app.services.store;
  let hold: (() => void) | null = null;
  let readOlder: (() => void) | null = null;
  const older = new Promise<void>((resolve) => (readOlder = resolve));
  const gated = Object.assign(Object.create(store) as typeof store, {
    // The first read of the record waits, after reading, until the test lets it go on.
    loadGame: async (gameId: string) => {
      const record = await store.loadGame(gameId);
      if (hold === null) {
        const released = new Promise<void>((resolve) => (hold = resolve));
        readOlder!();
        await released;
      }
      return record;
    },
  });
  const latest = new LatestStates(gated);

  const slow = latest.load(id);
  await older;
  // Pechvogel's first seat moves first.
  const before = (await app.inject({ url: `/games/${id}`, headers: bearerHeader(tokens[0]) })).json() as { legalCommands: unknown[]; version: number };
  const { version } = before;
  const moved = await command(app, id, tokens[0], { command: before.legalCommands[0], expectedVersion: version });
  t.equal(moved.statusCode, 200, 'a command commits the next version');
  const fast = await latest.load(id);
  t.ok(fast.version > version, `the faster load reads the new version ${fast.version}`);
  hold!();
  const slower = await slow;
  t.equal(slower.version, version, 'the slower load read the version before the command');
  t.equal(latest.peek(id)?.version, fast.version, 'the cache keeps the newer version');
});

t.test('a load replaces the copy it started from, even with a lower version', async (t) => {
  // A copy ahead of the database (a commit lost in a failover) is corrected by the next load.
  const app = await testApp(t);
  const { id } = await createGame(app, { type: 'pechvogel', seats: [{ name: 'Ada' }, { name: 'Bea' }] });
  const latest = new LatestStates(app.services.store);
  const read = await latest.load(id);
  latest.remember({ ...read, version: read.version + 5, record: { ...read.record, version: read.version + 5 } });
  const again = await latest.load(id);
  t.equal(again.version, read.version, 'the load reads the stored version');
  t.equal(latest.peek(id)?.version, read.version, 'and the cache follows the database');
});
