// Shutdown as an operator sees it: `npm start` stops, with its embedded Postgres, on a
// SIGTERM to the npm process; /ready turns 503 before the server stops serving; no
// client (a socket that never answers the close handshake, a refused upgrade, a
// half-sent request) keeps the process from stopping; and a command sent on a socket
// while it closes is either committed and acknowledged or refused with a problem.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import WebSocket from 'ws';
import { buildApp, type App } from '../../src/app.ts';
import { listeningPort } from '../helpers/app.ts';
import { testDatabase, type TestDatabase, type TestLike } from '../helpers/database.ts';

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/** pid → parent pid of every live process (zombies count as gone). */
function processTable(): Map<number, number> {
  const table = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state !== 'Z') table.set(Number(entry), Number(parent));
    } catch {
      // gone meanwhile
    }
  }
  return table;
}

function descendants(root: number): number[] {
  const table = processTable();
  const found = [root];
  for (let i = 0; i < found.length; i++) for (const [pid, parent] of table) if (parent === found[i]) found.push(pid);
  return found;
}

const alive = (pids: readonly number[]) => {
  const table = processTable();
  return pids.filter((pid) => table.has(pid));
};

t.test('SIGTERM to `npm start` stops everything it started, the embedded Postgres too, after /ready turned 503', async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'spielwerk-npm-start-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', EMBEDDED_PG_DATA_DIR: dataDir, SHUTDOWN_GRACE_MS: '1500' };
  delete env.DATABASE_URL;
  // As the README gives it; a process group of its own only so that a failed test can
  // clean up after itself.
  const npm = spawn('npm', ['start'], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  npm.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  npm.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let started: number[] = [];
  t.teardown(() => {
    for (const pid of alive(started)) process.kill(pid, 'SIGKILL');
  });
  const url = `http://127.0.0.1:${port}`;
  const since = Date.now();
  while (!output.includes('Server listening at')) {
    if (npm.exitCode !== null || Date.now() - since > 90_000) throw new Error(`npm start did not start the server:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  t.equal((await fetch(`${url}/ready`)).status, 200);
  started = descendants(npm.pid!);
  t.ok(started.some((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres')), 'npm start runs the embedded Postgres among its processes');

  process.kill(npm.pid!, 'SIGTERM');
  // The grace period: not ready any more, but still serving.
  let ready: Response;
  do ready = await fetch(`${url}/ready`);
  while (ready.status === 200 && Date.now() - since < 120_000);
  t.equal(ready.status, 503, '/ready turns 503 first');
  t.match(ready.headers.get('content-type'), /^application\/problem\+json/);
  t.equal(((await ready.json()) as { code: string }).code, 'server/shutting-down');
  t.equal((await fetch(`${url}/games`)).status, 200, 'and the server keeps serving for the grace period');

  const stopBy = Date.now() + 20_000;
  while (alive(started).length > 0 && Date.now() < stopBy) await new Promise((r) => setTimeout(r, 100));
  t.same(alive(started), [], 'every process npm start started is gone');
  if (npm.stdout!.readable) await once(npm, 'close');
  t.match(output, /stopped cleanly/, 'after a clean shutdown');
});

async function listeningApp(t: TestLike, closeTimeoutMs: number): Promise<{ app: App; port: number; database: TestDatabase }> {
  const database = await testDatabase(t);
  const app = await buildApp({ prisma: database.prisma, pool: database.pool, scheduler: { timers: false }, closeTimeoutMs });
  const port = await listeningPort(app);
  t.teardown(() => app.close());
  return { app, port, database };
}

/** A raw connection: what a client that misbehaves can do. */
async function connect(port: number): Promise<{ socket: net.Socket; received: () => string; ended: Promise<unknown> }> {
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => {});
  return { socket, received: () => received, ended: once(socket, 'close') };
}

async function timed(work: Promise<unknown>): Promise<number> {
  const start = Date.now();
  await work;
  return Date.now() - start;
}

t.test('a socket that never answers the close handshake is cut at the close timeout', async (t) => {
  const { app, port } = await listeningApp(t, 400);
  const { game } = await (await fetch(`http://127.0.0.1:${port}/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'pechvogel', seats: [{}, {}] }) })).json() as { game: { id: string } };
  const mute = await connect(port);
  mute.socket.write(`GET /games/${game.id}/live HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`);
  while (!mute.received().includes('"type":"update"')) await new Promise((r) => setTimeout(r, 10));
  t.match(mute.received(), /^HTTP\/1.1 101/, 'upgraded, and then it never reads or answers again');
  const took = await timed(app.close());
  t.ok(took < 3000, `close() finished in ${took} ms, not ws's 30 s close timeout`);
  await mute.ended;
  t.pass('the mute socket was cut');
});

t.test('a refused upgrade is answered with a problem and closed, and keeps nothing open', async (t) => {
  const { app, port } = await listeningApp(t, 5000);
  for (const [target, status] of [['/games/%FF/live', 400], [`/games/${'a'.repeat(150)}/live`, 414]] as const) {
    const client = await connect(port);
    client.socket.write(`GET ${target} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`);
    await client.ended;
    t.match(client.received(), new RegExp(`^HTTP/1.1 ${status} `), `${target.slice(0, 20)}…: ${status}`);
    t.match(client.received(), /content-type: application\/problem\+json/i);
    t.match(client.received(), /"code":"request\//);
  }
  const took = await timed(app.close());
  t.ok(took < 1000, `close() finished in ${took} ms`);
});

t.test('while closing, a request on an open connection gets a 503 problem, and a half-sent one cannot hold the close up', async (t) => {
  const { app, port } = await listeningApp(t, 600);
  const late = await connect(port);
  late.socket.write('GET /catalog HTTP/1.1\r\nHost: x\r\n');
  const stuck = await connect(port);
  stuck.socket.write('GET /catalog HTTP/1.1\r\nHost: x\r\n');
  await new Promise((r) => setTimeout(r, 50));
  const closing = timed(app.close());
  await new Promise((r) => setTimeout(r, 100));
  late.socket.write('\r\n');
  await late.ended;
  t.match(late.received(), /^HTTP\/1.1 503 /);
  t.match(late.received(), /content-type: application\/problem\+json/i);
  t.match(late.received(), /connection: close/i);
  t.match(late.received(), /"code":"server\/shutting-down"/);
  const took = await closing;
  t.ok(took < 2000, `close() finished in ${took} ms although one request never finished arriving`);
  await stuck.ended;
});

async function createPechvogel(port: number) {
  const response = await fetch(`http://127.0.0.1:${port}/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'pechvogel', seats: [{}, {}, {}] }) });
  const created = (await response.json()) as { game: { id: string; version: number }; seats: { token: string }[] };
  return { id: created.game.id, version: created.game.version, tokens: created.seats.map((s) => s.token) };
}

interface Update {
  type: string;
  version: number;
  legalCommands: unknown[];
  problem?: { code: string };
}

/** A socket of the seat that is to act, with its first update. */
async function pendingSeat(port: number, game: { id: string; tokens: string[] }) {
  for (const token of game.tokens) {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/games/${game.id}/live?token=${token}`);
    const [raw] = (await once(socket, 'message')) as [Buffer];
    const update = JSON.parse(raw.toString()) as Update;
    if (update.legalCommands.length > 0) return { socket, update };
    socket.close();
  }
  throw new Error('nobody may act');
}

const nextAnswer = (socket: WebSocket) =>
  new Promise<Update>((resolve) => {
    const listener = (raw: Buffer) => {
      const message = JSON.parse(raw.toString()) as Update;
      if (message.type === 'update') return;
      socket.off('message', listener);
      resolve(message);
    };
    socket.on('message', listener);
  });

t.test('once closing starts, a socket command is refused with a problem; one accepted before is committed and acknowledged first', async (t) => {
  const { app, port, database } = await listeningApp(t, 5000);
  const slow = await createPechvogel(port);
  const late = await createPechvogel(port);
  const first = await pendingSeat(port, slow);
  const second = await pendingSeat(port, late);
  // Hold the first game's row so that its command's commit waits until released.
  const lock = await database.pool.connect();
  await lock.query('BEGIN');
  await lock.query('SELECT version FROM game WHERE id = $1 FOR UPDATE', [slow.id]);
  const firstAnswer = nextAnswer(first.socket);
  first.socket.send(JSON.stringify({ type: 'command', command: first.update.legalCommands[0], expectedVersion: first.update.version }));
  await new Promise((r) => setTimeout(r, 100));
  const closed = app.close();
  while (!app.lifecycle.closing) await new Promise((r) => setTimeout(r, 5));
  const secondAnswer = nextAnswer(second.socket);
  second.socket.send(JSON.stringify({ type: 'command', command: second.update.legalCommands[0], expectedVersion: second.update.version }));
  t.equal((await secondAnswer).problem?.code, 'server/shutting-down', 'a command sent after closing began is refused');
  await lock.query('COMMIT');
  lock.release();
  const answer = await firstAnswer;
  t.equal(answer.type, 'ack', 'the command accepted before closing is acknowledged');
  const [code] = await once(first.socket, 'close');
  t.equal(code, 1001, 'and only then is its socket closed');
  await closed;
  const version = async (id: string) => (await database.pool.query<{ version: number }>('SELECT version FROM game WHERE id = $1', [id])).rows[0]!.version;
  t.equal(await version(slow.id), answer.version, 'the acknowledged command is committed');
  t.equal(await version(late.id), late.version, 'the refused one changed nothing');
});

t.test('under a stream of socket commands, closing leaves no command committed without its acknowledgement', async (t) => {
  const { app, port, database } = await listeningApp(t, 5000);
  const games = await Promise.all(Array.from({ length: 6 }, () => createPechvogel(port)));
  const answers: { kind: 'ack' | 'error'; code?: string }[] = [];
  const acked = new Map(games.map((game) => [game.id, game.version]));
  const closed = games.flatMap(({ id, tokens }) =>
    tokens.map((token) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/games/${id}/live?token=${token}`);
      // On every update, send what may be played now: commands keep arriving while closing.
      socket.on('message', (raw: Buffer) => {
        const message = JSON.parse(raw.toString()) as Update;
        if (message.type === 'ack') {
          answers.push({ kind: 'ack' });
          acked.set(id, Math.max(acked.get(id)!, message.version));
        } else if (message.type === 'error') answers.push({ kind: 'error', code: message.problem!.code });
        if (message.type === 'update' && message.legalCommands.length > 0) {
          socket.send(JSON.stringify({ type: 'command', command: message.legalCommands[0], expectedVersion: message.version }));
        }
      });
      return once(socket, 'close');
    }),
  );
  while (answers.filter((a) => a.kind === 'ack').length < 30) await new Promise((r) => setTimeout(r, 5));
  await app.close();
  await Promise.all(closed);
  t.same(answers.filter((a) => a.kind === 'error' && a.code !== 'server/shutting-down' && a.code !== 'command/stale-version'), [], 'refusals say the server is shutting down (or the game moved on)');
  const { rows } = await database.pool.query<{ id: string; version: number }>('SELECT id, version FROM game');
  t.same(new Map(rows.map((row) => [row.id, row.version])), acked, 'each game is at its last acknowledged version');
});
