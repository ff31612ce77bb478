// The real server process: it starts on a database, shuts down cleanly on SIGTERM
// (sockets closed with 1001, exit code 0), and a new process carries on the same game.
import { once } from 'node:events';
import t from 'tap';
import WebSocket from 'ws';
import { testDatabase } from '../helpers/database.ts';
import { startServerProcess, type ServerProcess as Server } from '../helpers/server-process.ts';

async function call(server: Server, method: string, path: string, body?: unknown, token?: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as any };
}

async function playOne(server: Server, id: string, tokens: string[], headers: Record<string, string> = {}) {
  const game = (await call(server, 'GET', `/games/${id}`)).json;
  const seat = game.pending.seats[0];
  const mine = (await call(server, 'GET', `/games/${id}`, undefined, tokens[seat])).json;
  const body = { command: mine.legalCommands[0], expectedVersion: mine.version };
  return { ...(await call(server, 'POST', `/games/${id}/commands`, body, tokens[seat], headers)), body, token: tokens[seat] };
}

t.test('SIGTERM shuts down cleanly and a new process carries on the same game', async (t) => {
  const database = await testDatabase(t);
  const first = await startServerProcess(database.url);
  t.teardown(() => first.process.kill('SIGKILL'));

  t.same((await call(first, 'GET', '/ready')).json, { status: 'ready' }, 'ready: the database is reachable');
  const created = (await call(first, 'POST', '/games', { type: 'pechvogel', seats: [{}, {}, {}], seed: 'restart' })).json;
  const id: string = created.game.id;
  const tokens: string[] = created.seats.map((s: { token: string }) => s.token);
  for (let i = 0; i < 4; i++) t.equal((await playOne(first, id, tokens)).status, 200);
  const lastBefore = await playOne(first, id, tokens, { 'idempotency-key': 'before-restart' });
  t.equal(lastBefore.status, 200);
  const before = (await call(first, 'GET', `/games/${id}`)).json;

  const watcher = new WebSocket(`${first.url.replace('http', 'ws')}/games/${id}/live`);
  const closed = once(watcher, 'close');
  await once(watcher, 'message');
  first.process.kill('SIGTERM');
  const [code] = await closed;
  t.equal(code, 1001, 'live sockets are closed with 1001 (going away)');
  const [exitCode] = await once(first.process, 'exit');
  t.equal(exitCode, 0, 'the process exits 0');
  t.match(first.output(), /stopped cleanly/);

  const second = await startServerProcess(database.url);
  t.teardown(() => second.process.kill('SIGKILL'));
  const after = (await call(second, 'GET', `/games/${id}`)).json;
  t.equal(after.version, before.version, 'the game is intact after the restart');
  t.same(after.view, before.view, 'with the same table');
  const retried = await call(second, 'POST', `/games/${id}/commands`, lastBefore.body, lastBefore.token, { 'idempotency-key': 'before-restart' });
  t.equal(retried.status, 200);
  t.same(retried.json, lastBefore.json, 'an idempotent retry across the restart gets the first answer');
  t.equal((await call(second, 'GET', `/games/${id}`)).json.version, before.version, 'and appends nothing');
  t.equal((await playOne(second, id, tokens)).status, 200, 'and play goes on');
  second.process.kill('SIGTERM');
  t.equal((await once(second.process, 'exit'))[0], 0);
});
