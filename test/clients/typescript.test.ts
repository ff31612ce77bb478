// The TypeScript client (clients/typescript) plays a full game of each of the four
// games against a real server: seat 0 over the live socket (its commands answered by
// acks, one reconnect in the middle), the others over REST, with the server's own
// deadlines and timeouts running. Every update arrives once, in order, with no event
// missing, across the reconnect.
import { execFile } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { promisify } from 'node:util';
import t from 'tap';
import WebSocket from 'ws';
import { bearer, createRestClient, LiveDisconnected, LiveError, LiveGame, LiveProtocolError, type Schemas, type SocketLike, type Update } from '@spielwerk/client';
import { poolTransport } from '@spielwerk/client/node';
import { buildApp } from '../../src/app.ts';
import { closeAtTeardown, listening } from '../helpers/app.ts';
import { testDatabase, type TestLike } from '../helpers/database.ts';

const tables: Schemas['CreateGameRequestInput'][] = [
  { type: 'pechvogel', seats: [{}, {}, {}], options: { reactionSeconds: 1 } },
  { type: 'fackel-und-keule', seats: [{}, {}, {}] },
  { type: 'mistkaefer', seats: [{}, {}] },
  { type: 'porca-miseria', seats: [{}, {}, {}], options: { maxActions: 8, revealMs: 500, windowMs: 500 } },
];

/** A small seeded generator, so that a failure can be replayed. */
const generator = (seed: number) => () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);

const run = promisify(execFile);

/** A server on a port of its own, with its scheduler running, closed with the test;
 * answers its base URL. */
async function listeningServer(t: TestLike): Promise<string> {
  const database = await testDatabase(t);
  const app = await buildApp({ prisma: database.prisma, pool: database.pool, notifyUrl: database.url, scheduler: { pollMs: 100 } });
  const url = await listening(app);
  closeAtTeardown(t, app);
  return url;
}

const stale = (code: string) => code === 'command/stale-version' || code === 'command/conflict' || code === 'game/not-running';

for (const table of tables) {
  t.test(`a whole ${table.type} game through the client`, async (t) => {
    const baseUrl = await listeningServer(t);
    // REST over the pool transport, as the repository's scripts use it.
    const transport = poolTransport(baseUrl, { connections: 2 });
    t.teardown(() => transport.close());
    const rest = createRestClient({ baseUrl, transport });

    const created = await rest.POST('/games', { body: { ...table, seed: `client-${table.type}` } });
    if (created.data === undefined) throw new Error(`create failed: ${JSON.stringify(created.error)}`);
    const id = created.data.game.id;
    const tokens = created.data.seats.map((s) => s.token ?? '');

    const sockets: { url: string; socket: WebSocket }[] = [];
    const live = new LiveGame({
      baseUrl,
      gameId: id,
      gameType: table.type,
      token: tokens[0]!,
      backoff: { firstMs: 20, maxMs: 200 },
      connect: (url) => {
        const socket = new WebSocket(url);
        sockets.push({ url, socket });
        return socket;
      },
    });
    const updates: Update[] = [];
    const watching = (async () => {
      for await (const update of live) {
        updates.push(update);
        if (update.status === 'finished') break;
      }
    })();

    const random = generator(table.type.length * 7919);
    let viaSocket = 0;
    for (let step = 0; step < 5000; step++) {
      const game = await rest.GET('/games/{id}', { params: { path: { id } } });
      if (game.data === undefined) throw new Error(JSON.stringify(game.error));
      if (game.data.status === 'finished') break;
      const seats = game.data.pending.seats;
      const seat = seats[Math.floor(random() * seats.length)];
      if (seat === undefined) {
        // Nobody may act until a deadline passes; the server's scheduler sends the timeout.
        await new Promise((resolve) => setTimeout(resolve, 50));
        continue;
      }
      const mine = await rest.GET('/games/{id}', { params: { path: { id } }, headers: bearer(tokens[seat]!) });
      const legal = mine.data?.legalCommands ?? [];
      const command = legal[Math.floor(random() * legal.length)];
      if (mine.data === undefined || command === undefined) continue;
      if (step === 20) sockets.at(-1)?.socket.terminate();
      if (seat === 0) {
        try {
          const ack = await live.send(command, { expectedVersion: mine.data.version });
          if (ack.gameType !== table.type) throw new Error(`an ack of a ${ack.gameType} game`);
          viaSocket++;
        } catch (error) {
          // A lost race, or the answer lost with the socket this test cut.
          if (!(error instanceof LiveError && stale(error.problem.code)) && !(error instanceof LiveDisconnected)) throw error;
        }
      } else {
        const answer = await rest.POST('/games/{id}/commands', { params: { path: { id } }, headers: bearer(tokens[seat]!), body: { command, expectedVersion: mine.data.version } });
        if (answer.error !== undefined && !stale(answer.error.code)) throw new Error(JSON.stringify(answer.error));
      }
    }
    await watching;
    live.close();

    const replay = await rest.GET('/games/{id}/replay', { params: { path: { id } } });
    t.equal(replay.data?.gameType, table.type, 'the game finished and its replay is typed by its game type');
    t.ok(viaSocket > 0, `seat 0 sent ${viaSocket} commands over the socket`);
    t.ok(sockets.length >= 2 && new URL(sockets[1]!.url).searchParams.get('after') !== '0', 'reconnected with after=N');
    const seqs = updates.flatMap((u) => u.events.map((e) => e.seq));
    const final = updates.at(-1)?.version ?? 0;
    t.same(seqs, Array.from({ length: final }, (_, i) => i + 1), 'every event once, in order, across the reconnect');
    t.equal(final, replay.data?.steps.length, 'the last update is the end of the game');
  });
}

t.test('a live socket refused for now (503: its database fails over) is dialled again after the wait it asks for, and misses nothing', async (t) => {
  const database = await testDatabase(t);
  const app = await buildApp({ prisma: database.prisma, pool: database.pool, notifyUrl: database.url, scheduler: { timers: false } });
  const baseUrl = await listening(app);
  closeAtTeardown(t, app);
  const created = await createRestClient({ baseUrl }).POST('/games', { body: { type: 'mistkaefer', seats: [{}, {}] } });
  const { id, version } = created.data!.game;
  // The socket's first opening meets a new primary that is still starting up.
  const { reads } = app.services;
  const principalFor = reads.principalFor.bind(reads);
  let refusals = 1;
  reads.principalFor = (...args) => (refusals-- > 0 ? Promise.reject(Object.assign(new Error('the database system is starting up'), { code: '57P03' })) : principalFor(...args));
  const closes: number[] = [];
  const started = Date.now();
  const live = new LiveGame({
    baseUrl,
    gameId: id,
    gameType: 'mistkaefer',
    connect: (url) => {
      const socket = new WebSocket(url);
      socket.on('close', (code) => closes.push(code));
      return socket;
    },
  });
  const first = await live[Symbol.asyncIterator]().next();
  const waited = Date.now() - started;
  live.close();
  t.equal(closes[0], 4503, 'refused for now');
  t.ok(waited >= 2000, `dialled again after the 2 s the refusal asked for (${waited} ms)`);
  t.same(first.value?.events.map((e: { seq: number }) => e.seq), Array.from({ length: version }, (_, i) => i + 1), 'and then told everything from the start');
});

t.test('a live socket whose upgrade a balancer answers with 503 (no instance ready) is dialled again, not thrown', async (t) => {
  // What HAProxy answers while every instance's /ready fails, e.g. during a failover.
  const dials: string[] = [];
  const balancer = http.createServer((_request, response) => response.writeHead(503, { 'retry-after': '1' }).end());
  balancer.on('upgrade', (request, socket) => {
    dials.push(request.url ?? '');
    socket.end('HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
  });
  await new Promise<void>((resolve) => balancer.listen(0, '127.0.0.1', resolve));
  t.teardown(() => balancer.close());
  const { port } = balancer.address() as net.AddressInfo;
  const live = new LiveGame({ baseUrl: `http://127.0.0.1:${port}`, gameId: '00000000-0000-4000-8000-000000000000', gameType: 'mistkaefer', after: 7, backoff: { firstMs: 10, maxMs: 10 }, connect: (url) => new WebSocket(url) });
  for (const started = Date.now(); dials.length < 3 && Date.now() - started < 5000; ) await new Promise((resolve) => setTimeout(resolve, 10));
  live.close();
  t.ok(dials.length >= 3, `dialled ${dials.length} times`);
  t.ok(dials.every((url) => url.includes('after=7')), 'each time after the last version seen');
});

t.test('the pool transport answers as fetch does: problems, headers, the token option', async (t) => {
  const baseUrl = await listeningServer(t);
  const transport = poolTransport(`${baseUrl}/`, { connections: 1 });
  t.teardown(() => transport.close());
  const pooled = createRestClient({ baseUrl, transport });
  const fetched = createRestClient({ baseUrl });

  const missing = { params: { path: { id: '00000000-0000-4000-8000-000000000000' } } };
  const [viaPool, viaFetch] = await Promise.all([pooled.GET('/games/{id}', missing), fetched.GET('/games/{id}', missing)]);
  t.equal(viaPool.response.status, 404);
  t.notOk(viaPool.response.ok);
  t.same(viaPool.error, viaFetch.error, 'the same problem document');
  t.equal(viaPool.error?.code, 'game/not-found');
  t.equal(viaPool.response.headers.get('Content-Type'), viaFetch.response.headers.get('content-type'), 'headers by any case');

  const created = await pooled.POST('/games', { body: { type: 'mistkaefer', seats: [{}, {}] } });
  t.equal(created.response.status, 201);
  const id = created.data?.game.id ?? '';
  const seat = createRestClient({ baseUrl, transport, token: created.data?.seats[0]?.token ?? '' });
  const mine = await seat.GET('/games/{id}', { params: { path: { id } } });
  t.ok((mine.data?.legalCommands.length ?? 0) > 0, "the client's token reaches the server: seat 0 has legal commands");
  t.same(mine.data, (await fetched.GET('/games/{id}', { params: { path: { id } }, headers: bearer(created.data?.seats[0]?.token ?? '') })).data, 'the same answer as over fetch');

  const elsewhere = createRestClient({ baseUrl: 'http://127.0.0.2:1', transport });
  await t.rejects(elsewhere.GET('/health'), TypeError, 'a request to another origin is refused, not sent');
});

t.test('a socket message the schemas do not describe ends the iterator with a LiveProtocolError, not a cast', async (t) => {
  const baseUrl = await listeningServer(t);
  const created = await createRestClient({ baseUrl }).POST('/games', { body: { type: 'pechvogel', seats: [{}, {}] } });
  const token = created.data?.seats[0]?.token ?? '';
  /** The server's messages, with `change` applied on the way. */
  const altered = (change: (message: Record<string, unknown>) => unknown) => (url: string): SocketLike => {
    const socket = new WebSocket(url);
    const client: SocketLike = { send: (data) => socket.send(data), close: (code, reason) => socket.close(code, reason), onopen: null, onmessage: null, onclose: null };
    socket.onopen = () => client.onopen?.({});
    socket.onmessage = (event) => client.onmessage?.({ data: JSON.stringify(change(JSON.parse(String(event.data)) as Record<string, unknown>)) });
    socket.onclose = (event) => client.onclose?.({ code: event.code, reason: event.reason });
    return client;
  };
  const first = async (change: (message: Record<string, unknown>) => unknown) => {
    const live = new LiveGame({ baseUrl, gameId: created.data?.game.id ?? '', gameType: 'pechvogel', token, connect: altered(change) });
    try {
      for await (const update of live) return update;
    } catch (error) {
      return error;
    }
  };
  t.equal(((await first((m) => m)) as Update).version, 1, 'as sent, the update is handed on');
  const cases: [string, (m: Record<string, unknown>) => unknown, RegExp][] = [
    ['a command no seat of the game may send', (m) => ({ ...m, legalCommands: [{ type: 'fly' }] }), /\$\.legalCommands\.0/],
    ['no version', ({ version: _, ...m }) => m, /\$\.version: missing/],
    ['an unknown message', (m) => ({ ...m, type: 'hello' }), /\$\.type: "hello" is no message/],
  ];
  for (const [what, change, said] of cases) {
    const error = await first(change);
    t.type(error, LiveProtocolError, `${what}: a LiveProtocolError`);
    t.match((error as LiveProtocolError).mismatch, said, `${what}: it says where (${(error as Error).message})`);
  }
});

/** A proxy in front of `target` that hands everything on (sockets too) but answers the
 * first command sent over REST itself: 409 `command/conflict`, as when another command
 * was appended first. */
const hopByHop = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

async function conflictingProxy(t: TestLike, target: string): Promise<{ url: string; conflicts: () => number }> {
  const upstream = new URL(target);
  let conflicts = 0;
  const proxy = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    if (request.method === 'POST' && /\/commands/.test(request.url ?? '') && conflicts === 0) {
      conflicts++;
      response.writeHead(409, { 'content-type': 'application/problem+json' });
      return response.end(JSON.stringify({ type: 'urn:spielwerk:problem:command/conflict', title: 'Conflict', status: 409, code: 'command/conflict', detail: 'another command was appended first; read the game and decide again' }));
    }
    const headers = Object.entries(request.headers).filter(([name]) => !hopByHop.has(name)) as [string, string][];
    const answer = await fetch(new URL(request.url ?? '/', upstream), { method: request.method, headers, ...(body.length > 0 ? { body } : {}) });
    response.writeHead(answer.status, Object.fromEntries([...answer.headers].filter(([name]) => name !== 'content-encoding' && name !== 'content-length')));
    response.end(Buffer.from(await answer.arrayBuffer()));
  });
  // A socket's upgrade goes through as bytes.
  proxy.on('upgrade', (request: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    const server = net.connect(Number(upstream.port), upstream.hostname, () => {
      server.write(`${request.method} ${request.url} HTTP/1.1\r\n${Object.entries(request.headers).map(([name, value]) => `${name}: ${String(value)}`).join('\r\n')}\r\n\r\n`);
      server.write(head);
      server.pipe(socket).pipe(server);
    });
    server.on('error', () => socket.destroy());
    socket.on('error', () => server.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => {
    proxy.closeAllConnections();
    proxy.close(() => resolve());
  }));
  return { url: `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`, conflicts: () => conflicts };
}

t.test("the client README's example plays a game to its end, and takes a command/conflict as any 409: read and decide again", async (t) => {
  const proxy = await conflictingProxy(t, await listeningServer(t));
  const example = new URL('../../clients/typescript/examples/quick-start.ts', import.meta.url).pathname;
  const { stdout } = await run('node', ['--experimental-websocket', '--no-warnings', '--import', 'tsx', example], {
    env: { ...process.env, SPIELWERK_URL: proxy.url },
    timeout: 120_000,
  });
  t.equal(proxy.conflicts(), 1, 'its first REST command was refused with command/conflict');
  t.match(stdout, /^version 1: TurnStarted; seat 0's turn, 7 dice left$/m, 'the first update brings the opening turn');
  t.match(stdout, /^scores -?\d+ : -?\d+$/m, 'the game ended with scores');
});
