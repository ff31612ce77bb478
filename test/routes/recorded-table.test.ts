// Done when: a complete game of each of the four games, played at a "table" and
// recorded through the API. The table is a script with its own dice, cards and chips
// (a seeded random source) and its own players; it tells the service only what the
// table shows, driven by nothing but the referee's reads: `pending.chance` says what
// chance must show next, `seatCommands` what each player may do. The players act with
// their own seat tokens. At the end the table's own record — every command and every
// outcome, kept in its scoresheet and played through the rules at the table — equals
// the service's replay.
import t from 'tap';
import type { App } from '../../src/app.ts';
import { serverChance } from '../../src/domain/chance.ts';
import { isViolation, type Actor, type GameEvent } from '../../src/domain/contract.ts';
import { findGame } from '../../src/domain/games.ts';
import { bearerHeader, command, createGame, testApp, testClock } from '../helpers/app.ts';
import { suppliedChance } from '../../src/domain/chance.ts';

type Step = { readonly seat: number; readonly command: { type: string } } | { readonly outcome: unknown };

const tables: { type: string; seats: number; options: Record<string, unknown> }[] = [
  { type: 'pechvogel', seats: 3, options: {} },
  { type: 'fackel-und-keule', seats: 3, options: {} },
  { type: 'mistkaefer', seats: 2, options: {} },
  { type: 'porca-miseria', seats: 3, options: { maxActions: 12 } },
];

/** Salts and commitments are the service's secrets, drawn from its seed: the table's
 * own replay draws its own, and nothing else differs. */
const withoutSecrets = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value), (key, v) => (key === 'salt' || key === 'commitment' ? undefined : v));

for (const { type, seats, options } of tables) {
  t.test(`${type}: a whole game at the table, recorded from the referee's reads alone`, async (t) => {
    const clock = testClock();
    const app = await testApp(t, { clock });
    const { id, referee, tokens } = await createGame(app, { type, seats: Array.from({ length: seats }, (_, i) => ({ name: `player ${i}` })), options, chance: 'supplied' });
    // The table's dice, cards and chips, and its players' whims.
    let draws = 0;
    const pick = <T>(items: readonly T[]): T => serverChance(`table:${type}`, draws++).draw(items, 1)[0]!;
    const record: Step[] = [];
    const refereeRead = async () => (await app.inject({ url: `/games/${id}`, headers: bearerHeader(referee) })).json();

    let steps = 0;
    for (let game = await refereeRead(); game.status !== 'finished'; game = await refereeRead()) {
      if (++steps > 5000) break;
      const need = game.pending.chance;
      if (need !== undefined) {
        // What the table shows: one die, card or chip at a time, of those still possible.
        const outcome = pick(need.values as unknown[]);
        const supplied = await app.inject({ method: 'POST', url: `/games/${id}/chance`, payload: { outcomes: [outcome] }, headers: bearerHeader(referee) });
        if (supplied.statusCode !== 200) t.fail(`the table's ${need.kind} was refused: ${supplied.body}`);
        record.push({ outcome });
        continue;
      }
      const ready = (game.pending.seats as number[]).filter((seat) => game.seatCommands[seat].length > 0);
      if (ready.length === 0) {
        t.fail('a running game that waits for no chance has a seat that may act');
        break;
      }
      const seat = pick(ready);
      const chosen = pick(game.seatCommands[seat] as { type: string }[]);
      const sent = await command(app, id, tokens[seat], { command: chosen });
      if (sent.statusCode !== 200) t.fail(`seat ${seat}'s legal ${chosen.type} was refused: ${sent.body}`);
      record.push({ seat, command: chosen });
    }
    const replay = (await app.inject({ url: `/games/${id}/replay` })).json();
    t.equal(replay.game.status, 'finished', `the game was played to its end (${record.length} steps at the table)`);
    t.ok(record.some((s) => 'outcome' in s) && record.some((s) => 'seat' in s), 'seats acted and chance was supplied');

    // The table's own record, played through the rules at the table.
    const rules = findGame(type)!;
    const setup = { options: replay.game.options, seats };
    let state = rules.initialState(setup);
    const events: GameEvent[] = [];
    const apply = (produced: GameEvent[]) => {
      for (const event of produced) state = rules.evolve(state, event);
      events.push(...produced);
    };
    apply(rules.setup(state, { now: clock.now, chance: suppliedChance([], 'table') }));
    for (const step of record) {
      const actor: Actor = 'outcome' in step ? { kind: 'chance' } : { kind: 'seat', seat: step.seat };
      const sent = 'outcome' in step ? { type: 'chance', outcomes: [step.outcome] } : step.command;
      const decided = rules.decide(state, sent, { actor, now: clock.now, chance: suppliedChance([], `table:${events.length}`) });
      if (isViolation(decided)) throw new Error(`the table's record breaks the rules: ${decided.code}`);
      apply(decided);
    }
    t.same(withoutSecrets(replay.steps.map((s: { event: GameEvent }) => s.event)), withoutSecrets(events), "the replay's events are the table's record played through the rules");
    t.same(replay.result, rules.result(state), 'and so is the result');
    t.same(withoutSecrets(replay.steps.at(-1).view), withoutSecrets(rules.view(state, { kind: 'all' })), 'and the final table');
    const shown = replay.steps.filter((s: { event: GameEvent }) => s.event.type === 'ChanceSupplied').flatMap((s: { event: { outcomes: unknown[] } }) => s.event.outcomes);
    t.same(shown, record.flatMap((s) => ('outcome' in s ? [s.outcome] : [])), 'every outcome the table showed, in order');
    const actors = new Set(replay.steps.map((s: { actor: string }) => s.actor));
    t.ok([...actors].some((a) => /^seat:\d$/.test(a as string)), 'the log names the seats that acted with their own tokens');
    t.ok(actors.has('referee:chance'), 'and the referee as chance');

    // Once over, every command gets one answer, whoever sends it: the game is not running.
    const last = record.findLast((s) => 'seat' in s) as { seat: number; command: { type: string } };
    for (const [who, token] of [['its seat', tokens[last.seat]], ['the referee', referee], ['nobody', undefined]] as const) {
      const late = await command(app, id, token, { command: last.command });
      t.same([late.statusCode, late.json().code], [409, 'game/not-running'], `a command on the finished game from ${who}`);
    }
    const lateChance = await app.inject({ method: 'POST', url: `/games/${id}/chance`, payload: { outcomes: [1] }, headers: bearerHeader(referee) });
    t.same([lateChance.statusCode, lateChance.json().code], [409, 'game/not-running'], 'and chance supplied to it');
  });
}
