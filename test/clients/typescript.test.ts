// The TypeScript client (clients/typescript) plays a full game of each of the four
// games against a real server: seat 0 over the live socket (its commands answered by
// acks, one reconnect in the middle), the others over REST, with the server's own
// deadlines and timeouts running. Every update arrives once, in order, with no event
// missing, across the reconnect.
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import t from 'tap';
import WebSocket from 'ws';
import { bearer, createRestClient, LiveDisconnected, LiveError, LiveGame, type Schemas, type Update } from '@spielwerk/client';
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
  const balancer = createServer((_request, response) => response.writeHead(503, { 'retry-after': '1' }).end());
  balancer.on('upgrade', (request, socket) => {
    dials.push(request.url ?? '');
    socket.end('HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
  });
  await new Promise<void>((resolve) => balancer.listen(0, '127.0.0.1', resolve));
  t.teardown(() => balancer.close());
  const { port } = balancer.address() as AddressInfo;
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
  t.throws(() => viaPool.response.headers.set('x-a', 'b'), TypeError, "an answer's headers are read-only");

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

t.test("the client README's example plays a game to its end", async (t) => {
  const baseUrl = await listeningServer(t);
  const example = new URL('../../clients/typescript/examples/quick-start.ts', import.meta.url).pathname;
  const { stdout } = await run('node', ['--experimental-websocket', '--no-warnings', '--import', 'tsx', example], {
    env: { ...process.env, SPIELWERK_URL: baseUrl },
    timeout: 120_000,
  });
  t.match(stdout, /^version 1: TurnStarted; seat 0's turn, 7 dice left$/m, 'the first update brings the opening turn');
  t.match(stdout, /^scores -?\d+ : -?\d+$/m, 'the game ended with scores');
});
