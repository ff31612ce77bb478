// Server-side bot seats over the API: bots answer between a person's moves, whole
// tables of bots finish on their own, their moves are logged as theirs, and they carry
// on after a restart. Bots act on real time, so the tests poll the game (bounded);
// deadlines are moved on by hand with the test clock.
import t from 'tap';
import { pick, seededRng } from '../../src/bots/rng.ts';
import { fold } from '../../src/domain/contract.ts';
import { findGame } from '../../src/domain/games.ts';
import { testDatabase } from '../helpers/database.ts';
import { bearerHeader, command, createGame, testApp, testClock, type TestClock } from '../helpers/app.ts';
import type { App } from '../../src/app.ts';
import { ServiceError } from '../../src/errors.ts';
import { BotSeats } from '../../src/jobs/bot-seats.ts';
import { LatestStates } from '../../src/state/latest-states.ts';

interface Game {
  game: { seats: { seat: number; bot: string | null; open: boolean }[] };
  status: string;
  version: number;
  pending: { seats: number[]; deadline?: number };
  legalCommands: unknown[];
}

const WAIT_MS = 30_000;

const read = async (app: App, id: string, token?: string | null): Promise<Game> => (await app.inject({ url: `/games/${id}`, headers: bearerHeader(token) })).json();

/** Reads the game until no bot is pending (or it is over), giving the bots real time to act. */
async function botsDone(app: App, id: string, token?: string | null): Promise<Game> {
  const started = Date.now();
  for (;;) {
    const game = await read(app, id, token);
    const bots = new Set(game.game.seats.filter((s) => s.bot !== null).map((s) => s.seat));
    if (game.status === 'finished' || !game.pending.seats.some((s) => bots.has(s))) return game;
    if (Date.now() - started > WAIT_MS) throw new Error(`bots still pending after ${WAIT_MS} ms: ${JSON.stringify(game.pending)} at version ${game.version}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Nobody at the table can move: the deadline passes and the server's timeout settles it. */
async function timeOut(app: App, clock: TestClock, game: Game): Promise<void> {
  if (game.pending.deadline === undefined) throw new Error(`stalled at version ${game.version}: ${JSON.stringify(game.pending)}`);
  clock.now = Math.max(clock.now, game.pending.deadline);
  await app.services.scheduler.runDue();
}

async function fullLog(app: App, id: string) {
  const events: { seq: number; event: never; actor: string }[] = [];
  for (let after: number | null = 0; after !== null; ) {
    const page: { events: typeof events; next: number | null } = (await app.inject({ url: `/games/${id}/events?after=${after}&limit=1000&viewer=all` })).json();
    events.push(...page.events);
    after = page.next;
  }
  return events;
}

t.test('a person plays Pechvogel against two bots over HTTP to the end', async (t) => {
  const clock = testClock();
  const app = await testApp(t, { clock });
  const { id, tokens, created } = await createGame(app, { type: 'pechvogel', seats: [{ name: 'Ada' }, { bot: 'greedy' }, { bot: 'random' }], seed: 'bots-vs-ada' });
  t.same(created.seats.map((s) => s.token === null), [false, true, true], 'bot seats get no token');
  t.ok(created.refereeToken, 'the referee token is still handed out');
  t.same((created.game as unknown as Game['game']).seats.map((s) => [s.bot, s.open]), [[null, false], ['greedy', false], ['random', false]], 'the summary names the bots; their seats are taken');

  const rng = seededRng('ada');
  let moves = 0;
  for (let i = 0; ; i++) {
    if (i > 5000) throw new Error('the game does not end');
    const game = await botsDone(app, id, tokens[0]);
    if (game.status === 'finished') break;
    if (game.pending.seats.includes(0)) {
      const response = await command(app, id, tokens[0], { command: pick(rng, game.legalCommands), expectedVersion: game.version });
      t.equal(response.statusCode, 200, response.body);
      moves++;
    } else {
      await timeOut(app, clock, game);
    }
  }
  t.ok(moves > 0, `Ada played her own seat (${moves} moves)`);

  const log = await fullLog(app, id);
  const actors = new Set(log.map((e) => e.actor));
  t.ok(actors.has('seat:0') && actors.has('bot:seat:1') && actors.has('bot:seat:2'), `the log tells the person from the bots: ${[...actors].join(', ')}`);
  t.same([...actors].filter((a) => !['system', 'seat:0', 'bot:seat:1', 'bot:seat:2'].includes(a)), [], 'and nobody else acted');
});

const tables: [string, string[], Record<string, unknown>][] = [
  ['pechvogel', ['greedy', 'random', 'greedy'], { reactionSeconds: 1 }],
  ['fackel-und-keule', ['greedy', 'random', 'random'], {}],
  ['mistkaefer', ['random', 'greedy', 'greedy'], {}],
  ['porca-miseria', ['greedy', 'random', 'greedy', 'random'], { windowMs: 500, revealMs: 500 }],
];

for (const [type, bots, options] of tables) {
  t.test(`a table of ${type} bots plays to the end by itself`, async (t) => {
    const clock = testClock();
    const app = await testApp(t, { clock });
    const { id } = await createGame(app, { type, seats: bots.map((bot) => ({ bot })), options, seed: `all-bots-${type}` });
    let timeouts = 0;
    for (let i = 0; ; i++) {
      if (i > 5000) throw new Error('the game does not end');
      const game = await botsDone(app, id);
      if (game.status === 'finished') break;
      await timeOut(app, clock, game);
      timeouts++;
    }
    const final = (await app.inject({ url: `/games/${id}/view?viewer=all` })).json();
    t.equal(final.status, 'finished');
    t.ok(final.result.winners.length >= 1, 'with winners');

    const log = await fullLog(app, id);
    t.equal(log.length, final.version, `the log holds all ${final.version} events (${timeouts} timeouts)`);
    const game = findGame(type)!;
    const summary = (await app.inject({ url: `/games/${id}` })).json();
    const state = fold(game, { options: summary.game.options, seats: bots.length }, log.map((e) => e.event));
    t.same(game.view(state, { kind: 'all' }), final.view, 'folding the log gives the final table');
    t.same(game.result(state), final.result, 'and its result');
    const actors = new Set(log.map((e) => e.actor));
    t.same([...actors].filter((a) => a !== 'system' && !/^bot:seat:\d$/.test(a)), [], 'every move is a bot\'s or the system\'s');
    t.ok(bots.every((_, seat) => actors.has(`bot:seat:${seat}`)), 'every bot moved');
  });
}

t.test('bots carry on after a restart', async (t) => {
  const database = await testDatabase(t);
  const first = await testApp(t, { database });
  // The first instance stops before its bots can move: the game waits on them.
  await first.services.bots.stop();
  const { id } = await createGame(first, { type: 'mistkaefer', seats: [{ bot: 'greedy' }, { bot: 'random' }], seed: 'restart-bots' });
  const waiting = await read(first, id);
  t.equal(waiting.status, 'running');
  t.ok(waiting.pending.seats.length > 0, 'a bot is to move');
  const atStop = waiting.version;
  await first.close();

  const second = await testApp(t, { database });
  const game = await botsDone(second, id);
  t.equal(game.status, 'finished', 'the new instance woke the bots and they played to the end');
  t.ok(game.version > atStop);
});

t.test('bots that find the database unavailable (failing over) try again until it answers', async (t) => {
  const app = await testApp(t);
  // The app's own bots stay out of it: the game waits for the bots below.
  await app.services.bots.stop();
  const { id } = await createGame(app, { type: 'mistkaefer', seats: [{ bot: 'greedy' }, { bot: 'random' }], seed: 'bots-failover' });
  const before = (await read(app, id)).version;
  // The first commands meet a primary shutting down; then it is back.
  let failures = 3;
  const failingOver = {
    handle: (input: Parameters<App['services']['commands']['handle']>[0]) =>
      failures-- > 0 ? Promise.reject(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })) : app.services.commands.handle(input),
  };
  const quiet = { warn: () => {}, error: () => {}, info: () => {}, debug: () => {} };
  const bots = new BotSeats(app.services.store, failingOver as never, new LatestStates(app.services.store), () => Date.now(), quiet as never, () => {}, 5);
  t.teardown(() => bots.stop());
  bots.kick(id);
  let after = before;
  for (const started = Date.now(); after === before && Date.now() - started < 5000; ) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    after = (await read(app, id)).version;
  }
  t.equal(failures, -1, 'the bots tried three times in vain, then once more');
  t.ok(after > before, 'and their move was committed once the database answered');
});

t.test('bot seats that cannot be', async (t) => {
  const app = await testApp(t);
  const refused = async (body: Record<string, unknown>, what: string) => {
    const response = await app.inject({ method: 'POST', url: '/games', payload: body });
    t.equal(response.statusCode, 422, `${what}: ${response.body}`);
    t.equal(response.json().code, 'game/invalid-setup');
  };
  await refused({ type: 'pechvogel', seats: [{}, { bot: 'clever' }] }, 'an unknown bot');
  await refused({ type: 'pechvogel', seats: [{}, { bot: 'greedy', open: true }] }, 'a bot in an open seat');
  await refused({ type: 'pechvogel', seats: [{}, { bot: 'greedy' }], chance: 'supplied' }, 'a bot in a supplied-chance game');
  t.same((await app.inject({ url: '/games' })).json().games, [], 'nothing was created');

  const { id } = await createGame(app, { type: 'mistkaefer', seats: [{}, { bot: 'random' }], seed: 'no-bot-token' });
  const asBot = await app.services.commands.handle({ gameId: id, caller: { kind: 'bot', seat: 0 }, command: { type: 'roll' } }).catch((error: { code: string }) => error.code);
  t.equal(asBot, 'auth/forbidden', 'a person\'s seat cannot be played as a bot');
});

t.test("a refused bot command's log line names its type and code, never its cards or the rule's message", async (t) => {
  const app = await testApp(t);
  // The app's own bots stay out of it: the game waits for the bots below.
  await app.services.bots.stop();
  const { id } = await createGame(app, { type: 'fackel-und-keule', seats: [{ bot: 'random' }, { bot: 'random' }, { bot: 'random' }], seed: 'bot-refusal-log' });
  const lines: Record<string, unknown>[] = [];
  const logger = { warn: (fields: Record<string, unknown>, msg: string) => lines.push({ ...fields, msg }), error: () => {}, info: () => {}, debug: () => {} };
  // A handler that refuses as the rules would, naming the card in its message.
  const refusing = {
    handle: async () => {
      throw new ServiceError('fackel-und-keule/not-in-hand', 'card 17 is not in your hand', {}, 'rule');
    },
  };
  const bots = new BotSeats(app.services.store, refusing as never, new LatestStates(app.services.store), () => Date.now(), logger as never);
  bots.kick(id);
  await bots.idle();
  t.ok(lines.length > 0, 'the refusal is logged');
  for (const line of lines) {
    t.same(Object.keys(line).sort(), ['code', 'commandType', 'gameId', 'msg', 'seat'], 'only these fields');
    t.equal(line.code, 'fackel-und-keule/not-in-hand');
    t.notMatch(JSON.stringify(line), /card 17|"cards"/, 'neither the message nor the command fields');
  }
});
