// What an open live socket keeps: neither the HTTP request that upgraded it
// (routes/live-upgrade.ts) nor the state its catch-up started from (LiveHub.watch).
// An audience of 100,000 idle sockets must fit one instance, so each must hold only
// what it needs. Garbage collection is forced to tell what is still held.
import { setImmediate as turn } from 'node:timers/promises';
import v8 from 'node:v8';
import vm from 'node:vm';
import t from 'tap';
import { LiveHub } from '../../src/live/live-hub.ts';
import { LatestStates } from '../../src/state/latest-states.ts';
import { PastStates } from '../../src/state/past-states.ts';
import { command, createGame, listening, testApp } from '../helpers/app.ts';
import { connectTcp } from '../helpers/ws.ts';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const collected = async (ref: WeakRef<object>) => {
  for (let i = 0; i < 3 && ref.deref() !== undefined; i++) {
    await turn();
    gc();
  }
  return ref.deref() === undefined;
};

t.test('an open game socket lets the request that upgraded it go, and keeps working', async (t) => {
  const app = await testApp(t);
  const game = await createGame(app, { type: 'pechvogel', seats: [{}, {}], seed: 'light sockets' });
  const upgrades: WeakRef<object>[] = [];
  app.server.on('upgrade', (request: object) => upgrades.push(new WeakRef(request)));
  const base = (await listening(app)).replace('http', 'ws');
  const spectator = await connectTcp(`${base}/games/${game.id}/live`);
  await spectator.next();
  const seat = await connectTcp(`${base}/games/${game.id}/live?token=${game.tokens[0]}`);
  const seen = await seat.next();
  t.equal(upgrades.length, 2);
  t.ok(await collected(upgrades[0]!), "the spectator's upgrade request is collected");
  t.ok(await collected(upgrades[1]!), "the seat's upgrade request is collected");

  // Both sockets still do their work: a command over the seat's socket is acked, and
  // its update reaches the spectator.
  t.ok(seen.legalCommands.length > 0, 'seat 0 moves first');
  seat.socket.send(JSON.stringify({ type: 'command', id: 'c1', command: seen.legalCommands[0], expectedVersion: seen.version }));
  const answers = [await seat.next(), await seat.next()];
  const ack = answers.find((m) => m.type === 'ack');
  t.equal(ack?.id, 'c1', 'the command is acked');
  t.equal((await spectator.next()).version, ack.version, 'the spectator has the update of the command');
});

t.test('a socket error on an upgraded socket cuts that socket only', async (t) => {
  const app = await testApp(t);
  const game = await createGame(app, { type: 'pechvogel', seats: [{}, {}], seed: 'broken frame' });
  const base = (await listening(app)).replace('http', 'ws');
  const broken = await connectTcp(`${base}/games/${game.id}/live`);
  const { version } = await broken.next();
  const [server] = [...app.websocketServer.clients];
  const other = await connectTcp(`${base}/games/${game.id}/live?token=${game.tokens[0]}`);
  const seen = await other.next();
  server!.emit('error', Object.assign(new Error('Invalid WebSocket frame: RSV1 must be clear'), { code: 'WS_ERR_UNEXPECTED_RSV_1' }));
  t.equal((await broken.closed).code, 1006, 'the socket is cut');
  const answer = await command(app, game.id, game.tokens[0], { command: seen.legalCommands[0], expectedVersion: version });
  t.equal(answer.statusCode, 200);
  t.equal((await other.next()).version, answer.json().version, 'the other socket still gets updates');
});

t.test('a watcher does not keep the state its catch-up started from', async (t) => {
  const app = await testApp(t);
  const game = await createGame(app, { type: 'pechvogel', seats: [{}, {}], seed: 'a long look back' });
  const { store } = app.services;
  const real = new PastStates(store);
  const started: WeakRef<object>[] = [];
  const past = Object.assign(Object.create(real) as PastStates, {
    at: async (...args: Parameters<PastStates['at']>) => {
      const state = (await real.at(...args)) as object;
      started.push(new WeakRef(state));
      return state;
    },
  });
  const hub = new LiveHub(store, new LatestStates(store), past);
  const sent: unknown[] = [];
  const unwatch = await hub.watch(game.id, { viewer: { kind: 'spectator' }, send: (json) => sent.push(json), sendPart: async () => true, reseated: () => true }, 0);
  t.equal(sent.length, 1, 'the catch-up went out');
  t.equal(started.length, 1);
  t.ok(await collected(started[0]!), 'the state the catch-up was folded from is collected while the watcher watches');
  unwatch();
});
