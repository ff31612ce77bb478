// The server's log, as an operator reads it: at the most verbose level no token ever
// appears (query or header, accepted or refused); every request is one line at info, a
// refused one with its problem code; probes are sampled (LOG_PROBE_SAMPLE) and /ready's
// 503 during the shutdown grace is no warning; live sockets are logged; a client's
// x-request-id comes back; every connection names itself in pg_stat_activity.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import t from 'tap';
import WebSocket from 'ws';
import { testDatabase } from '../helpers/database.ts';

t.test('a run of the server logs no token it issued, and says what an operator needs', async (t) => {
  const database = await testDatabase(t);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: { ...process.env, DATABASE_URL: database.url, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'trace', LOG_PROBE_SAMPLE: '3', SHUTDOWN_GRACE_MS: '400' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.teardown(() => child.kill('SIGKILL'));
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let url: string | undefined;
  while (url === undefined) {
    url = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
    if (child.exitCode !== null) throw new Error(output);
    await new Promise((r) => setTimeout(r, 50));
  }
  const call = (path: string, init: RequestInit = {}) => fetch(`${url}${path}`, init);
  const post = (path: string, body: unknown, token?: string) =>
    call(path, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });

  const issued: string[] = [];
  const created = (await (await post('/games', { type: 'pechvogel', seats: [{}, {}, { open: true }] })).json()) as { game: { id: string }; refereeToken: string; seats: { token: string | null }[] };
  const id = created.game.id;
  issued.push(created.refereeToken, ...created.seats.flatMap((s) => (s.token ? [s.token] : [])));
  const joined = (await (await post(`/games/${id}/join`, { name: 'Kim' })).json()) as { token: string };
  issued.push(joined.token);
  const [seat0, seat1] = created.seats.map((s) => s.token!);

  const echoed = await call(`/games/${id}`, { headers: { authorization: `Bearer ${seat0}`, 'x-request-id': 'operator-trace-1' } });
  t.equal(echoed.headers.get('x-request-id'), 'operator-trace-1', 'a client x-request-id comes back');
  t.ok((await call(`/games/${id}`)).headers.get('x-request-id'), 'and every answer has one');
  t.equal((await post(`/games/${id}/commands`, { command: { type: 'throw' } }, seat1)).status, 422, 'out of turn: refused by the rules');
  t.equal((await call(`/games/00000000-0000-4000-8000-000000000000`, { headers: { authorization: `Bearer ${seat0}` } })).status, 404);
  t.equal((await call(`/games/${id}/events?viewer=seat:1`, { headers: { authorization: `Bearer ${seat0}` } })).status, 403, 'another seat\'s eyes: forbidden');
  t.equal((await post(`/games/${id}/commands`, { command: { type: 'throw' } }, 'x'.repeat(5) + seat0)).status, 403);

  t.equal((await call(`/games/${id}/live?token=${seat1}`)).status, 426, 'a socket URL requested without Upgrade is refused, and logged');
  // The documented way for a socket: ?token=, accepted, and refused on an unknown game.
  const live = new WebSocket(`${url.replace('http', 'ws')}/games/${id}/live?token=${seat0}&after=0`);
  await once(live, 'message');
  live.send(JSON.stringify({ type: 'command', command: { type: 'fly' } }));
  await once(live, 'message');
  live.close();
  await once(live, 'close');
  const refused = new WebSocket(`${url.replace('http', 'ws')}/games/00000000-0000-4000-8000-000000000000/live?token=${seat1}`);
  const [refusedCode] = await once(refused, 'close');
  t.equal(refusedCode, 4404);

  const { rows } = await database.pool.query<{ application_name: string }>('SELECT application_name FROM pg_stat_activity WHERE datname = current_database()');
  const names = rows.map((row) => row.application_name);
  t.ok(names.some((name) => /^spielwerk .+:\d+ pool$/.test(name)), `the pool's connections name themselves (${names.join(', ')})`);
  t.ok(names.some((name) => /^spielwerk .+:\d+ listener [0-9a-f]{8}$/.test(name)), 'so does the notification listener');

  for (let i = 0; i < 6; i++) t.equal((await call('/health')).status, 200);
  // During the shutdown grace /ready answers 503 to every poll.
  child.kill('SIGTERM');
  while (!output.includes('shutting down')) await new Promise((r) => setTimeout(r, 20));
  for (let i = 0; i < 3; i++) t.equal((await call('/ready')).status, 503, 'draining: /ready is 503');
  await once(child, 'close');
  const lines = output.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  t.ok(lines.some((line) => line.level === 10 || line.level === 20), 'the run logged at its most verbose levels');
  t.ok(issued.length >= 4);
  for (const token of issued) t.notOk(output.includes(token), `token ${token.slice(0, 4)}… appears in no log line`);
  t.match(output, /token=\[redacted\]/, 'a socket URL is logged with its token redacted');

  const refusals = lines.filter((line) => typeof line.statusCode === 'number' && (line.statusCode as number) >= 400);
  t.ok(refusals.length >= 4 && refusals.every((line) => typeof line.code === 'string'), 'every refused request is logged with its problem code');
  t.match(refusals.find((line) => line.code === 'game/not-found'), { level: 30 }, 'an unknown game is info');
  t.match(refusals.find((line) => (line.code as string).startsWith('pechvogel/')), { level: 30, msg: 'request refused' }, 'a move the rules forbid: info, with its code');
  const requests = lines.filter((line) => typeof line.statusCode === 'number');
  t.match(requests.find((line) => line.url === '/games' && line.method === 'POST'), { level: 30, msg: 'request completed', statusCode: 201 }, 'a success is one line at info');
  t.equal(requests.filter((line) => line.url === '/health').length, 2, 'one /health answer in three is logged (LOG_PROBE_SAMPLE=3)');
  const drained = requests.filter((line) => line.url === '/ready');
  t.equal(drained.length, 3, "a failed probe is always logged");
  t.ok(drained.every((line) => line.level === 30 && line.code === 'server/shutting-down'), "/ready's 503 during the grace is info, no warning");
  t.same(lines.filter((line) => (line.level as number) >= 40), [], 'the whole run logged no warning');
  t.match(lines.find((line) => line.msg === 'live socket closed' && line.closeCode === 1005), { level: 30, gameId: id, messagesIn: 1, messagesOut: 2 }, 'a live socket is logged when it closes: code, duration, messages');
  t.match(lines.find((line) => line.msg === 'live socket closed' && line.closeCode === 4404), { level: 30 });
});
