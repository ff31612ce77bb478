// What a commit costs the live sockets: a command's ack and the update of its own
// commit reach the sender's connection in one write (src/live/tick-cork.ts), and an
// update is built and encoded once for all watchers with the same eyes, never shared
// between eyes that see differently.
import t from 'tap';
import WebSocket from 'ws';
import type { Viewer } from '../../src/domain/contract.ts';
import type { Watcher } from '../../src/live/live-hub.ts';
import { tickCorker } from '../../src/live/tick-cork.ts';
import { command, createGame, listeningPort, testApp } from '../helpers/app.ts';

t.test('writes in promise jobs of one tick go out in one uncork, before the next turn of the loop', async (t) => {
  const calls: string[] = [];
  const cork = tickCorker({ cork: () => calls.push('cork'), uncork: () => calls.push('uncork') });
  const write = (what: string) => {
    cork();
    calls.push(what);
  };
  await Promise.resolve().then(() => write('update')).then(() => Promise.resolve()).then(() => write('ack'));
  await new Promise((resolve) => setImmediate(resolve));
  t.same(calls, ['cork', 'update', 'ack', 'uncork']);
  write('next');
  await new Promise((resolve) => setImmediate(resolve));
  t.same(calls.slice(4), ['cork', 'next', 'uncork'], 'the next tick corks again');
});

t.test("a command's ack and its update leave in one write to the connection", async (t) => {
  const app = await testApp(t);
  const port = await listeningPort(app);
  const { id, tokens } = await createGame(app, { type: 'pechvogel', seats: [{}, {}] });
  const client = new WebSocket(`ws://127.0.0.1:${port}/games/${id}/live?token=${tokens[0]}`);
  const inbox: any[] = [];
  const binary: boolean[] = [];
  let arrived = () => {};
  client.on('message', (raw, isBinary) => {
    binary.push(isBinary);
    inbox.push(JSON.parse(raw.toString()));
    arrived();
  });
  const messages = async (n: number) => {
    while (inbox.length < n) await new Promise<void>((resolve) => (arrived = resolve));
    return inbox.splice(0, n);
  };
  const [first] = await messages(1);
  // The server's end of the connection: count what reaches the kernel.
  const [server] = [...app.websocketServer.clients];
  const connection = (server as unknown as { _socket: Record<'_write' | '_writev', (...a: unknown[]) => unknown> })._socket;
  let writes = 0;
  for (const method of ['_write', '_writev'] as const) {
    const original = connection[method];
    connection[method] = function (this: unknown, ...args: unknown[]) {
      writes++;
      return original.apply(this, args);
    };
  }
  client.send(JSON.stringify({ type: 'command', id: 'c1', command: first.legalCommands[0], expectedVersion: first.version }));
  t.same((await messages(2)).map((m) => m.type).sort(), ['ack', 'update']);
  t.equal(writes, 1, 'one write carried both');
  t.same(binary, [false, false, false], 'every message a text frame, the pre-encoded update too');
  client.close();
});

t.test('one encoded update per kind of eyes: spectators share it, each seat has its own', async (t) => {
  const app = await testApp(t);
  // Mistkäfer hides the chips a seat drew from the others.
  const { id, tokens } = await createGame(app, { type: 'mistkaefer', seats: [{}, {}] });
  const received = new Map<string, (string | Buffer)[]>();
  const watcher = (name: string, viewer: Viewer): Watcher => ({
    viewer,
    send: (update) => received.set(name, [...(received.get(name) ?? []), update]),
    // A short game's catch-up is one update, sent with `send`.
    sendPart: async () => true,
    reseated: () => true,
  });
  const watchers = [
    watcher('spectator A', { kind: 'spectator' }),
    watcher('spectator B', { kind: 'spectator' }),
    watcher('seat 0', { kind: 'seat', seat: 0 }),
    watcher('seat 0, second socket', { kind: 'seat', seat: 0 }),
    watcher('seat 1', { kind: 'seat', seat: 1 }),
  ];
  for (const w of watchers) await app.services.hub.watch(id, w, 0);
  const game = (await app.inject({ method: 'GET', url: `/games/${id}`, headers: { authorization: `Bearer ${tokens[0]}` } })).json();
  const answer = await command(app, id, tokens[0], { command: game.legalCommands[0], expectedVersion: game.version });
  t.equal(answer.statusCode, 200);
  await new Promise((resolve) => setImmediate(resolve));
  const pushed = (name: string) => received.get(name)?.[1];
  t.ok(Buffer.isBuffer(pushed('spectator A')));
  t.equal(pushed('spectator A'), pushed('spectator B'), 'the same bytes for both spectators');
  t.equal(pushed('seat 0'), pushed('seat 0, second socket'), "the same bytes for a seat's two sockets");
  t.not(pushed('seat 0'), pushed('spectator A'));
  t.not(pushed('seat 1'), pushed('seat 0'));
  const spectators = JSON.parse(String(pushed('spectator A')));
  const own = JSON.parse(String(pushed('seat 0')));
  t.same(own.events, answer.json().events, "seat 0's update shows its events as its own answer does");
  t.same(spectators.legalCommands, [], 'no legal commands for spectators');
  t.notSame(own.view, spectators.view, 'a seat sees what spectators do not');
  for (const [name, viewer] of [['spectator A', { kind: 'spectator' }], ['seat 1', { kind: 'seat', seat: 1 }]] as const) {
    const read = (await app.inject({ method: 'GET', url: `/games/${id}/view?version=${own.version}`, headers: viewer.kind === 'seat' ? { authorization: `Bearer ${tokens[1]}` } : {} })).json();
    t.same(JSON.parse(String(pushed(name))).view, read.view, `${name} is pushed the view it may read`);
  }
});
