// A complete game of Pechvogel played by clients over HTTP against a real Postgres.
import { createHash } from 'node:crypto';
import t from 'tap';
import { fold } from '../../src/domain/contract.ts';
import { findGame } from '../../src/domain/games.ts';
import { command, createGame, testApp, testClock } from '../helpers/app.ts';

// The game as the platform plays it (with its chance party and lifecycle).
const pechvogel = findGame('pechvogel')!;

t.test('a whole Pechvogel game over HTTP, then its replay and its seed', async (t) => {
  const clock = testClock();
  const app = await testApp(t, { clock });
  const { id, tokens } = await createGame(app, { type: 'pechvogel', seats: [{ name: 'Umberto' }, { name: 'Thea' }, { name: 'Kelly' }], seed: 'full-game' });

  const read = async () => (await app.inject({ url: `/games/${id}` })).json();
  let version = (await read()).version;
  t.ok(version > 0, 'the game started with its setup events once every seat was taken');
  let commands = 0;
  for (;;) {
    const game = await read();
    t.equal(game.version, version, 'a read sees the version of the last answer');
    if (game.status === 'finished') break;
    const seats: number[] = game.pending.seats;
    if (seats.length === 0) {
      clock.now = game.pending.deadline;
      await app.services.scheduler.runDue();
      version = (await read()).version;
      continue;
    }
    // Every pending seat has legal commands; the first of the first seat is sent.
    const seat = seats[0]!;
    const mine = (await app.inject({ url: `/games/${id}`, headers: { authorization: `Bearer ${tokens[seat]}` } })).json();
    t.ok(mine.legalCommands.length > 0, `seat ${seat} is pending and has legal commands`);
    const response = await command(app, id, tokens[seat], { command: mine.legalCommands.at(-1), expectedVersion: mine.version });
    t.equal(response.statusCode, 200, response.body);
    const answer = response.json();
    t.ok(answer.version > mine.version, 'the answer carries the new version');
    t.same(answer.events.map((e: { seq: number }) => e.seq), Array.from({ length: answer.version - mine.version }, (_, i) => mine.version + i + 1), 'the new events, numbered without gaps');
    version = answer.version;
    commands++;
    clock.now += 1000;
    if (commands > 2000) break;
  }
  t.ok(commands <= 2000, `the game ends (after ${commands} commands)`);

  const summary = (await app.inject({ url: `/games/${id}` })).json();
  t.equal(summary.status, 'finished');
  t.ok(summary.result.winners.length >= 1, 'the result names the winners');
  t.equal(summary.game.seed, 'full-game', 'the seed is revealed once the game is over');
  t.equal(summary.game.seedHash, createHash('sha256').update(`${summary.game.seedNonce}:full-game`).digest('hex'), 'with the nonce, it matches the commitment published at creation');

  const log = (await app.inject({ url: `/games/${id}/events?limit=1000` })).json();
  t.equal(log.events.length, summary.version, 'the log holds every event');
  t.same(log.events.map((e: { seq: number }) => e.seq), Array.from({ length: summary.version }, (_, i) => i + 1), 'without gaps');
  const refolded = fold(pechvogel, { options: summary.game.options, seats: 3 }, log.events.map((e: { event: never }) => e.event));
  t.same(pechvogel.view(refolded, { kind: 'all' }), summary.view, 'folding the log gives the state that was played');

  const replay = (await app.inject({ url: `/games/${id}/replay` })).json();
  t.equal(replay.steps.length, summary.version, 'the replay has every step');
  t.same(replay.steps.at(-1).view, summary.view, 'its last step is the final table');
  t.same(replay.result, summary.result);

  t.equal(summary.game.rulesVersion, pechvogel.rulesVersion, 'the game records the rules version it was played under');
  const listed = (await app.inject({ url: '/games?type=pechvogel&status=finished' })).json();
  t.same(listed.games.map((g: { id: string }) => g.id), [id], 'finished games can be listed by type and status');
  t.same((await app.inject({ url: '/games?status=running' })).json().games, [], 'and only those with that status');
});

t.test('listing pages through games newest first with a cursor', async (t) => {
  const clock = testClock();
  const app = await testApp(t, { clock });
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    ids.push((await createGame(app, { type: 'pechvogel', seats: [{}, {}] })).id);
    clock.now += 1000;
  }
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page: { games: { id: string }[]; next: string | null } = (await app.inject({ url: `/games?limit=2${cursor ? `&cursor=${cursor}` : ''}` })).json();
    t.ok(page.games.length <= 2);
    seen.push(...page.games.map((g) => g.id));
    cursor = page.next;
  } while (cursor !== null);
  t.same(seen, [...ids].reverse(), 'every game once, newest first');
});

t.test('the view at any version, and another seat\'s eyes only after the end', async (t) => {
  const app = await testApp(t);
  const { id, tokens } = await createGame(app, { type: 'pechvogel', seats: [{}, {}], seed: 'views' });
  const atZero = await app.inject({ url: `/games/${id}/view?version=0` });
  t.equal(atZero.statusCode, 200);
  t.equal(atZero.json().version, 0);
  const tooFar = await app.inject({ url: `/games/${id}/view?version=999` });
  t.equal(tooFar.statusCode, 400);
  t.equal(tooFar.json().code, 'request/invalid');
  const peek = await app.inject({ url: `/games/${id}/view?viewer=seat:1`, headers: { authorization: `Bearer ${tokens[0]}` } });
  t.equal(peek.statusCode, 403, 'a seat may not look through another seat\'s eyes while the game runs');
  t.equal(peek.json().code, 'auth/forbidden');
  const replay = await app.inject({ url: `/games/${id}/replay` });
  t.equal(replay.statusCode, 409);
  t.equal(replay.json().code, 'game/not-finished', 'no replay while the game runs');
});

t.test('creating a game answers with the summary the game then has', async (t) => {
  const app = await testApp(t, { clock: testClock() });
  const bodies = [
    { type: 'porca-miseria', seats: [{}, {}, {}] }, // running at once, with a deadline
    { type: 'pechvogel', seats: [{ name: 'Ada' }, { open: true }] }, // waiting for a seat
  ];
  for (const body of bodies) {
    const { id, created } = await createGame(app, body);
    const read = (await app.inject({ url: `/games/${id}` })).json();
    t.same(created.game, read.game, `${body.type}: the same as reading it back`);
  }
});
