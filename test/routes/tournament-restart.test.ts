// kill -9 of the server after a round's games were created and before their results
// were recorded: a new process finds the games, the bots play them on, the results
// are recorded, the next round is paired and the tournament ends, with nothing lost
// and nothing recorded twice.
import { once } from 'node:events';
import t from 'tap';
import { standings } from '../../src/domain/tournament/standings.ts';
import { testDatabase } from '../helpers/database.ts';
import { startServerProcess, type ServerProcess as Server } from '../helpers/server-process.ts';
import { testAdminKey } from '../helpers/app.ts';
import { botPlayers } from '../helpers/tournaments.ts';

async function call(server: Server, method: string, path: string, body?: unknown, key?: string) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as any };
}

t.test('kill -9 between creating a round and recording its tables loses nothing', async (t) => {
  const database = await testDatabase(t);
  const first = await startServerProcess(database.url, { SPIELWERK_ADMIN_KEY: testAdminKey });
  t.teardown(() => first.process.kill('SIGKILL'));
  const organizer = (await call(first, 'POST', '/organizers', { name: 'Nachtschicht', key: { name: 'k', scopes: ['tournaments:run', 'results:read'] } }, testAdminKey)).json;
  const created = await call(first, 'POST', '/tournaments', { name: 'Absturz', gameType: 'mistkaefer', format: { kind: 'swiss', rounds: 2, tableSize: { min: 4, max: 4 }, byes: false }, players: botPlayers(8) }, organizer.key);
  t.equal(created.status, 201, JSON.stringify(created.json));
  const id: string = created.json.tournament.id;
  const round = await call(first, 'POST', `/tournaments/${id}/rounds`, {}, organizer.key);
  t.equal(round.status, 200);
  first.process.kill('SIGKILL');
  await once(first.process, 'exit');
  const { rows: left } = await database.pool.query(`SELECT count(*)::int AS n FROM tournament_event WHERE tournament_id = $1 AND type = 'TableFinished'`, [id]);
  t.ok(left[0].n < 2, `killed before both tables were recorded (${left[0].n} of 2)`);

  const second = await startServerProcess(database.url, { SPIELWERK_ADMIN_KEY: testAdminKey });
  t.teardown(() => second.process.kill('SIGKILL'));
  const started = Date.now();
  let summary: any;
  for (;;) {
    summary = (await call(second, 'GET', `/tournaments/${id}`)).json;
    if (summary.status === 'finished') break;
    if (Date.now() - started > 120_000) throw new Error(`not finished after the restart: ${JSON.stringify(summary.rounds)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  t.same(summary.rounds.map((r: any) => r.tables.length), [2, 2], 'both rounds, two tables each');
  t.same(summary.rounds[0].tables.map((tb: any) => tb.gameId), round.json.tables.map((tb: any) => tb.gameId), 'round 1 is the tables created before the kill');
  const log = (await call(second, 'GET', `/tournaments/${id}/events`)).json.events as any[];
  t.same(log.map((e) => e.seq), log.map((_: unknown, i: number) => i + 1), 'the log is gapless');
  const finished = log.filter((e) => e.event.type === 'TableFinished');
  t.equal(new Set(finished.map((e) => e.event.gameId)).size, 4, 'every table recorded');
  t.equal(finished.length, 4, 'and none twice');
  const games = (await call(second, 'GET', `/games?tournament=${id}`)).json.games as any[];
  const tableOf = new Map(summary.rounds.flatMap((r: any) => r.tables.map((tb: any) => [tb.gameId, tb.players])));
  const expected = standings(summary.players.map((p: any) => p.id), games.map((g) => ({ tableId: g.id, round: g.tournament.round, players: tableOf.get(g.id) as string[], ranks: g.result.ranks, scores: g.result.scores })), []);
  const shown = (await call(second, 'GET', `/tournaments/${id}/standings`)).json.standings;
  t.same(shown.map((s: any) => [s.player, s.points]), expected.map((s) => [s.player, s.points]), 'the standings are those of the games');
  second.process.kill('SIGTERM');
  t.equal((await once(second.process, 'exit'))[0], 0);
});
