// Connections per address and in all, and slow clients (src/routes/connection-limits.ts):
// over a limit a connection is answered 503 `server/too-many-connections` at once and
// closed, and its request is not handled; connections that never finish their headers
// (slowloris) are cut with 408 within the configured time; a live socket, once
// upgraded, is no request any more and stays open however long it is quiet.
import { once } from 'node:events';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import WebSocket from 'ws';
import { createGame, listeningPort, testApp } from '../helpers/app.ts';

interface Held {
  socket: net.Socket;
  answer: () => string;
  closed: Promise<number>;
}

/** A connection from `from` (any 127.x.y.z is this machine) that sends `first`. */
async function open(port: number, from: string, first = ''): Promise<Held> {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
  await once(socket, 'connect');
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  socket.on('error', () => {});
  const started = Date.now();
  const closed = once(socket, 'close').then(() => Date.now() - started);
  if (first !== '') socket.write(first);
  return { socket, answer: () => answer, closed };
}

const cut = (held: Held) => Promise.race([held.closed, sleep(3000, undefined, { ref: false }).then(() => Promise.reject(new Error('the server kept the connection open')))]);

const isOpen = async (held: Held) => (await Promise.race([held.closed.then(() => false), sleep(100).then(() => true)]));

t.test('connections over the per-address or the overall limit are refused with a problem; their requests are not handled', async (t) => {
  const app = await testApp(t, { connections: { perAddress: 2, max: 3 } });
  const port = await listeningPort(app);
  const idle = 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n';
  const first = [await open(port, '127.0.0.1', idle), await open(port, '127.0.0.1', idle)];
  const overAddress = await open(port, '127.0.0.1', 'POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 51\r\n\r\n{"type":"pechvogel","seats":[{},{}],"seed":"limit"}');
  await cut(overAddress);
  t.match(overAddress.answer(), /^HTTP\/1.1 503 [^]*application\/problem\+json[^]*"code":"server\/too-many-connections"/, 'a third connection from one address: 503 problem');
  t.equal(overAddress.answer().match(/HTTP\/1.1/g)?.length, 1, 'and its request was not handled');
  t.equal((await app.inject({ url: '/games' })).json().games.length, 0, 'nothing was created');
  const other = await open(port, '127.0.0.2', idle);
  const overall = await open(port, '127.0.0.3', idle);
  await cut(overall);
  t.match(overall.answer(), /^HTTP\/1.1 503 [^]*"code":"server\/too-many-connections"/, 'a fourth connection from anywhere: over the overall limit');
  t.ok((await Promise.all([...first, other].map(isOpen))).every(Boolean), 'the connections within the limits stay open (keep-alive)');
  t.match(other.answer(), /^HTTP\/1.1 200 /);
  first[0]!.socket.destroy();
  await first[0]!.closed;
  await sleep(50);
  const again = await open(port, '127.0.0.1', idle);
  await sleep(200);
  t.match(again.answer(), /^HTTP\/1.1 200 /, 'a closed connection makes room again');
  for (const held of [...first, other, again]) held.socket.destroy();
});

t.test('slow clients that never finish their headers are cut within the headers timeout; an upgraded socket is not', async (t) => {
  const app = await testApp(t, { connections: { headersTimeoutMs: 500, requestTimeoutMs: 1000 } });
  const port = await listeningPort(app);
  const { id } = await createGame(app, { type: 'pechvogel', seats: [{}, {}] });
  const live = new WebSocket(`ws://127.0.0.1:${port}/games/${id}/live`);
  let liveClosed = false;
  live.on('close', () => (liveClosed = true));
  await once(live, 'open');

  // Slowloris: a header line every 100 ms, never the empty line that ends them.
  const slow = await Promise.all(Array.from({ length: 20 }, () => open(port, '127.0.0.1', 'GET /health HTTP/1.1\r\nHost: x\r\n')));
  const drip = setInterval(() => {
    for (const { socket } of slow) if (!socket.destroyed) socket.write(`X-Slow: ${Date.now()}\r\n`);
  }, 100);
  t.teardown(() => clearInterval(drip));
  // And connections that send nothing at all.
  const silent = await Promise.all(Array.from({ length: 5 }, () => open(port, '127.0.0.1')));
  const lifetimes = await Promise.race([Promise.all([...slow, ...silent].map((held) => held.closed)), sleep(5000).then(() => null)]);
  t.ok(lifetimes !== null, 'every slow connection was cut');
  t.ok(lifetimes !== null && Math.max(...lifetimes) < 2000, `within the headers timeout and one check (${lifetimes === null ? '-' : Math.max(...lifetimes)} ms)`);
  t.match(slow[0]!.answer(), /^HTTP\/1.1 408 [^]*"code":"request\/timeout"/, 'with a 408 problem');
  await sleep(1500);
  t.notOk(liveClosed, 'the live socket, quiet for longer than both timeouts, is still open');
  live.close();
});
