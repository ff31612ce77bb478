// What a live socket may cost the server (src/live/socket-limits.ts): a socket that
// does not read is closed with 1013 once too much waits for it, and its client
// reconnects with after=N and misses nothing; a long catch-up comes in bounded parts
// that wait for a slow socket; a flooding socket is refused and then closed (4429);
// binary frames close with 1003; an upgrade on a route that is no live socket is
// refused with a problem. Sockets go over real TCP where the kernel's buffers matter.
import { once } from 'node:events';
import net from 'node:net';
import { setImmediate as turn, setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import WebSocket from 'ws';
import { LiveGame, type Update } from '@spielwerk/client';
import { randomBot } from '../../src/bots/bot.ts';
import { play } from '../../src/bots/index.ts';
import { advance } from '../../src/commands/command-handler.ts';
import type { GameEvent } from '../../src/domain/contract.ts';
import { findGame } from '../../src/domain/games.ts';
import type { LiveLimits } from '../../src/live/socket-limits.ts';
import { testDatabase, type TestLike } from '../helpers/database.ts';
import { setupOf, type LoadedGame } from '../../src/state/latest-states.ts';
import { createGame, listening, testApp } from '../helpers/app.ts';
import { connect } from '../helpers/ws.ts';

/** A Porca Miseria game of about 16,000 events, played by random bots through the
 * rules in memory and written to the store with its first `stored` events (all when
 * absent), as if it had been played on the server. */
async function longGame(app: LimitedApp, stored?: number, type = 'porca-miseria') {
  const options = type === 'porca-miseria' ? { maxActions: 10_000 } : {};
  const prepared = app.services.setup.prepare({ type, seats: [{}, {}, {}, {}], seed: 'a long table', chance: 'server', options });
  const played = play(findGame(type)!, { bots: [randomBot, randomBot, randomBot, randomBot], seed: prepared.record.seed, options: prepared.record.options });
  const events = played.events as readonly GameEvent[];
  const version = stored ?? events.length;
  const at = new Date();
  const client = await app.pool.connect();
  try {
    await app.services.store.insertGames(client, [
      {
        record: { ...prepared.record, status: version === events.length ? 'finished' : 'running', version, finishedAt: version === events.length ? at : null },
        events: events.slice(0, version).map((event, i) => ({ seq: i + 1, event, actor: 'system', at })),
      },
    ]);
  } finally {
    client.release();
  }
  return { id: prepared.record.id, events, record: prepared.record, tokens: prepared.seatTokens };
}

/** Writes the rest of the game's events and reports each as its own commit of this
 * instance, as the command handler does: one push per event to every watcher. */
async function commitRest(app: LimitedApp, game: Awaited<ReturnType<typeof longGame>>, from: number, each: () => void) {
  const { store, hub } = app.services;
  const at = new Date();
  await app.pool.query(
    `INSERT INTO event (game_id, seq, type, data, actor, at) SELECT $1, seq, data->>'type', data, 'system', $2 FROM jsonb_to_recordset($3::jsonb) AS e(seq int, data jsonb)`,
    [game.id, at, JSON.stringify(game.events.slice(from).map((data, i) => ({ seq: from + i + 1, data })))],
  );
  await app.pool.query(`UPDATE game SET version = $2, status = 'finished' WHERE id = $1`, [game.id, game.events.length]);
  const record = (await store.loadGame(game.id))!;
  const rules = findGame('porca-miseria')!;
  const start: LoadedGame = { record: { ...record, version: 0, status: 'running' }, game: rules, setup: setupOf(record), version: 0, state: rules.initialState(setupOf(record)) };
  let loaded = advance(start, game.events.slice(0, from));
  for (const event of game.events.slice(from)) {
    const after = advance(loaded, [event]);
    hub.committed(loaded, [event], after);
    loaded = after;
    await turn();
    each();
  }
}

/** An app with limits, and its database's pool for writing games directly. */
async function limitedApp(t: TestLike, live: Partial<LiveLimits> = {}) {
  const database = await testDatabase(t);
  return Object.assign(await testApp(t, { database, live }), { pool: database.pool });
}
type LimitedApp = Awaited<ReturnType<typeof limitedApp>>;

const wsUrl = (base: string, path: string) => `${base.replace('http', 'ws')}${path}`;

/** Every message of a socket, parsed, and its close. */
function inbox(socket: WebSocket) {
  const messages: any[] = [];
  socket.on('message', (raw) => messages.push(JSON.parse(raw.toString())));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  return { messages, closed };
}

const within = <T>(work: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([work, sleep(ms, undefined, { ref: false }).then(() => Promise.reject(new Error(`${what} did not happen within ${ms} ms`)))]);

const seqs = (updates: readonly { events: readonly { seq: number }[] }[]) => updates.flatMap((u) => u.events.map((e) => e.seq));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

t.test('a socket that stops reading is closed with 1013 past its send buffer; LiveGame reconnects with after=N and misses nothing', async (t) => {
  const cap = 64 * 1024;
  const app = await limitedApp(t, { sendBufferBytes: cap });
  const base = await listening(app);
  const game = await longGame(app, 100);

  const sockets: WebSocket[] = [];
  const live = new LiveGame({
    baseUrl: base,
    gameId: game.id,
    gameType: 'porca-miseria',
    backoff: { firstMs: 20, maxMs: 200 },
    connect: (url) => {
      const socket = new WebSocket(url);
      sockets.push(socket);
      return socket;
    },
  });
  const updates: Update[] = [];
  const watching = (async () => {
    for await (const update of live) {
      updates.push(update);
      if (update.version === game.events.length) break;
    }
  })();
  // A second watcher that reads everything: the slow one must not hold it up.
  const reader = new WebSocket(wsUrl(base, `/games/${game.id}/live?after=100`));
  const read = inbox(reader);
  await once(reader, 'open');
  while (updates.length === 0 || read.messages.length === 0) await sleep(10);
  t.equal(updates[0]!.version, 100, 'the first update catches up to the stored version');
  sockets[0]!.pause();

  let mostBuffered = 0;
  let cutAt: number | undefined;
  await commitRest(app, game, 100, () => {
    const server = [...app.websocketServer.clients];
    mostBuffered = Math.max(mostBuffered, ...server.map((s) => s.bufferedAmount));
    if (cutAt === undefined && server.some((s) => s.readyState === s.CLOSING)) cutAt = updates.at(-1)!.version;
  });
  t.ok(cutAt !== undefined, 'the server closed the socket that does not read');
  t.ok(mostBuffered < cap + 8 * 1024, `no more than the cap and one update was buffered (${mostBuffered} bytes)`);
  sockets[0]!.resume();
  await within(watching, 20_000, 'catching up after the reconnect');
  t.equal(sockets.length, 2, 'LiveGame reconnected once');
  t.ok(Number(new URL(sockets[1]!.url).searchParams.get('after')) >= 100, 'with after=N');
  t.same(seqs(updates), range(1, game.events.length), 'every event once, in order, across the reconnect');
  while (read.messages.at(-1)?.version !== game.events.length) await within(sleep(10), 20_000, 'the reader');
  t.same(seqs(read.messages), range(101, game.events.length), 'the reading watcher got every push');
  reader.close();
});

t.test('a long catch-up comes in bounded parts, each an update with the view after it', async (t) => {
  const app = await limitedApp(t, { catchUpEvents: 500 });
  const base = await listening(app);
  const game = await longGame(app);
  const socket = new WebSocket(wsUrl(base, `/games/${game.id}/live?after=0`));
  const { messages } = inbox(socket);
  await within((async () => {
    while (messages.at(-1)?.version !== game.events.length) await sleep(20);
  })(), 30_000, 'the catch-up');
  t.equal(messages.length, Math.ceil(game.events.length / 500), 'one update per 500 events');
  t.ok(messages.every((m) => m.type === 'update' && m.events.length <= 500 && m.version === m.events.at(-1).seq), 'each a normal update whose version is its last event');
  t.same(seqs(messages), range(1, game.events.length), 'every event once, in order');
  t.ok(messages.slice(0, -1).every((m) => m.status === 'running') && messages.at(-1).status === 'finished', 'the game finishes with the last part');
  const middle = messages[3];
  t.same(middle.view, (await app.inject({ url: `/games/${game.id}/view?version=${middle.version}` })).json().view, 'a part carries the view at its version');
  socket.close();
});

t.test('the parts of a seat\'s catch-up in a game of hidden information show what the event log and the view show that seat', async (t) => {
  const app = await limitedApp(t, { catchUpEvents: 7 });
  const base = await listening(app);
  const game = await longGame(app, undefined, 'fackel-und-keule');
  const token = game.tokens[1]!;
  const socket = new WebSocket(wsUrl(base, `/games/${game.id}/live?after=0`), { headers: { authorization: `Bearer ${token}` } });
  const { messages } = inbox(socket);
  await within((async () => {
    while (messages.at(-1)?.version !== game.events.length) await sleep(20);
  })(), 30_000, 'the catch-up');
  t.equal(messages.length, Math.ceil(game.events.length / 7), 'in parts of 7 events');
  const logged: unknown[] = [];
  while (logged.length < game.events.length) {
    const page = (await app.inject({ url: `/games/${game.id}/events?after=${logged.length}&limit=1000`, headers: { authorization: `Bearer ${token}` } })).json();
    logged.push(...page.events.map(({ seq, event }: { seq: number; event: unknown }) => ({ seq, event })));
  }
  t.same(messages.flatMap((m) => m.events), logged, 'every event redacted as the event log shows it to that seat');
  for (const part of [messages[0], messages[Math.floor(messages.length / 2)], messages.at(-2)]) {
    const view = (await app.inject({ url: `/games/${game.id}/view?version=${part.version}`, headers: { authorization: `Bearer ${token}` } })).json();
    t.same({ view: part.view, legalCommands: part.legalCommands, pending: part.pending }, { view: view.view, legalCommands: view.legalCommands, pending: view.pending }, `version ${part.version}: the seat's own view`);
  }
  socket.close();
});

t.test('a catch-up waits for a socket that does not read instead of tripping the send buffer cap', async (t) => {
  // Parts of two events: the catch-up is bigger than what the kernel buffers.
  const cap = 16 * 1024;
  const app = await limitedApp(t, { catchUpEvents: 2, sendBufferBytes: cap });
  const base = await listening(app);
  const game = await longGame(app);
  const socket = new WebSocket(wsUrl(base, `/games/${game.id}/live?after=0`));
  const { messages, closed } = inbox(socket);
  await once(socket, 'open');
  socket.pause();
  let mostBuffered = 0;
  for (let i = 0; i < 60; i++) {
    await sleep(100);
    mostBuffered = Math.max(mostBuffered, ...[...app.websocketServer.clients].map((s) => s.bufferedAmount));
  }
  const [server] = [...app.websocketServer.clients];
  t.equal(server?.readyState, WebSocket.OPEN, 'the server keeps the socket open');
  t.ok(mostBuffered <= cap, `and buffers no more than the cap for it (${mostBuffered} bytes)`);
  socket.resume();
  await within((async () => {
    while (messages.at(-1)?.version !== game.events.length) await sleep(20);
  })(), 60_000, 'the catch-up');
  t.same(seqs(messages), range(1, game.events.length), 'once it reads, it gets everything in order');
  socket.close();
  await closed;
});

t.test('a flooding socket is refused (live/rate-limited), then closed with 4429; other sockets are unaffected', async (t) => {
  const app = await testApp(t, { live: { messagesPerSecond: 10 } });
  const { id, tokens } = await createGame(app, { type: 'pechvogel', seats: [{}, {}], seed: 'flood' });
  const flooder = await connect(app, `/games/${id}/live?token=${tokens[1]}`);
  const hello = await flooder.next();
  const other = await connect(app, `/games/${id}/live?token=${tokens[0]}`);
  await other.next();
  const flood = (from: number, count: number) => {
    for (let i = from; i < from + count; i++) flooder.socket.send(JSON.stringify({ type: 'command', id: `f${i}`, command: { type: 'throw' }, expectedVersion: hello.version }));
  };
  flood(0, 10);
  const handled = await Promise.all(Array.from({ length: 10 }, () => flooder.next()));
  t.ok(handled.every((m) => m.problem?.code !== 'live/rate-limited'), 'a second’s worth of messages at once is handled');
  flood(10, 30);
  const { code, reason } = await within(flooder.closed, 5000, 'closing the flooding socket');
  t.same({ code, reason }, { code: 4429, reason: 'live/rate-limited' }, 'closed once it kept sending while refused');
  const answers: any[] = [];
  for (;;) {
    const message = await flooder.next().catch(() => null);
    if (message === null) break;
    answers.push(message);
  }
  const limited = answers.filter((m) => m.problem?.code === 'live/rate-limited');
  t.equal(limited.length, answers.length, 'everything after it was refused');
  t.ok(limited.length >= 10 && limited.length <= 13, `as many as the bucket holds, and the last one (${limited.length})`);
  t.ok(limited.slice(0, -1).every((m) => /^f\d+$/.test(m.id) && m.problem.status === 429), 'each refusal names its message');
  t.equal(limited.at(-1).id, undefined, 'the last refusal is the connection’s');
  other.socket.send(JSON.stringify({ type: 'command', id: 'mine', command: { type: 'throw' }, expectedVersion: hello.version }));
  const answer = [await other.next(), await other.next()].find((m) => m.id === 'mine');
  t.equal(answer?.type, 'ack', 'the other seat plays on');
});

t.test('a binary frame closes the socket with 1003 and is not handled', async (t) => {
  const app = await testApp(t);
  const { id, tokens } = await createGame(app, { type: 'pechvogel', seats: [{}, {}], seed: 'binary' });
  const seat0 = await connect(app, `/games/${id}/live?token=${tokens[0]}`);
  const hello = await seat0.next();
  seat0.socket.send(Buffer.from(JSON.stringify({ type: 'command', command: { type: 'throw' }, expectedVersion: hello.version })), { binary: true });
  t.equal((await within(seat0.closed, 3000, 'closing the socket')).code, 1003, 'unsupported data');
  t.equal((await app.inject({ url: `/games/${id}` })).json().version, hello.version, 'nothing was appended');
});

/** Sends raw bytes on a new connection and gives back what came before the server closed it. */
async function raw(base: string, request: string, ms = 3000): Promise<string> {
  const socket = net.connect(Number(new URL(base).port), '127.0.0.1');
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  socket.on('error', () => {});
  socket.write(request);
  await within(once(socket, 'close'), ms, 'the server closing the connection');
  return answer;
}

t.test('an upgrade on a route that is no live socket is refused with a problem, not upgraded', async (t) => {
  const app = await testApp(t);
  const base = await listening(app);
  const upgrade = 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n';
  for (const path of ['/games', '/health']) {
    const answer = await raw(base, `GET ${path} HTTP/1.1\r\nHost: x\r\n${upgrade}`);
    t.match(answer, /^HTTP\/1.1 400 /, `${path}: 400, not 101`);
    t.match(answer, /content-type: application\/problem\+json/i, 'a problem document');
    t.match(answer, /"code":"request\/not-websocket"/, 'with its code');
  }
  const { id } = await createGame(app, { type: 'pechvogel', seats: [{}, {}] });
  const live = new WebSocket(wsUrl(base, `/games/${id}/live`));
  await once(live, 'open');
  live.close();
});
