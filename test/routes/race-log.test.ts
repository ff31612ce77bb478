// Disputes in a race: every race command the server received, accepted or refused, is
// in the game's race log with its seat, receive time and refusal code, in the order
// decided; a refusal is committed with the game's next append at the latest; the replay shows
// the same log.
import t from 'tap';
import { bearerHeader, command, createGame, testApp, testClock } from '../helpers/app.ts';
import { table, untilCard } from '../helpers/porca-miseria.ts';

t.test('Porca Miseria: four grabs for one target card, the winner and the three losers in order', async (t) => {
  const clock = testClock();
  const app = await testApp(t, { clock });
  const game = await createGame(app, { type: 'porca-miseria', seats: [{}, {}, {}, {}], seed: 'race-log', options: { revealMs: 5000, windowMs: 4000 } });
  const tokens = game.tokens.map((token) => token!);
  const view = await untilCard(app, clock, game.id, tokens, 'symbol');
  const { version } = await table(app, game.id);
  const target = 'pig' as const;

  clock.now += 250;
  const raceAt = clock.now;
  // Decided in one turn of the event loop, in the order sent; seat 0's pass after them.
  const refusals = async () => (await app.services.store['pool'].query<{ n: number }>('SELECT count(*)::int AS n FROM race_refusal')).rows[0]!.n;
  const [passed, ...answers] = await Promise.all([
    ...tokens.map((token) => command(app, game.id, token, { command: { type: 'grab', target } })),
    command(app, game.id, tokens[0], { command: { type: 'pass' } }),
  ]).then((all) => [all.at(-1)!, ...all.slice(0, -1)]);
  t.same(answers.map((a) => a!.statusCode), [200, 422, 422, 422], 'the first grab holds the card');
  t.same(answers.slice(1).map((a) => a!.json().code), ['porca-miseria/target-taken', 'porca-miseria/target-taken', 'porca-miseria/target-taken']);
  t.equal(passed!.statusCode, 200);
  // Durable: committed before or together with the game's next append (the pass).
  t.equal(await refusals(), 3, "the refusals are committed once the game's next command is");

  clock.now += 10;
  const slapAt = clock.now;
  t.equal((await command(app, game.id, tokens[2], { command: { type: 'slap' } })).json().code, 'porca-miseria/no-touch-card');
  t.equal((await command(app, game.id, tokens[1], { command: { type: 'pass' } })).statusCode, 200, 'a pass is no race command');
  t.equal(await refusals(), 4, 'the refused slap too');
  t.equal((await command(app, game.id, undefined, { command: { type: 'grab', target } })).statusCode, 401, 'a command without a seat is not recorded');

  const raceLog = await app.inject({ url: `/games/${game.id}/race-log` });
  t.equal(raceLog.statusCode, 200, 'spectators read it: nothing in it is hidden');
  const entries = raceLog.json().entries;
  t.same(entries, [
    { seat: 0, actor: 'seat:0', command: { type: 'grab', target }, receivedAt: raceAt, outcome: 'accepted', version, seq: version + 1, code: null },
    ...[1, 2, 3].map((seat) => ({ seat, actor: `seat:${seat}`, command: { type: 'grab', target }, receivedAt: raceAt, outcome: 'refused', version: version + 1, seq: null, code: 'porca-miseria/target-taken' })),
    { seat: 2, actor: 'seat:2', command: { type: 'slap' }, receivedAt: slapAt, outcome: 'refused', version: version + 2, seq: null, code: 'porca-miseria/no-touch-card' },
  ], 'the winner, then the losers in the order decided, each with its receive time and code');
  t.equal(view.card?.kind, 'symbol');
  const seatRead = await app.inject({ url: `/games/${game.id}/race-log`, headers: bearerHeader(tokens[3]) });
  t.same(seatRead.json().entries, entries, 'a seat reads the same log');
  const refereeRead = await app.inject({ url: `/games/${game.id}/race-log`, headers: bearerHeader(game.referee) });
  t.same(refereeRead.json().entries, entries, 'and so does the referee');
});

t.test('the replay of a finished game carries its race log; a game without races has an empty one', async (t) => {
  const clock = testClock();
  const app = await testApp(t, { clock });
  const game = await createGame(app, { type: 'porca-miseria', seats: [{}, {}, {}], seed: 'race-replay', options: { revealMs: 5000, windowMs: 4000, maxActions: 1 } });
  const tokens = game.tokens.map((token) => token!);
  clock.now += 100;
  t.equal((await command(app, game.id, tokens[0], { command: { type: 'reveal' } })).statusCode, 200);
  const { view, pending } = await table(app, game.id);
  clock.now += 100;
  const [first, second] = await Promise.all([0, 1].map((seat) => command(app, game.id, tokens[seat], { command: view.card?.kind === 'symbol' ? { type: 'grab', target: 'pig' } : { type: 'slap' } })));
  t.equal(first!.statusCode, 200);
  const late = second!.statusCode !== 200;
  clock.now = pending.deadline!;
  await app.services.scheduler.runDue();
  t.equal((await table(app, game.id)).version > 0, true);
  const replay = await app.inject({ url: `/games/${game.id}/replay` });
  t.equal(replay.statusCode, 200, 'the game is over after one action');
  const raceLog = (await app.inject({ url: `/games/${game.id}/race-log` })).json().entries;
  t.same(replay.json().raceLog, raceLog, 'the replay shows the race log');
  t.equal(raceLog.length, 2);
  t.same(raceLog.map((e: { seat: number; outcome: string }) => [e.seat, e.outcome]), [[0, 'accepted'], [1, late ? 'refused' : 'accepted']]);

  const other = await createGame(app, { type: 'mistkaefer', seats: [{}, {}], seed: 'no-races' });
  t.equal((await app.inject({ url: `/games/${other.id}/race-log` })).json().code, 'auth/forbidden', 'a game with hidden information keeps spectators out while it runs');
  const none = await app.inject({ url: `/games/${other.id}/race-log`, headers: bearerHeader(other.tokens[0]) });
  t.equal(none.statusCode, 200, none.body);
  t.same(none.json().entries, []);
});

t.test('Pechvogel: the first frustrate starts, the next joins, the reduce that came after them is refused', async (t) => {
  const clock = testClock();
  const app = await testApp(t, { clock });
  // A table in play (a position), everyone with a frustration to put down.
  const position = { turn: 0, players: [0, 1, 2].map(() => ({ markers: [], frustrations: 1 })), middle: [3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 7] };
  const game = await createGame(app, { type: 'pechvogel', seats: [{}, {}, {}], chance: 'supplied', position });
  const tokens = game.tokens.map((token) => token!);
  const chance = async (outcomes: unknown[]) => {
    const answer = await app.inject({ method: 'POST', url: `/games/${game.id}/chance`, payload: { outcomes }, headers: bearerHeader(game.referee) });
    t.equal(answer.statusCode, 200, answer.body);
  };
  t.equal((await command(app, game.id, tokens[0], { command: { type: 'throw' } })).statusCode, 200);
  await chance([3, 4, 5, 6, 7, 3, 4]);
  t.equal((await command(app, game.id, tokens[0], { command: { type: 'chooseTarget', target: 3 } })).statusCode, 200);
  t.equal((await command(app, game.id, tokens[0], { command: { type: 'throw' } })).statusCode, 200);
  await chance([3, 'raven', 4, 5, 6]);
  const { version, pending } = (await app.inject({ url: `/games/${game.id}` })).json();
  t.same(pending.seats, [0, 1, 2], 'the throw may be rerolled: a reaction window is open');

  clock.now += 500;
  const answers = await Promise.all([
    command(app, game.id, tokens[1], { command: { type: 'frustrate' } }),
    command(app, game.id, tokens[2], { command: { type: 'frustrate' } }),
    command(app, game.id, tokens[0], { command: { type: 'reduce' } }),
  ]);
  t.same(answers.map((a) => a.statusCode), [200, 200, 422]);
  const code = answers[2]!.json().code;
  // The game's next command: the refusal is committed with it at the latest.
  t.equal((await command(app, game.id, tokens[0], { command: { type: 'throw' } })).statusCode, 200, 'the reroll');
  const { entries } = (await app.inject({ url: `/games/${game.id}/race-log` })).json();
  t.match(entries, [
    { seat: 1, command: { type: 'frustrate' }, outcome: 'accepted', version, receivedAt: clock.now, code: null },
    { seat: 2, command: { type: 'frustrate' }, outcome: 'accepted', receivedAt: clock.now, code: null },
    { seat: 0, command: { type: 'reduce' }, outcome: 'refused', receivedAt: clock.now, code },
  ], 'who frustrated first, who joined, and whose reduce came too late');
  t.equal(entries.length, 3, 'throws and target choices are no race commands');
});
