// Chance as a party: in a supplied-chance game the seats act with their own tokens,
// a command that needs outcomes makes the game wait for chance, every read says what
// chance must supply next, and the referee supplies it. Deadlines are off unless the
// referee sets them, and a deadline that needs chance waits for the referee instead
// of freezing the game. Server-chance games are untouched.
import t from 'tap';
import type { App } from '../../src/app.ts';
import { rightfulTargets } from '../../src/domain/porca-miseria/lucky-numbers.ts';
import type { PorcaView } from '../../src/domain/porca-miseria/index.ts';
import type { SymbolCard } from '../../src/domain/porca-miseria/vocabulary.ts';
import { bearerHeader, command, createGame, testApp, testClock } from '../helpers/app.ts';

const read = async (app: App, id: string, token?: string | null) => (await app.inject({ url: `/games/${id}`, headers: bearerHeader(token) })).json();
const supply = (app: App, id: string, token: string, outcomes: unknown[]) =>
  app.inject({ method: 'POST', url: `/games/${id}/chance`, payload: { outcomes }, headers: bearerHeader(token) });

t.test('a seat throws with its own token; the game waits for the dice, then the referee supplies them', async (t) => {
  const app = await testApp(t);
  const { id, referee, tokens } = await createGame(app, { type: 'pechvogel', seats: [{}, {}], chance: 'supplied' });
  const thrown = await command(app, id, tokens[0], { command: { type: 'throw' } });
  t.equal(thrown.statusCode, 200, 'accepted: the game now waits for chance');
  t.same(thrown.json().events.map((e: { event: { type: string } }) => e.event.type), ['ChanceAwaited']);
  t.same(thrown.json().pending, { seats: [], chance: { kind: 'die', count: 7 } }, 'the seat sees what chance owes, not the values');

  const refereeRead = await read(app, id, referee);
  t.same(refereeRead.pending.chance, { kind: 'die', count: 7, values: [3, 4, 5, 6, 7, 'raven'] }, "the referee's read says kind, count and the values still possible");
  t.same(refereeRead.seatCommands, [[], []], 'nobody may act while chance is awaited');
  t.same((await read(app, id)).pending.chance, { kind: 'die', count: 7 }, 'a spectator sees it too');

  const meanwhile = await command(app, id, tokens[1], { command: { type: 'pass' } });
  t.equal(meanwhile.json().code, 'chance/awaited', 'a seat acting meanwhile is told the game waits for chance');
  t.equal((await supply(app, id, tokens[0]!, [7])).json().code, 'auth/forbidden', 'a seat cannot supply chance');

  const part = await supply(app, id, referee, [7, 7, 'raven']);
  t.equal(part.statusCode, 200, 'a part of the throw is kept');
  t.same(part.json().pending.chance, { kind: 'die', count: 4, values: [3, 4, 5, 6, 7, 'raven'] }, 'and the rest is asked for');
  t.equal((await supply(app, id, referee, [3, 4, 5, 6, 7])).json().code, 'chance/outcome-unused', 'a die too many is refused');
  t.equal((await supply(app, id, referee, [3, 4, 9, 6])).json().code, 'chance/outcome-invalid');
  const rest = await supply(app, id, referee, [3, 4, 5, 6]);
  t.equal(rest.statusCode, 200);
  t.same(
    rest.json().events.map((e: { event: { type: string } }) => e.event.type),
    ['ChanceSupplied', 'DiceThrown'],
    'the throw is decided once chance has supplied everything',
  );
  const after = await read(app, id, referee);
  t.equal(after.pending.chance, undefined, 'chance is no longer awaited');
  t.same(after.seatCommands[0], [3, 4, 5, 6, 7].map((target) => ({ type: 'chooseTarget', target })), "the referee's read lists every seat's legal commands");
  t.same(after.view.turn.last.faces, [7, 7, 'raven', 3, 4, 5, 6]);
  t.equal((await supply(app, id, referee, [3])).json().code, 'chance/not-awaited');

  const seatLog = (await app.inject({ url: `/games/${id}/events`, headers: bearerHeader(tokens[1]) })).json().events;
  const supplied = seatLog.filter((e: { event: { type: string } }) => e.event.type === 'ChanceSupplied').map((e: { event: unknown }) => e.event);
  t.same(supplied, [{ type: 'ChanceSupplied', count: 3, need: { kind: 'die', count: 4 } }, { type: 'ChanceSupplied', count: 4, need: null }], "a seat's log counts the outcomes; the dice are in DiceThrown");
});

t.test('the rules refuse before chance is asked: a command the rules refuse never waits, outcomes or not', async (t) => {
  const app = await testApp(t);
  const cases: [string, Record<string, unknown>, number, Record<string, unknown>, string][] = [
    ['mistkaefer', {}, 1, { type: 'roll', colour: 'green', count: 2 }, 'mistkaefer/not-your-turn'],
    ['pechvogel', {}, 1, { type: 'throw' }, 'pechvogel/not-your-turn'],
    ['porca-miseria', {}, 1, { type: 'reveal' }, 'porca-miseria/not-starting-player'],
  ];
  for (const [type, options, seat, sent, code] of cases) {
    const seats = Array.from({ length: type === 'porca-miseria' ? 3 : 2 }, () => ({}));
    const { id, referee, tokens } = await createGame(app, { type, seats, options, chance: 'supplied' });
    const before = (await read(app, id)).version;
    t.equal((await command(app, id, tokens[seat], { command: sent })).json().code, code, `${type}: the seat's own ${sent.type} off turn`);
    const withOutcomes = await command(app, id, referee, { seat, command: sent, outcomes: type === 'porca-miseria' ? ['s23'] : [1, 2] });
    t.equal(withOutcomes.json().code, code, `${type}: with outcomes it is still the rules' code, not a chance code`);
    t.equal((await read(app, id)).version, before, `${type}: nothing appended`);
  }
});

t.test('supplied games run without deadlines unless the referee sets them', async (t) => {
  const app = await testApp(t);
  const untimed = await createGame(app, { type: 'porca-miseria', seats: [{}, {}, {}], chance: 'supplied' });
  t.same((await read(app, untimed.id)).game.options, { expert: false, revealMs: 0, windowMs: 0, maxActions: 300 });
  t.same((await read(app, untimed.id)).pending, { seats: [0] }, 'the reveal has no deadline');
  const pechvogel = await createGame(app, { type: 'pechvogel', seats: [{}, {}], chance: 'supplied' });
  t.equal((await read(app, pechvogel.id)).game.options.reactionSeconds, 0);
  const set = await createGame(app, { type: 'pechvogel', seats: [{}, {}], chance: 'supplied', options: { reactionSeconds: 30 } });
  t.equal((await read(app, set.id)).game.options.reactionSeconds, 30, 'the referee may set one');
  const server = await createGame(app, { type: 'pechvogel', seats: [{}, {}] });
  t.equal((await read(app, server.id)).game.options.reactionSeconds, 20, 'server-chance games keep their defaults');
});

t.test('Porca Miseria with deadlines set: the reveal and the settlement at their deadlines wait for the referee', async (t) => {
  const clock = testClock();
  const app = await testApp(t, { clock });
  const { id, referee, tokens } = await createGame(app, { type: 'porca-miseria', seats: [{}, {}, {}], chance: 'supplied', options: { revealMs: 500, windowMs: 500 } });
  clock.now += 600;
  await app.services.scheduler.runDue();
  let game = await read(app, id, referee);
  t.same(game.pending.chance && { kind: game.pending.chance.kind, count: game.pending.chance.count }, { kind: 'card', count: 1 }, 'the timed-out reveal waits for the card');
  t.equal(game.pending.chance.values.length, 63);
  t.equal(game.game.deadline, null, 'no deadline runs while chance is awaited');
  const version = game.version;
  await app.services.scheduler.runDue();
  t.equal((await read(app, id)).version, version, 'the scheduler does not fire again');

  const revealed = await supply(app, id, referee, ['s23']);
  t.equal(revealed.statusCode, 200, revealed.body);
  const view = revealed.json().view as PorcaView;
  t.equal(view.card?.id, 's23');
  t.equal(view.deadline, clock.now + 500, 'the window opens when the timeout was received');
  const grabber = [0, 1, 2].find((seat) => rightfulTargets(view.luckyNumbers[seat]!, view.card as SymbolCard).length > 0)!;
  const target = rightfulTargets(view.luckyNumbers[grabber]!, view.card as SymbolCard)[0]!;
  t.equal((await command(app, id, tokens[grabber], { command: { type: 'grab', target } })).statusCode, 200, 'a rightful grab');
  clock.now += 600;
  await app.services.scheduler.runDue();
  game = await read(app, id, referee);
  t.same(game.pending.chance && game.pending.chance.count, 1, 'the settlement waits for the winnings card');
  const paid = await supply(app, id, referee, [game.pending.chance.values[0]]);
  t.equal(paid.statusCode, 200, paid.body);
  const types = paid.json().events.map((e: { event: { type: string } }) => e.event.type);
  t.same(types.slice(0, 2), ['ChanceSupplied', 'WinningPaid'], 'the winnings are paid with the card the table shows');
  t.equal(paid.json().view.winnings[grabber].length, 1);
});

t.test('a Fackel+Keule game created without its deal waits for the cards', async (t) => {
  const app = await testApp(t);
  const { id, referee, tokens } = await createGame(app, { type: 'fackel-und-keule', seats: [{}, {}, {}], chance: 'supplied' });
  const game = await read(app, id, referee);
  t.same({ kind: game.pending.chance.kind, count: game.pending.chance.count }, { kind: 'card', count: 5 }, "the first seat's hand");
  t.same((await read(app, id, tokens[0])).pending.chance, { kind: 'card', count: 5 });
  const deck = game.pending.chance.values as number[];
  const hands = [deck.slice(0, 5), deck.slice(5, 10), deck.slice(10, 15)];
  for (const hand of hands) t.equal((await supply(app, id, referee, hand)).statusCode, 200);
  const animal = (await read(app, id, referee)).pending.chance;
  t.equal(animal.kind, 'animal');
  const dealt = await supply(app, id, referee, [animal.values[0]]);
  t.equal(dealt.statusCode, 200);
  t.same((await read(app, id, tokens[1])).view.you.hand, [...hands[1]!].sort((a, b) => a - b), 'each seat holds the cards the table dealt it');
  const otherSeat = (await app.inject({ url: `/games/${id}/events`, headers: bearerHeader(tokens[1]) })).json().events;
  t.notOk(JSON.stringify(otherSeat).includes(JSON.stringify(hands[0])), "another seat's log never shows the first hand");
});
