// Version checks asked for together share one query and each gets its own game's answer.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { VersionProbe } from '../../src/events/version-probe.ts';
import { bearerHeader, command, createGame, testApp } from '../helpers/app.ts';
import { countingPool, testDatabase } from '../helpers/database.ts';

t.test('checks asked in one turn share a query; each caller gets its game, an unknown game null', async (t) => {
  const database = await testDatabase(t);
  const app = await testApp(t, { database });
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const { id, tokens } = await createGame(app, { type: 'pechvogel', seats: [{}, {}] });
    // Game i is i commands on, so answers handed to the wrong caller cannot match.
    for (let played = 0; played < i; played++) {
      const { pending } = (await app.inject({ url: `/games/${id}` })).json();
      const token = tokens[pending.seats[0]];
      const { legalCommands } = (await app.inject({ url: `/games/${id}`, headers: bearerHeader(token) })).json();
      t.equal((await command(app, id, token, { command: legalCommands[0] })).statusCode, 200);
    }
    ids.push(id);
  }
  const { rows } = await database.pool.query<{ id: string; version: number }>('SELECT id::text AS id, version FROM game WHERE id = ANY($1::uuid[])', [ids]);
  const expected = new Map(rows.map((row) => [row.id, row.version]));
  t.equal(new Set(expected.values()).size, ids.length, 'the games are at different versions');
  const counting = countingPool(database.pool);
  const probe = new VersionProbe(counting.pool);
  const asked = [...ids, ids[0]!, randomUUID()];
  const answers = await Promise.all(asked.map((id) => probe.version(id)));
  t.same(answers, asked.map((id) => expected.get(id) ?? null), "every caller gets its own game's version");
  t.equal(counting.queries, 1, 'one query for all of them');
});
