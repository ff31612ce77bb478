// Entering a game in progress: a supplied-chance game created from a described
// position, checked against the rules' invariants, recorded as its first event. A
// position taken from the middle of a game played at the table, entered in a new game
// and played on with the same commands and outcomes, reaches the same end; a position
// that does not add up is refused with a problem naming what, and nothing is written.
import t from 'tap';
import type { App } from '../../src/app.ts';
import { serverChance } from '../../src/domain/chance.ts';
import { deckIds } from '../../src/domain/porca-miseria/edition.ts';
import { bearerHeader, command, createGame, testApp, testClock } from '../helpers/app.ts';

type Step = { readonly seat: number; readonly command: { type: string } } | { readonly outcomes: unknown[] };
type View = Record<string, any>;

interface Table {
  readonly type: string;
  readonly seats: number;
  readonly options: Record<string, unknown>;
  /** A view the game rests in, from which a position can be taken. */
  readonly resting: (view: View) => boolean;
  /** The position the table shows in `view`, after the events `log`. */
  readonly position: (view: View, log: readonly { type: string; [field: string]: any }[]) => unknown;
}

const tables: Table[] = [
  {
    type: 'pechvogel',
    seats: 3,
    options: {},
    resting: (view) => view.phase === 'throw' && view.turn?.throws === 0,
    position: (view) => ({ turn: view.turn.seat, players: view.players, middle: view.middle, box: view.box, murphy: view.murphy }),
  },
  {
    type: 'fackel-und-keule',
    seats: 3,
    options: {},
    resting: (view) => view.phase === 'choosing' && view.seats.every((s: { commitment: string | null }) => s.commitment === null),
    position: (view, log) => ({
      round: view.round,
      animal: view.animal.id,
      animalsGone: log.filter((e) => e.type === 'AnimalRevealed').map((e) => e.animal).slice(0, -1),
      hands: view.all.hands,
      discardPile: view.all.discardPile,
      drawPile: view.all.drawPile,
      chips: view.seats.map((s: { chips: unknown }) => s.chips),
      supply: view.supply,
      lastRound: view.lastRound === null ? null : { round: view.lastRound.round, animal: view.lastRound.animal?.id ?? null, played: view.lastRound.played },
    }),
  },
  {
    type: 'mistkaefer',
    seats: 3,
    options: {},
    resting: (view) => view.phase === 'turn',
    position: (view) => ({
      active: view.active,
      tableaus: view.tableaus,
      hands: view.hands.map((h: { kinds: string[] }) => h.kinds),
      supply: view.chipSupply.kinds,
      firstTurnPending: view.firstTurnPending,
      extraTurns: view.extraTurns,
    }),
  },
  {
    type: 'porca-miseria',
    seats: 3,
    options: { maxActions: 16 },
    resting: (view) => view.phase === 'reveal',
    position: (view) => ({ startingSeat: view.startingSeat, firstStartingSeat: 0, stack: view.stack, jackpot: view.jackpot, winnings: view.winnings, actions: view.actions }),
  },
];

const refereeRead = async (app: App, id: string, referee: string) => (await app.inject({ url: `/games/${id}`, headers: bearerHeader(referee) })).json();

async function send(app: App, id: string, referee: string, tokens: readonly (string | null)[], step: Step): Promise<void> {
  const sent =
    'outcomes' in step
      ? await app.inject({ method: 'POST', url: `/games/${id}/chance`, payload: { outcomes: step.outcomes }, headers: bearerHeader(referee) })
      : await command(app, id, tokens[step.seat], { command: step.command });
  if (sent.statusCode !== 200) throw new Error(`${JSON.stringify(step)} was refused: ${sent.body}`);
}

const gameCount = async (app: App): Promise<number> => {
  const { rows } = await app.services.store['pool'].query<{ n: number }>('SELECT count(*)::int AS n FROM game');
  return rows[0]!.n;
};

for (const table of tables) {
  t.test(`${table.type}: a position from the middle of a played game, entered anew, plays to the same end`, async (t) => {
    const clock = testClock();
    const app = await testApp(t, { clock });
    const seats = Array.from({ length: table.seats }, (_, i) => ({ name: `player ${i}` }));
    const first = await createGame(app, { type: table.type, seats, options: table.options, chance: 'supplied' });
    let draws = 0;
    const pick = <T>(items: readonly T[]): T => serverChance(`position:${table.type}`, draws++).draw(items, 1)[0]!;
    // Every step at the table, and the referee's view before it.
    const played: { step: Step; before: View; version: number }[] = [];
    let game = await refereeRead(app, first.id, first.referee);
    for (let n = 0; game.status !== 'finished' && n < 5000; n++) {
      const need = game.pending.chance;
      const ready = (game.pending.seats as number[]).filter((seat) => game.seatCommands[seat].length > 0);
      const step: Step = need !== undefined ? { outcomes: [pick(need.values as unknown[])] } : ((seat) => ({ seat, command: pick(game.seatCommands[seat] as { type: string }[]) }))(pick(ready));
      played.push({ step, before: game.view, version: game.version });
      await send(app, first.id, first.referee, first.tokens, step);
      game = await refereeRead(app, first.id, first.referee);
    }
    t.equal(game.status, 'finished', `the first game was played to its end (${played.length} steps)`);
    const end = game;

    // A resting point about half-way: no chance awaited, nobody in the middle of a move.
    const restingAt = played.map((p, i) => (table.resting(p.before) && !('outcomes' in p.step) ? i : -1)).filter((i) => i > 0);
    const from = restingAt[Math.floor(restingAt.length / 2)]!;
    t.ok(from > 10 && from < played.length - 10, `the position is taken in the middle (step ${from} of ${played.length})`);
    const log = (await app.inject({ url: `/games/${first.id}/events?limit=1000`, headers: bearerHeader(first.referee) })).json().events.filter((e: { seq: number }) => e.seq <= played[from]!.version);
    const position = table.position(played[from]!.before, log.map((e: { event: { type: string } }) => e.event));

    const second = await createGame(app, { type: table.type, seats, options: table.options, chance: 'supplied', position });
    const opened = await refereeRead(app, second.id, second.referee);
    t.equal(opened.version, 1, 'the position is the first event');
    t.same(opened.view, played[from]!.before, "the new game's view is the table's at that point");
    const opening = (await app.inject({ url: `/games/${second.id}/events` })).json();
    t.same(opening.events.map((e: { event: { type: string } }) => e.event.type), ['PositionSet'], 'the log starts with it');
    for (const { step } of played.slice(from)) await send(app, second.id, second.referee, second.tokens, step);
    const after = await refereeRead(app, second.id, second.referee);
    t.equal(after.status, 'finished');
    t.same(after.game.result, end.game.result, 'the same result');
    t.same(after.view, end.view, 'the same table at the end');
    const replay = await app.inject({ url: `/games/${second.id}/replay` });
    t.equal(replay.statusCode, 200);
    t.equal(replay.json().steps[0].event.type, 'PositionSet', 'the replay folds from the position');
    t.same(replay.json().steps.at(-1).view, end.view);
  });
}

t.test('positions that do not add up are refused with a problem naming what, and nothing is written', async (t) => {
  const app = await testApp(t, { clock: testClock() });
  const seats = [{ name: 'a' }, { name: 'b' }, { name: 'c' }];
  const refused = async (type: string, position: unknown, chance = 'supplied') => {
    const before = await gameCount(app);
    const response = await app.inject({ method: 'POST', url: '/games', payload: { type, seats, chance, position } });
    t.equal(await gameCount(app), before, 'nothing written');
    t.equal(response.statusCode, 422, response.body);
    return response.json();
  };
  const pechvogel = { turn: 2, players: [{ markers: [5, 7], frustrations: 1 }, { markers: [3], frustrations: 0 }, { markers: [], frustrations: 2 }], middle: [3, 3, 4, 4, 4, 5, 6, 6, 6, 7], box: [5, 7], murphy: null };
  t.equal((await app.inject({ method: 'POST', url: '/games', payload: { type: 'pechvogel', seats, chance: 'supplied', position: pechvogel } })).statusCode, 201, 'the documented example is a good position');

  const missing = await refused('pechvogel', { ...pechvogel, middle: [3, 3, 4, 4, 4, 5, 6, 6, 7] });
  t.equal(missing.code, 'position/components-mismatch');
  t.same(missing.problems, [{ code: 'position/components-mismatch', component: 'marker:6', message: missing.problems[0].message, expected: 3, found: 2 }], 'names the marker that is missing');
  const twice = await refused('pechvogel', { ...pechvogel, box: [5, 7, 7] });
  t.match(twice.problems, [{ component: 'marker:7', expected: 3, found: 4 }]);
  t.equal((await refused('pechvogel', { ...pechvogel, turn: 3 })).problems[0].component, 'turn');
  const over = await refused('pechvogel', { ...pechvogel, players: [{ markers: [3, 3, 3, 4, 4, 4, 5, 7], frustrations: 0 }, { markers: [6, 6, 6, 7, 5], frustrations: 0 }, { markers: [], frustrations: 0 }], middle: [] });
  t.equal(over.code, 'position/illegal-phase', 'a game already over is no position to enter');
  t.equal((await refused('pechvogel', { ...pechvogel, players: [{ markers: ['x'], frustrations: 0 }] })).code, 'position/invalid');
  t.equal((await refused('pechvogel', pechvogel, 'server')).code, 'position/not-allowed', 'only supplied-chance games start from a position');

  const two = [{ name: 'a' }, { name: 'b' }];
  const mistkaefer = { active: 1, tableaus: [{ green: [2, 4], yellow: [1, 1, 3], blue: [] }, { green: [5], yellow: [], blue: [1, 2, 2, 6] }], hands: [['oneDungBall', 'cloverLeaf'], ['twoDungBalls']] };
  const created = await app.inject({ method: 'POST', url: '/games', payload: { type: 'mistkaefer', seats: two, chance: 'supplied', position: mistkaefer } });
  t.equal(created.statusCode, 201, created.body);
  const { game, seats: tokens } = created.json();
  const seen = (await app.inject({ url: `/games/${game.id}/events`, headers: bearerHeader(tokens[1].token) })).json().events[0].event.position;
  t.same([seen.hands, seen.handSizes, seen.supply], [[null, ['twoDungBalls']], [2, 1], undefined], "another seat's chips and the supply stay face down in the position event");
  const refusedTwo = async (position: unknown) => {
    const before = await gameCount(app);
    const response = await app.inject({ method: 'POST', url: '/games', payload: { type: 'mistkaefer', seats: two, chance: 'supplied', position } });
    t.equal(await gameCount(app), before, 'nothing written');
    t.equal(response.statusCode, 422, response.body);
    return response.json();
  };
  const clovers = await refusedTwo({ ...mistkaefer, hands: [['cloverLeaf', 'cloverLeaf', 'cloverLeaf', 'cloverLeaf', 'cloverLeaf', 'cloverLeaf', 'cloverLeaf'], []] });
  t.match(clovers.problems, [{ code: 'position/components-mismatch', component: 'chip:cloverLeaf', expected: 6, found: 7 }], 'more clover leaves than a game of two has');
  const supply = await refusedTwo({ ...mistkaefer, supply: { oneDungBall: 25, twoDungBalls: 13, cloverLeaf: 5 } });
  t.match(supply.problems, [{ component: 'chip:twoDungBalls', expected: 13, found: 14 }], 'a supply given is counted with the hands');
  t.equal((await refusedTwo({ ...mistkaefer, tableaus: [{ green: [1, 2, 3, 4, 5, 6, 6], yellow: [], blue: [] }, { green: [], yellow: [], blue: [] }] })).problems[0].component, 'dice:green', 'more green dice than a game of two has');
  t.equal((await refusedTwo({ ...mistkaefer, tableaus: [{ green: [4, 2], yellow: [], blue: [] }, { green: [], yellow: [], blue: [] }] })).problems[0].component, 'tableaus.0.green', 'a row that falls');
  t.equal((await refusedTwo({ ...mistkaefer, hands: [['cloverLeaf', 'cloverLeaf', 'cloverLeaf', 'cloverLeaf'], []] })).code, 'position/illegal-phase', 'a seat that has won');

  const fk = { round: 2, animal: 'saber-tooth-tiger', animalsGone: ['wool-rhinoceros'], hands: [[1, 2, 3, 4], [5, 6, 7, 8, 9], [10, 11, 12]], discardPile: [13, 14, 15, 16], chips: [{ teeth: 1, fur: 1, meat: 2, skull: 0 }, { teeth: 1, fur: 1, meat: 2, skull: 0 }, { teeth: 0, fur: 0, meat: 0, skull: 0 }], supply: { teeth: 22, fur: 22, meat: 26, skull: 14 } };
  const fkGame = await app.inject({ method: 'POST', url: '/games', payload: { type: 'fackel-und-keule', seats, chance: 'supplied', position: fk } });
  t.equal(fkGame.statusCode, 201, fkGame.body);
  const fkSeen = (await app.inject({ url: `/games/${fkGame.json().game.id}/events`, headers: bearerHeader(fkGame.json().seats[0].token) })).json().events[0].event.position;
  t.same([fkSeen.hands, fkSeen.handSizes, fkSeen.drawPile, fkSeen.discardPile], [[[1, 2, 3, 4], null, null], [4, 5, 3], undefined, undefined], "other hands and the piles stay hidden in the position event");
  t.match((await refused('fackel-und-keule', { ...fk, discardPile: [13, 14, 15, 16, 1] })).problems, [{ code: 'position/components-mismatch', component: 'card:1', found: 2 }], 'a card in a hand and on the discard pile');
  t.match((await refused('fackel-und-keule', { ...fk, drawPile: [17, 18] })).problems, [{ component: 'card:19', expected: 1, found: 0 }], 'a draw pile given must hold the rest');
  t.match((await refused('fackel-und-keule', { ...fk, supply: { ...fk.supply, meat: 27 } })).problems, [{ component: 'chip:meat', expected: 30, found: 31 }]);
  t.match((await refused('fackel-und-keule', { ...fk, animalsGone: [] })).problems, [{ code: 'position/out-of-range', component: 'animalsGone', expected: 1, found: 0 }]);
  t.match((await refused('fackel-und-keule', { ...fk, animalsGone: ['saber-tooth-tiger'] })).problems, [{ component: 'animal:saber-tooth-tiger', found: 2 }], 'an animal twice');
  t.match((await refused('fackel-und-keule', { ...fk, hands: [[1, 2, 3, 4, 17, 18, 19], [5, 6, 7, 8, 9], [10, 11, 12]] })).problems, [{ code: 'position/out-of-range', component: 'hands.0', expected: 6, found: 7 }], 'over the hand limit');

  const porca = { startingSeat: 1, stack: deckIds.slice(8), jackpot: deckIds.slice(0, 2), winnings: [deckIds.slice(2, 5), [], deckIds.slice(5, 8)], actions: 9 };
  t.equal((await app.inject({ method: 'POST', url: '/games', payload: { type: 'porca-miseria', seats, chance: 'supplied', position: porca } })).statusCode, 201);
  const dup = await refused('porca-miseria', { ...porca, winnings: [deckIds.slice(2, 5), [deckIds[9]], deckIds.slice(5, 8)] });
  t.match(dup.problems, [{ code: 'position/components-mismatch', component: `card:${deckIds[9]}`, expected: 1, found: 2 }], 'a card in two places');
  const lost = await refused('porca-miseria', { ...porca, stack: deckIds.slice(9) });
  t.match(lost.problems, [{ component: `card:${deckIds[8]}`, expected: 1, found: 0 }], 'a card nowhere');
  t.equal((await refused('porca-miseria', { ...porca, winnings: [[], []] })).problems[0].component, 'winnings');
  t.equal((await refused('porca-miseria', { ...porca, jackpot: deckIds.slice(0, 6), winnings: [deckIds.slice(6, 8), [], []] })).code, 'position/invalid', 'more than five jackpot cards between actions');
});
