import t from 'tap';
import { TournamentStore } from '../../src/tournaments/tournament-store.ts';
import { testDatabase } from '../helpers/database.ts';

// The journey test crashed its whole file once on a loaded machine: the server ended a
// tournament transaction that sat idle too long, and the checked-out connection's
// 'error' event had no listener.
t.test('a transaction whose connection the server ends fails, and the process lives on', async (t) => {
  const { pool } = await testDatabase(t);
  const store = new TournamentStore(pool);
  const attempt = store.transaction(async (client) => {
    await client.query(`SET LOCAL idle_in_transaction_session_timeout = 50`);
    await new Promise((resolve) => setTimeout(resolve, 400));
    return client.query('SELECT 1');
  });
  await t.rejects(attempt, 'the work after the server ended the connection is refused');
  const { rows } = await pool.query<{ one: number }>('SELECT 1 AS one');
  t.equal(rows[0]?.one, 1, 'the pool serves the next query on a live connection');
  t.equal(pool.totalCount, 1, 'the dead connection was not pooled again');
});
