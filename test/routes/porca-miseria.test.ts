// Porca Miseria on the platform, with an injected clock: races are decided by the
// order in which the server accepts commands (HTTP and WebSocket alike), every grab
// and slap records the server's receive time, and deadlines are enforced by the
// server alone, exactly once even when several instances fire at the same moment.
import t from 'tap';
import type { WebSocket } from 'ws';
import type { App } from '../../src/app.ts';
import type { PorcaEvent, PorcaView } from '../../src/domain/porca-miseria/index.ts';
import { rightfulTargets } from '../../src/domain/porca-miseria/lucky-numbers.ts';
import { symbols, type Symbol } from '../../src/domain/porca-miseria/vocabulary.ts';
import { testDatabase } from '../helpers/database.ts';
import { command, createGame, testApp, testClock, type TestClock } from '../helpers/app.ts';
import { table, untilCard } from '../helpers/porca-miseria.ts';

const REVEAL_MS = 5_000;
const WINDOW_MS = 4_000;
const options = { revealMs: REVEAL_MS, windowMs: WINDOW_MS };

type Logged = { seq: number; event: PorcaEvent };
type Answer = { version: number; events: Logged[]; view: PorcaView };

async function log(app: App, id: string, after = 0): Promise<Logged[]> {
  return (await app.inject({ url: `/games/${id}/events?after=${after}&limit=1000` })).json().events;
}

/** A seat's socket: commands go out at once, acks are matched by id, updates are kept. */
async function seatSocket(app: App, id: string, token: string) {
  const updates: { version: number; events: Logged[] }[] = [];
  const acks = new Map<string, (m: any) => void>();
  const waiting: { version: number; resolve: () => void }[] = [];
  const socket: WebSocket = await app.injectWS(`/games/${id}/live?token=${token}`, {}, {
    onInit: (ws) =>
      ws.on('message', (raw) => {
        const message = JSON.parse(raw.toString());
        if (message.type === 'update') {
          updates.push(message);
          for (const wait of waiting.filter((w) => w.version <= message.version)) wait.resolve();
        } else acks.get(message.id)?.(message);
      }),
  });
  let n = 0;
  return {
    updates,
    socket,
    /** Pushes go out after the commit, on their own: a command's answer may come first. */
    reached(version: number): Promise<void> {
      if (updates.some((u) => u.version >= version)) return Promise.resolve();
      return new Promise((resolve) => waiting.push({ version, resolve }));
    },
    send(cmd: Record<string, unknown>): Promise<any> {
      const ref = `c${++n}`;
      const answered = new Promise((resolve) => acks.set(ref, resolve));
      socket.send(JSON.stringify({ type: 'command', id: ref, command: cmd }));
      return answered;
    },
  };
}

/** Whether the seat may rightfully take `target` from the face-up symbol card. */
function rightful(view: PorcaView, seat: number, target: Symbol): boolean {
  if (view.card?.kind !== 'symbol') throw new Error('no symbol card');
  return rightfulTargets(view.luckyNumbers[seat] ?? [], view.card).includes(target);
}

async function newGame(app: App, clock: TestClock, seed: string) {
  const game = await createGame(app, { type: 'porca-miseria', seats: [{}, {}, {}, {}], seed, options });
  const tokens = game.tokens.map((token) => token!);
  return { id: game.id, tokens, openedAt: clock.now };
}

/** A new game with a card of `kind` face up, its version then, and every seat's socket open. */
async function atCard(t: Parameters<typeof testApp>[0], seed: string, kind: 'symbol' | 'touch') {
  const clock = testClock();
  const app = await testApp(t, { clock });
  const { id, tokens } = await newGame(app, clock, seed);
  const view = await untilCard(app, clock, id, tokens, kind);
  const before = (await table(app, id)).version;
  const sockets = await Promise.all(tokens.map((token) => seatSocket(app, id, token)));
  return { clock, app, id, tokens, view, before, sockets };
}

t.test('symbol card: grabs over HTTP and WebSocket in acceptance order, each with its receive time; wrong grabs pay', async (t) => {
  const { clock, app, id, tokens, view, before, sockets } = await atCard(t, 'grabs', 'symbol');

  // A seat with a wrong target, another seat with a rightful one, and the last target
  // left for the two remaining seats to race for.
  const wrongSeat = [0, 1, 2, 3].find((s) => symbols.some((x) => !rightful(view, s, x)))!;
  const wrongTarget = symbols.find((x) => !rightful(view, wrongSeat, x))!;
  const rightSeat = [0, 1, 2, 3].find((s) => s !== wrongSeat && symbols.some((x) => x !== wrongTarget && rightful(view, s, x)))!;
  const rightTarget = symbols.find((x) => x !== wrongTarget && rightful(view, rightSeat, x))!;
  const lastTarget = symbols.find((x) => x !== wrongTarget && x !== rightTarget)!;
  const racers = [0, 1, 2, 3].filter((s) => s !== wrongSeat && s !== rightSeat);
  t.equal(racers.length, 2);

  clock.now += 200;
  const wrongAt = clock.now;
  t.equal((await command(app, id, tokens[wrongSeat], { command: { type: 'grab', target: wrongTarget } })).statusCode, 200);
  clock.now += 37;
  const rightAt = clock.now;
  t.equal((await sockets[rightSeat]!.send({ type: 'grab', target: rightTarget })).type, 'ack', 'a grab over the socket');
  t.equal((await command(app, id, tokens[racers[0]!], { command: { type: 'grab', target: rightTarget } })).json().code, 'porca-miseria/target-taken', 'a held target card cannot be grabbed');

  // Both racers grab the last target card at the same moment, one per transport.
  clock.now += 41;
  const raceAt = clock.now;
  const [viaSocket, viaHttp] = await Promise.all([
    sockets[racers[0]!]!.send({ type: 'grab', target: lastTarget }),
    command(app, id, tokens[racers[1]!], { command: { type: 'grab', target: lastTarget } }).then((r) => r.json()),
  ]);
  const won = [viaSocket, viaHttp].filter((a) => a.type === 'ack' || a.version !== undefined);
  const lost = [viaSocket, viaHttp].filter((a) => a.type === 'error' || a.code !== undefined);
  t.equal(won.length, 1, 'exactly one racer gets the last target card');
  t.equal(lost.length, 1);
  t.equal(lost[0].problem?.code ?? lost[0].code, 'porca-miseria/no-symbol-card', 'the other meets the card already settled');
  const winner = won[0] === viaSocket ? racers[0]! : racers[1]!;

  const events = await log(app, id, before);
  const grabs = events.filter((e) => e.event.type === 'TargetGrabbed').map((e) => e.event);
  t.same(grabs, [
    { type: 'TargetGrabbed', seat: wrongSeat, target: wrongTarget, receivedAt: wrongAt },
    { type: 'TargetGrabbed', seat: rightSeat, target: rightTarget, receivedAt: rightAt },
    { type: 'TargetGrabbed', seat: winner, target: lastTarget, receivedAt: raceAt },
  ], 'the log holds the grabs in the order the server accepted them, each at its receive time');

  const paid = events.filter((e) => e.event.type === 'WinningPaid' || e.event.type === 'LossPaid').map((e) => e.event);
  const expected = [
    ...[{ seat: rightSeat, target: rightTarget }, { seat: winner, target: lastTarget }].filter((g) => rightful(view, g.seat, g.target)).map((g) => ({ type: 'WinningPaid', ...g })),
    { type: 'LossPaid', seat: wrongSeat, target: wrongTarget },
    ...(rightful(view, winner, lastTarget) ? [] : [{ type: 'LossPaid', seat: winner, target: lastTarget }]),
  ];
  t.match(paid, expected, 'all three target cards taken: settled at once, winnings first, then losses');
  t.equal(paid.length, expected.length);
  t.equal(events.at(-1)?.event.type, 'StartingPlayerChanged');

  const last = events.at(-1)!.seq;
  // Bounded, so that a push that never comes fails the checks below instead of hanging.
  await Promise.race([Promise.all(sockets.map((s) => s.reached(last))), new Promise((r) => setTimeout(r, 5000))]);
  for (const [seat, s] of sockets.entries()) {
    t.ok(s.updates.some((u) => u.version === last), `seat ${seat}'s socket got the settled version`);
    t.same(s.updates.flatMap((u) => u.events).filter((e) => e.seq > before).map((e) => e.seq), events.map((e) => e.seq), `seat ${seat} saw every event once, in order`);
  }
  for (const s of sockets) s.socket.close();
});

t.test('touch card: the stack of hands follows acceptance order; the first sandwich wins the jackpot', async (t) => {
  const { clock, app, id, tokens, view, before, sockets } = await atCard(t, 'slaps', 'touch');

  clock.now += 120;
  const firstAt = clock.now;
  const [a, b] = await Promise.all([sockets[0]!.send({ type: 'slap' }), sockets[3]!.send({ type: 'slap' })]);
  t.same([a.type, b.type], ['ack', 'ack'], 'both slaps land');
  const [bottom, above] = a.version < b.version ? [0, 3] : [3, 0];
  t.same((await table(app, id)).view.hands, [{ seat: bottom, receivedAt: firstAt }, { seat: above, receivedAt: firstAt }], 'hands lie in the order the server accepted them');

  clock.now += 55;
  const sandwichAt = clock.now;
  const sandwich = await command(app, id, tokens[bottom], { command: { type: 'slap' } });
  t.equal(sandwich.statusCode, 200);
  const answer = sandwich.json() as Answer;
  t.same(answer.events.map((e) => e.event), [
    { type: 'HandSlapped', seat: bottom, receivedAt: sandwichAt },
    { type: 'TouchCardWon', seat: bottom, by: 'sandwich', card: view.card!.id, jackpot: view.jackpot },
    { type: 'StartingPlayerChanged', seat: (view.startingSeat + 1) % 4, returnedToStack: [], at: sandwichAt },
  ], 'the first to make a sandwich wins the touch card and the jackpot, at once');
  t.equal((await command(app, id, tokens[1], { command: { type: 'slap' } })).json().code, 'porca-miseria/no-touch-card', 'a late slap is refused');
  t.same((await log(app, id, before)).filter((e) => e.event.type === 'HandSlapped').map((e) => e.event), [
    { type: 'HandSlapped', seat: bottom, receivedAt: firstAt },
    { type: 'HandSlapped', seat: above, receivedAt: firstAt },
    { type: 'HandSlapped', seat: bottom, receivedAt: sandwichAt },
  ]);
  for (const s of sockets) s.socket.close();
});

t.test('grabs committed together reach every socket as one update with all their events', async (t) => {
  const { clock, app, id, tokens, before, sockets } = await atCard(t, 'together', 'symbol');
  await Promise.all(sockets.map((s) => s.reached(before)));
  clock.now += 90;
  // Decided in one turn, so their appends travel in one statement.
  const answers = await Promise.all(
    [0, 1].map((seat) =>
      app.services.commands.handle({ gameId: id, caller: { kind: 'token', token: tokens[seat] }, command: { type: 'grab', target: symbols[seat] } }),
    ),
  );
  t.same(answers.map((a) => a.version), [before + 1, before + 2], 'both grabs land, one after the other');
  await Promise.race([Promise.all(sockets.map((s) => s.reached(before + 2))), new Promise((r) => setTimeout(r, 5000))]);
  for (const [seat, s] of sockets.entries()) {
    const after = s.updates.filter((u) => u.version > before);
    t.same(after.map((u) => u.version), [before + 2], `seat ${seat}: one update`);
    t.same(after[0]?.events.map((e) => [e.seq, e.event.type]), [[before + 1, 'TargetGrabbed'], [before + 2, 'TargetGrabbed']], `seat ${seat}: carrying both grabs`);
  }
  for (const s of sockets) s.socket.close();
});

t.test('deadlines: the server reveals and closes windows by itself, never early', async (t) => {
  const clock = testClock();
  const app = await testApp(t, { clock });
  const { id, tokens, openedAt } = await newGame(app, clock, 'deadlines');
  const start = await table(app, id);
  t.same(start.pending, { seats: [0], deadline: openedAt + REVEAL_MS });

  clock.now = openedAt + REVEAL_MS - 1;
  await app.services.scheduler.runDue();
  t.equal((await table(app, id)).version, start.version, 'a millisecond early: nothing appended');

  clock.now = openedAt + REVEAL_MS;
  await app.services.scheduler.runDue();
  const revealed = await log(app, id, start.version);
  t.match(revealed.map((e) => e.event), [{ type: 'CardRevealed', by: null, receivedAt: openedAt + REVEAL_MS }], 'nobody revealed: the server did, at the deadline');
  t.equal((await command(app, id, tokens[0], { command: { type: 'reveal' } })).json().code, 'porca-miseria/card-already-revealed');

  // Seat 2 acts, then everyone falls silent; the window must still close.
  clock.now += 300;
  const opened = await table(app, id);
  t.equal(opened.pending.deadline, openedAt + REVEAL_MS + WINDOW_MS);
  const acted = await command(app, id, tokens[2], { command: { type: opened.view.card!.kind === 'symbol' ? 'grab' : 'slap', ...(opened.view.card!.kind === 'symbol' ? { target: 'pig' } : {}) } });
  t.equal(acted.statusCode, 200);
  const open = (await table(app, id)).version;

  clock.now = opened.pending.deadline! - 1;
  await app.services.scheduler.runDue();
  t.equal((await table(app, id)).version, open, 'before the window deadline: nothing appended');
  t.equal((await command(app, id, tokens[1], { command: { type: 'pass' } })).statusCode, 200, 'and seats may still act');
  const stillOpen = (await table(app, id)).version;

  clock.now = opened.pending.deadline!;
  t.equal((await command(app, id, tokens[3], { command: { type: 'pass' } })).json().code, 'porca-miseria/too-late', 'at the deadline a seat is too late');
  await app.services.scheduler.runDue();
  const closed = await log(app, id, stillOpen);
  t.ok(closed.length > 0, 'the window closed with nobody sending anything');
  t.equal(closed.at(-1)?.event.type, 'StartingPlayerChanged');
  t.match(closed.at(-1)?.event, { at: opened.pending.deadline }, 'the next reveal window opens at the deadline');
  await app.services.scheduler.runDue();
  t.equal((await table(app, id)).version, closed.at(-1)!.seq, 'running again appends nothing');
});

t.test('two instances on one database fire the same deadline at once: exactly one timeout, no error', async (t) => {
  const clock = testClock();
  const database = await testDatabase(t);
  // Two apps with their own caches, command queues and schedulers. They share the
  // test's connection pool; exactly-once rests on the append's version check.
  const first = await testApp(t, { clock, database });
  const second = await testApp(t, { clock, database });
  const problems: unknown[] = [];
  for (const app of [first, second]) {
    for (const level of ['warn', 'error', 'fatal'] as const) app.log[level] = ((...args: unknown[]) => void problems.push(args)) as never;
  }
  const { id, openedAt } = await newGame(first, clock, 'two-instances');

  for (const deadline of ['reveal', 'window'] as const) {
    const current = await table(first, id);
    await table(second, id);
    clock.now = current.pending.deadline!;
    await Promise.all([first.services.scheduler.runDue(), second.services.scheduler.runDue()]);
    const appended = await log(first, id, current.version);
    if (deadline === 'reveal') {
      t.same(appended.map((e) => e.event.type), ['CardRevealed'], 'one reveal by the server');
      t.equal(clock.now, openedAt + REVEAL_MS);
    } else {
      t.equal(appended.filter((e) => e.event.type === 'StartingPlayerChanged').length, 1, 'one settlement of the window');
      t.notOk(appended.some((e) => e.event.type === 'CardRevealed'), 'and no second reveal');
    }
    t.same(appended.map((e) => e.seq), appended.map((_, i) => current.version + i + 1), 'gap-free, nothing twice');
    t.equal((await table(second, id)).version, appended.at(-1)!.seq, 'both instances agree on the version');
  }
  t.same(problems, [], 'the losing instance reports nothing');
});
