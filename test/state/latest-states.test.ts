// The latest-state cache (src/state/latest-states.ts) never brings back a game read
// before it was forgotten: a seat handed to a bot beside the log (a tournament's no-show
// or withdrawal) must not be undone by a command that was decided on the old record.
import t from 'tap';
import { LatestStates } from '../../src/state/latest-states.ts';
import { createGame, testApp } from '../helpers/app.ts';
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
