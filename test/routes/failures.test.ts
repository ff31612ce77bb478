// Failures that are not the client's either: a database that refuses connections, only
// reads (the old primary after a failover) or does not answer at all gives a 503 problem
// with Retry-After, in bounded time, and the service recovers when it is back; what
// Node refuses before Fastify sees a request (malformed HTTP, oversized headers) is a
// problem document too.
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import WebSocket from 'ws';
import { buildApp } from '../../src/app.ts';
import { createClients } from '../../src/db/client.ts';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { applyMigrations } from '../../src/db/migrate.ts';
import { command, createGame, listeningPort, testApp } from '../helpers/app.ts';
import { databaseUrl, withAdmin } from '../helpers/test-server.ts';
import { onCitus } from '../helpers/citus.ts';

function parentOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return 0;
  }
}

const expectUnavailable = (t: { equal: Function; match: Function; ok: Function }, response: { statusCode: number; headers: Record<string, unknown>; json: () => any }, what: string) => {
  t.equal(response.statusCode, 503, `${what}: 503`);
  t.match(response.headers['content-type'], /^application\/problem\+json/);
  t.equal(response.json().code, 'server/database-unavailable', `${what}: server/database-unavailable`);
  t.ok(Number(response.headers['retry-after']) > 0, `${what}: with Retry-After`);
};

/** ALTER DATABASE on the test's own database, as its server's admin; then its
 * connections are cut, so that new ones meet the change. */
const alterDatabase = (url: string, change: string) =>
  withAdmin(databaseUrl(url, 'postgres'), async (client) => {
    const name = new URL(url).pathname.slice(1);
    await client.query(`ALTER DATABASE ${client.escapeIdentifier(name)} ${change}`);
    await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
  });

t.test('a database that refuses connections: 503 with Retry-After, then back to normal', async (t) => {
  const app = await testApp(t);
  const { id, tokens } = await createGame(app, { type: 'pechvogel', seats: [{}, {}], seed: 'down' });
  const setConnections = (allowed: boolean) => alterDatabase(app.databaseUrl, `ALLOW_CONNECTIONS ${allowed}`);
  await setConnections(false);
  t.teardown(() => setConnections(true));
  await new Promise((r) => setTimeout(r, 100));

  expectUnavailable(t, await app.inject({ url: '/games' }), 'listing games');
  expectUnavailable(t, await app.inject({ method: 'POST', url: '/games', payload: { type: 'pechvogel', seats: [{}, {}] } }), 'creating a game');
  expectUnavailable(t, await command(app, id, tokens[0], { command: { type: 'throw' } }), 'a command');
  const ready = await app.inject({ url: '/ready' });
  t.equal(ready.json().code, 'server/database-unavailable', '/ready says so too');

  await setConnections(true);
  t.equal((await app.inject({ url: '/games' })).statusCode, 200, 'the service recovers when the database is back');
  t.equal((await command(app, id, tokens[0], { command: { type: 'throw' } })).statusCode, 200);
});

// On Citus a game's writes run on its worker: a coordinator that only reads does not stop them.
const onePrimary = { skip: onCitus() && "on Citus the writes are the workers' (docs/scaling.md)" };

t.test('a database that only reads (a node that is no longer primary): writes get 503 with Retry-After, not 500', onePrimary, async (t) => {
  const app = await testApp(t);
  const { id, tokens } = await createGame(app, { type: 'pechvogel', seats: [{}, {}], seed: 'read-only' });
  // New connections refuse writes with 25006, as a hot standby does when a pool (or a
  // balancer that has not noticed the demotion yet) reaches the old primary.
  const setReadOnly = (on: boolean) => alterDatabase(app.databaseUrl, `SET default_transaction_read_only = ${on}`);
  await setReadOnly(true);
  t.teardown(() => setReadOnly(false));
  await new Promise((r) => setTimeout(r, 100));
  // Each twice: a connection the termination cut may answer the first one.
  for (let i = 0; i < 2; i++) {
    expectUnavailable(t, await app.inject({ method: 'POST', url: '/games', payload: { type: 'pechvogel', seats: [{}, {}] } }), 'creating a game');
    expectUnavailable(t, await command(app, id, tokens[0], { command: { type: 'throw' } }), 'a command');
  }
  await setReadOnly(false);
  t.equal((await command(app, id, tokens[0], { command: { type: 'throw' } })).statusCode, 200, 'accepted once it is primary again');
});

t.test('a frozen database: requests fail with 503 in bounded time instead of hanging', async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'spielwerk-frozen-'));
  const server = await startEmbeddedPostgres({ dataDir, ephemeral: true, settings: { fsync: 'off' } });
  t.teardown(() => server.stop());
  await applyMigrations(server.url);
  const clients = createClients(server.url, { poolSize: 2, connectTimeoutMs: 500, statementTimeoutMs: 800 });
  t.teardown(() => clients.close());
  const app = await buildApp({ prisma: clients.prisma, pool: clients.pool, scheduler: { timers: false } });
  t.teardown(() => app.close());
  t.equal((await app.inject({ url: '/games' })).statusCode, 200);
  // The postmaster and every process it forked (each backend is a process group of its own).
  const postmaster = Number((await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  const serverProcesses = [postmaster, ...readdirSync('/proc').filter((entry) => /^\d+$/.test(entry) && parentOf(Number(entry)) === postmaster).map(Number)];
  const signal = (name: NodeJS.Signals) => {
    for (const pid of serverProcesses) {
      try {
        process.kill(pid, name);
      } catch {
        // a short-lived child that has exited meanwhile
      }
    }
  };
  signal('SIGSTOP');
  t.teardown(() => signal('SIGCONT'));
  for (const [what, request] of [
    ['listing games', { url: '/games' }],
    ['creating a game', { method: 'POST' as const, url: '/games', payload: { type: 'pechvogel', seats: [{}, {}] } }],
  ] as const) {
    const started = Date.now();
    const response = await app.inject(request);
    const took = Date.now() - started;
    expectUnavailable(t, response, what);
    t.ok(took < 4000, `${what}: answered in ${took} ms`);
  }
  signal('SIGCONT');
  let back = 0;
  for (let i = 0; i < 50 && back !== 200; i++) back = (await app.inject({ url: '/games' })).statusCode;
  t.equal(back, 200, 'and recover once it runs again');
});

t.test('what Node refuses before routing is a problem document too', async (t) => {
  const app = await testApp(t);
  const port = await listeningPort(app);
  const raw = async (request: string) => {
    const socket = net.connect(port, '127.0.0.1');
    await once(socket, 'connect');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.on('error', () => {});
    socket.write(request);
    await once(socket, 'close');
    return received;
  };
  for (const [what, request, status, code] of [
    ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n', 400, 'request/malformed'],
    ['headers over the size limit', `GET /games HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'request/headers-too-large'],
  ] as const) {
    const answer = await raw(request);
    t.match(answer, new RegExp(`^HTTP/1.1 ${status} `), `${what}: ${status}`);
    t.match(answer, /Content-Type: application\/problem\+json/);
    t.equal(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).code, code, `${what}: ${code}`);
  }
});

t.test('a NUL in a socket command is refused with a problem and appends nothing', async (t) => {
  const app = await testApp(t);
  const { id, tokens } = await createGame(app, { type: 'pechvogel', seats: [{}, {}], seed: 'nul' });
  const before = (await app.inject({ url: `/games/${id}` })).json().version;
  const port = await listeningPort(app);
  const socket = new WebSocket(`ws://127.0.0.1:${port}/games/${id}/live?token=${tokens[0]}`);
  await once(socket, 'message');
  socket.send(JSON.stringify({ type: 'command', id: 'n', command: { type: 'throw' }, idempotencyKey: 'k\u0000' }));
  const [raw] = (await once(socket, 'message')) as [Buffer];
  const answer = JSON.parse(raw.toString());
  t.equal(answer.type, 'error');
  t.equal(answer.problem.code, 'request/invalid');
  socket.close();
  t.equal((await app.inject({ url: `/games/${id}` })).json().version, before, 'nothing appended');
});
