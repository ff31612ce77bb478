// The schema fits the distributed layout of src/db/distribution.ts (docs/scaling.md),
// told from Postgres's catalog alone, so no Citus is needed: a new table that holds a
// game's rows without game_id, or is not placed beside the games, fails here.
import t from 'tap';
import { layout, layoutProblems } from '../../src/db/distribution.ts';
import { testDatabase } from '../helpers/database.ts';

t.test('every table the migrations make has its place in the layout, with keys Citus accepts', async (t) => {
  const { pool } = await testDatabase(t);
  t.same(await layoutProblems(pool), []);

  // What a new migration might add, and what the check says of it.
  await pool.query(`
    CREATE TABLE invoice (id uuid PRIMARY KEY, organizer_id uuid REFERENCES organizer(id));
    CREATE TABLE delivery (id uuid PRIMARY KEY, game uuid REFERENCES game(id));
    CREATE TABLE arrival (game_id uuid REFERENCES game(id) ON UPDATE CASCADE, seat int, token text UNIQUE, PRIMARY KEY (game_id, seat));
    CREATE TABLE watcher (game_id uuid, seat int, PRIMARY KEY (game_id, seat), FOREIGN KEY (game_id, seat) REFERENCES seat(game_id, seat));`);
  t.same(
    await layoutProblems(pool),
    [
      'arrival has no place in the layout: add it to layout in src/db/distribution.ts (gameRows: it holds a game\'s rows)',
      'delivery has no place in the layout: add it to layout in src/db/distribution.ts (gameRows: it holds a game\'s rows)',
      'invoice has no place in the layout: add it to layout in src/db/distribution.ts',
      'watcher has no place in the layout: add it to layout in src/db/distribution.ts (gameRows: it holds a game\'s rows)',
    ],
    'a table in no list is named, and whether it holds a game\'s rows',
  );
  const placed = { ...layout, gameRows: [...layout.gameRows, 'delivery', 'arrival', 'watcher'], reference: [...layout.reference, 'invoice'] };
  t.same(
    await layoutProblems(pool, placed),
    [
      'arrival: the unique key (token) does not include game_id',
      'arrival: the foreign key to game must not cascade an update of game_id (onUpdate: NoAction)',
      'delivery holds a game\'s rows but has no game_id column to be distributed by',
    ],
    'placed among the games\' rows: no game_id, a unique key without it, an update that cascades; a key to seat by game_id and seat is fine',
  );
  const misplaced = { ...layout, gameRows: [...layout.gameRows, 'arrival'], reference: [...layout.reference, 'invoice', 'delivery', 'watcher'] };
  t.same(
    await layoutProblems(pool, misplaced),
    [
      'arrival: the unique key (token) does not include game_id',
      'arrival: the foreign key to game must not cascade an update of game_id (onUpdate: NoAction)',
      'delivery is a reference table with a foreign key to game, whose rows are distributed',
      'delivery holds a game\'s rows but is a reference table: it belongs to gameRows',
      'watcher is a reference table with a foreign key to seat, whose rows are distributed',
      'watcher holds a game\'s rows but is a reference table: it belongs to gameRows',
    ],
    'a game\'s rows among the reference tables',
  );
});
