// The generic battery every game file runs: random play ends, legal commands are
// accepted and every other one refused, folding reproduces the state, components are
// conserved (the game's own invariant), hidden information never leaks, schemas hold.
// Each game is played once per generated setup and every property group checks that
// recording: the groups share one fast-check seed, so they see the same setups.
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import t from 'tap';
import { serverChance, type Chance } from '../../src/domain/chance.ts';
import { fold, isViolation, violation, type Actor, type GameEvent, type Seat, type Setup, type Viewer } from '../../src/domain/contract.ts';
import type { AnyGame } from '../../src/domain/games.ts';
import { resultSchema } from '../../src/domain/view-parts.ts';
import { below, canonical, deepFreeze, MAX_COMMANDS, play, setupArbitrary, type GameSetup, type Played } from './harness.ts';
import { mutate, shapesOf } from './mutate.ts';

export type Group = 'ends' | 'legal' | 'fold' | 'conserved' | 'hidden' | 'schemas' | 'views';

export interface Secrecy {
  /** A state that differs from `state` only in what `viewer` may not know. */
  readonly scramble?: (state: never, viewer: Viewer, rng: Chance) => unknown;
  /** The event with its hidden part changed, and the seats allowed to see that part;
   * null when the event hides nothing. */
  readonly vary?: (event: never) => { readonly event: GameEvent; readonly owners: readonly Seat[] } | null;
  /** Card ids lying face down: no seat or spectator may see them. */
  readonly faceDown?: (state: never) => readonly string[];
}

export interface GameSpec {
  readonly game: AnyGame;
  readonly runs: number;
  /** Commands per game for every group but `ends` (a game that runs on is cut short). */
  readonly limit?: number;
  /** The rulebook's component counts, checked on every folded state. Throws. */
  readonly conserved: (state: never, setup: Setup<never>) => void;
  /** Checks one event's effect on the components (e.g. exact returns). Throws. */
  readonly transition?: (before: never, event: never, after: never) => void;
  readonly secrecy: Secrecy;
  /** Share of states whose legal and mutated commands are all tried. */
  readonly legalShare: number;
  /** Known failures, reported to the lead: the check runs and shows as a todo. */
  readonly todo?: Partial<Record<Group, string>>;
}

const seatsOf = (n: number): Seat[] => Array.from({ length: n }, (_, s) => s);
const viewersOf = (n: number): Viewer[] => [...seatsOf(n).map((seat): Viewer => ({ kind: 'seat', seat })), { kind: 'spectator' }];
const show = (x: unknown): string => JSON.stringify(x);

/** Every folded state, one per event, with the event that led to it. Each is rebuilt
 * with `game`'s evolve (play() kept only the state after a whole command), so a planted
 * evolve is what the checks see. */
function* transitions(game: AnyGame, played: Played): Generator<{ before: unknown; event: GameEvent; after: unknown }> {
  let before = played.start;
  for (const event of played.log.slice(played.setupEvents.length)) {
    const after = deepFreeze(game.evolve(before, event));
    yield { before, event, after };
    before = after;
  }
}

function checkLegality(game: AnyGame, state: unknown, now: number, rng: Chance): void {
  const pending = game.pending(state);
  const seats = seatsOf((state as { seats: number }).seats);
  const legal = seats.map((seat) => game.legalCommands(state, seat));
  const ctx = (actor: Actor, i: number) => ({ actor, now, chance: serverChance(`probe:${now}`, i) });
  for (const seat of seats) {
    assert.equal(legal[seat]!.length > 0, pending.seats.includes(seat), `seat ${seat}: pending ${show(pending)}, legal ${show(legal[seat])}`);
    for (const command of legal[seat]!) {
      const parsed = game.commandSchema.safeParse(command);
      assert.ok(parsed.success, `legal command ${show(command)} does not fit commandSchema`);
      assert.deepStrictEqual(parsed.data, command, 'commandSchema changes a legal command');
      const events = game.decide(state, command, ctx({ kind: 'seat', seat }, 0));
      assert.ok(!isViolation(events), `seat ${seat}: legal ${show(command)} refused: ${show(events)}`);
    }
  }
  const offered = legal.map((commands) => new Set(commands.map(canonical)));
  const shapes = shapesOf(game);
  const everyLegal = legal.flat() as unknown as Record<string, unknown>[];
  const deadlinePassed = pending.deadline !== undefined && now >= pending.deadline;
  const candidates: { actor: Actor; raw: unknown }[] = [
    { actor: { kind: 'system' }, raw: { type: 'timeout' } },
    ...seats.map((seat) => ({ actor: { kind: 'seat', seat } as Actor, raw: { type: 'timeout' } })),
    ...everyLegal.map((raw) => ({ actor: { kind: 'system' } as Actor, raw })),
    // The legal commands of one seat sent by another (or by a seat that does not exist).
    ...legal.flatMap((commands, seat) =>
      commands.slice(0, 8).map((raw) => ({ actor: { kind: 'seat', seat: (seat + 1 + below(rng, seats.length)) % (seats.length + 1) } as Actor, raw })),
    ),
    ...Array.from({ length: 40 }, () => ({
      actor: { kind: 'seat', seat: below(rng, seats.length) } as Actor,
      raw: mutate(rng, shapes, everyLegal),
    })),
  ];
  candidates.forEach(({ actor, raw }, i) => {
    const parsed = game.commandSchema.safeParse(raw);
    // The platform refuses what does not fit the schema before decide sees it.
    if (!parsed.success) return;
    const command = parsed.data;
    const expected =
      actor.kind === 'system'
        ? command.type === 'timeout' && deadlinePassed
        : actor.kind === 'seat' && (offered[actor.seat]?.has(canonical(command)) ?? false);
    let outcome;
    try {
      outcome = game.decide(state, command, ctx(actor, i));
    } catch (error) {
      assert.fail(`decide threw on ${show(actor)} ${show(command)}: ${(error as Error).message}`);
    }
    if (expected) assert.ok(!isViolation(outcome), `${show(actor)} ${show(command)} refused: ${show(outcome)}`);
    else {
      assert.ok(isViolation(outcome), `${show(actor)} ${show(command)} was not offered but accepted: ${show(outcome)}`);
      assert.ok(outcome.code.startsWith(`${game.type}/`), `violation code ${outcome.code} is not namespaced`);
      assert.ok(game.codes.includes(outcome.code), `violation code ${outcome.code} is not in the game's codes (the API documents only those)`);
    }
  });
}

function checkConserved(game: AnyGame, spec: GameSpec, setup: Setup<unknown>, played: Played): void {
  spec.conserved(played.start as never, setup as never);
  for (const { before, event, after } of transitions(game, played)) {
    try {
      spec.conserved(after as never, setup as never);
      spec.transition?.(before as never, event as never, after as never);
    } catch (error) {
      throw new Error(`after ${show(event)}: ${(error as Error).message}`);
    }
  }
}

function checkSchemas(game: AnyGame, log: readonly GameEvent[]): void {
  for (const event of log) {
    const parsed = game.eventSchema.safeParse(event);
    assert.ok(parsed.success, `${show(event)}: ${parsed.error?.message}`);
    assert.deepStrictEqual(parsed.data, event, 'eventSchema drops or changes a field');
  }
}

/** Every viewer's view of every state fits that viewer's schema exactly: strict, so a
 * field the schema lacks fails, and unchanged by parsing. */
function checkViewSchemas(game: AnyGame, played: Played): void {
  const seats = (played.start as { seats: number }).seats;
  const states = [played.start, ...played.steps.map((s) => s.after)];
  for (const state of states) {
    for (const viewer of [...viewersOf(seats), { kind: 'all' } as Viewer]) {
      const seen = game.view(state, viewer);
      const parsed = game.viewSchemas[viewer.kind].safeParse(seen);
      assert.ok(parsed.success, `view for ${show(viewer)} does not fit its schema: ${parsed.error?.message}`);
      assert.deepStrictEqual(parsed.data, seen, `the ${viewer.kind} view schema changes a view`);
    }
  }
}

function checkSecrecy(game: AnyGame, secrecy: Secrecy, played: Played, rng: Chance, planted: { caught: number }): void {
  const seats = (played.start as { seats: number }).seats;
  const viewers = viewersOf(seats);
  const states = [played.start, ...played.steps.map((s) => s.after)];
  for (const state of states) {
    const everything = game.view(state, { kind: 'all' });
    const faceDown = secrecy.faceDown?.(state as never) ?? [];
    const everythingJson = show(everything);
    if (faceDown.some((id) => everythingJson.includes(show(id)))) planted.caught++;
    for (const viewer of viewers) {
      const seen = game.view(state, viewer);
      if (secrecy.scramble) {
        const other = deepFreeze(secrecy.scramble(state as never, viewer, rng));
        assert.deepStrictEqual(game.view(other, viewer), seen, `${show(viewer)} sees something hidden`);
        if (viewer.kind === 'spectator' && !isDeepStrictEqual(game.view(other, { kind: 'all' }), everything)) planted.caught++;
      }
      const json = show(seen);
      for (const id of faceDown) assert.ok(!json.includes(show(id)), `${show(viewer)} sees face-down ${id}`);
      if (!secrecy.scramble && !secrecy.faceDown) assert.deepStrictEqual(seen, everything, 'nothing is hidden, so nothing may be withheld');
    }
  }
  for (const { before, event, after } of transitions(game, played)) {
    const varied = secrecy.vary?.(event as never) ?? null;
    if (varied) {
      assert.notDeepStrictEqual(varied.event, event);
      planted.caught++;
    }
    // Cards face down before and after the event: no event may name them.
    const down = new Set(secrecy.faceDown?.(after as never) ?? []);
    const stillDown = (secrecy.faceDown?.(before as never) ?? []).filter((id) => down.has(id));
    for (const viewer of [...viewers, { kind: 'all' } as Viewer]) {
      const shown = game.redact(event, viewer, before);
      const parsed = game.eventSchema.safeParse(shown);
      assert.ok(parsed.success, `redacted for ${show(viewer)}, ${show(shown)} does not fit eventSchema`);
      const owner = varied === null || viewer.kind === 'all' || (viewer.kind === 'seat' && varied.owners.includes(viewer.seat));
      if (owner) assert.deepStrictEqual(shown, event, `${show(viewer)} may see all of ${show(event)}`);
      else assert.deepStrictEqual(game.redact(varied.event, viewer, before), shown, `${show(viewer)} sees the hidden part of ${show(event)}`);
      if (viewer.kind !== 'all') {
        const json = show(shown);
        for (const id of stillDown) assert.ok(!json.includes(show(id)), `${show(event)} names face-down ${id}`);
      }
    }
  }
}

/** GET /games/{id}/view?version=N serves any version to any viewer, also one between
 * two events of one command: view, pending, legal commands and result must all work
 * on every folded state. */
function checkViews(game: AnyGame, played: Played): void {
  const seats = (played.start as { seats: number }).seats;
  const states = [{ state: played.start, after: 'setup' }, ...[...transitions(game, played)].map(({ event, after }) => ({ state: after, after: show(event) }))];
  for (const { state, after } of states) {
    for (const viewer of [...viewersOf(seats), { kind: 'all' } as Viewer]) {
      try {
        show(game.view(state, viewer));
        game.pending(state);
        game.result(state);
        if (viewer.kind === 'seat') game.legalCommands(state, viewer.seat);
      } catch (error) {
        throw new Error(`after ${after}, for ${show(viewer)}: ${(error as Error).message}`);
      }
    }
  }
}

/** `FC_SEED=<seed>` replays the runs of a reported failure. */
const SEED = Number(process.env.FC_SEED ?? Math.floor(Math.random() * 2 ** 31));

export function runBattery(spec: GameSpec): void {
  const { game, runs, todo = {} } = spec;
  const cache = new Map<string, Played>();
  const played = (s: GameSetup): Played => {
    const key = show(s);
    let p = cache.get(key);
    if (!p) cache.set(key, (p = play(game, s, spec.limit)));
    return p;
  };
  const arb = setupArbitrary(game);

  const property = (group: Group, name: string, predicate: (s: GameSetup) => void, numRuns = runs) =>
    t.test(`${game.type}: ${name}`, async (t) => {
      try {
        // A failing game can be 20,000 commands long: report it as found, unshrunk.
        fc.assert(fc.property(arb, predicate), { numRuns, seed: SEED, endOnFailure: group === 'ends' });
        t.pass(`holds for ${numRuns} random games (fast-check seed ${SEED})`);
      } catch (error) {
        if (!todo[group]) throw error;
        const { message, cause } = error as Error & { cause?: Error };
        t.fail(`${message}\n${cause?.message ?? ''}`, { todo: todo[group] });
      }
    });

  property('ends', `random play ends within ${MAX_COMMANDS} commands`, (s) => {
    const whole = spec.limit === undefined ? played(s) : play(game, s);
    assert.ok(whole.ended, `no result after ${whole.steps.length} commands`);
  }, todo.ends ? 3 : runs);

  property('ends', "the result breaks each seat's score into the parts that sum to it", (s) => {
    const p = played(s);
    if (!p.ended) return;
    const result = resultSchema.parse(game.result(p.final));
    assert.equal(result.breakdown?.length, s.setup.seats, 'a breakdown for every seat');
    result.breakdown!.forEach((parts, seat) => {
      assert.equal(parts.reduce((sum, part) => sum + part.points, 0), result.scores[seat], `seat ${seat}'s parts sum to its score`);
    });
  }, todo.ends ? 3 : runs);

  property('legal', 'legal commands are accepted, every other command is refused', (s) => {
    const p = played(s);
    const rng = serverChance(`legal:${s.seed}`, 0);
    for (const step of p.steps) {
      if (below(rng, 1000) < spec.legalShare * 1000) checkLegality(game, step.before, step.clock, rng);
    }
  });

  property('fold', 'folding the log reproduces the state; decide and evolve mutate nothing', (s) => {
    const p = played(s);
    assert.deepStrictEqual(fold(game, s.setup, p.log), p.final);
    // Both sides above fold with the same evolve; the platform replays the log as stored
    // (jsonb), so it must fold to the same state after a trip through JSON.
    assert.deepStrictEqual(fold(game, s.setup, JSON.parse(show(p.log)) as GameEvent[]), p.final, 'the log as stored (JSON) folds to the state');
    // An intermediate state too: a fold that only gets the end right is still wrong.
    const i = Math.floor(p.steps.length / 2);
    const upTo = p.setupEvents.length + p.steps.slice(0, i + 1).reduce((n, step) => n + step.events.length, 0);
    if (p.steps[i]) assert.deepStrictEqual(fold(game, s.setup, p.log.slice(0, upTo)), p.steps[i].after);
  });

  property('conserved', 'components are conserved', (s) => checkConserved(game, spec, s.setup, played(s)));

  property('hidden', 'views and redacted events never show hidden information', (s) => {
    const planted = { caught: 0 };
    checkSecrecy(game, spec.secrecy, played(s), serverChance(`hide:${s.seed}`, 0), planted);
    // The checks must be able to fail: the full view or an unredacted event would.
    if (spec.secrecy.scramble || spec.secrecy.vary || spec.secrecy.faceDown) {
      assert.ok(planted.caught > 0, 'nothing hidden was ever found to check against');
    }
  });

  // The checks must be able to fail: planted on a module that shows everything, accepts
  // anything, miscounts or emits events its schema does not describe, they do.
  t.test(`${game.type}: the checks catch planted faults`, async (t) => {
    const [setup] = fc.sample(arb, { numRuns: 1, seed: SEED });
    const p = played(setup!);
    const leaky: AnyGame = { ...game, view: (state) => game.view(state, { kind: 'all' }), redact: (event) => event };
    if (spec.secrecy.scramble || spec.secrecy.vary || spec.secrecy.faceDown) {
      t.throws(() => checkSecrecy(leaky, spec.secrecy, p, serverChance('plant', 0), { caught: 0 }), 'leaks are found');
    }
    const lax: AnyGame = { ...game, decide: (state, command, ctx) => { const events = game.decide(state, command, ctx); return isViolation(events) ? [] : events; } };
    const step = p.steps[0]!;
    t.throws(() => checkLegality(lax, step.before, step.clock, serverChance('plant', 0)), { message: /was not offered but accepted/ }, 'accepting an unoffered command is found');
    // The lax module is caught by the system's early timeout alone; these need the
    // seats' candidates: unoffered commands from seats, and offered ones refused.
    const seatStep = p.steps.find((s) => s.actor.kind === 'seat');
    // Not skipped quietly: without a seat's command these two plants would test nothing.
    assert.ok(seatStep, 'the sampled game has a seat command');
    const laxSeats: AnyGame = {
      ...game,
      decide: (state, command, ctx) => {
        const events = game.decide(state, command, ctx);
        return isViolation(events) && ctx.actor.kind === 'seat' ? [] : events;
      },
    };
    t.throws(() => checkLegality(laxSeats, seatStep.before, seatStep.clock, serverChance('plant', 0)), { message: /^\{"kind":"seat".* was not offered but accepted/ }, 'a seat sending an unoffered command that is accepted is found');
    const strict: AnyGame = {
      ...game,
      decide: (state, command, ctx) => (ctx.actor.kind === 'seat' ? violation(`${game.type}/planted`, 'refuses seats') : game.decide(state, command, ctx)),
    };
    t.throws(() => checkLegality(strict, seatStep.before, seatStep.clock, serverChance('plant', 0)), { message: /^seat \d+: legal .* refused: / }, 'refusing an offered command is found');
    // A move made twice takes or gives its cards, chips or dice twice. Caught after an
    // event, not by an evolve that throws on the doubled move.
    const twice: AnyGame = { ...game, evolve: (state, event) => game.evolve(game.evolve(state, event), event) };
    t.throws(() => checkConserved(twice, spec, setup!.setup, p), { message: /^after / }, 'an evolve that makes each move twice is found');
    // Events eventSchema does not describe, as a half-done change leaves them: decide
    // and evolve know them, the schema does not.
    const emitting = (answer: (event: GameEvent) => GameEvent[]): AnyGame => ({
      ...game,
      decide: (state, command, ctx) => {
        const events = game.decide(state, command, ctx);
        return isViolation(events) ? events : events.flatMap(answer);
      },
      evolve: (state, event) => (event.type === 'Planted' ? state : game.evolve(state, event)),
    });
    // zod drops the field, so the event does not parse to itself.
    const extraField = emitting((event) => [{ ...event, planted: true }]);
    const extraFieldLog = play(extraField, setup!, 3).log;
    t.throws(() => checkSchemas(extraField, extraFieldLog), { message: /^eventSchema drops or changes a field/ }, 'an event field eventSchema lacks is found');
    // A legalCommands that only works on the states whole commands leave.
    const wholeCommands = new Set([p.start, ...p.steps.map((step) => step.after)].map(show));
    const fragile: AnyGame = {
      ...game,
      legalCommands: (state, seat) => {
        if (!wholeCommands.has(show(state))) throw new Error('planted: a state between two events');
        return game.legalCommands(state, seat);
      },
    };
    const multiEvent = p.steps.some((step) => step.events.length > 1);
    assert.ok(multiEvent, 'the sampled game has a command with several events');
    t.throws(() => checkViews(fragile, p), { message: /^after .*planted: a state between two events/ }, 'a view that fails between two events of a command is found');
    const unlisted = emitting((event) => [event, { type: 'Planted' }]);
    const unlistedLog = play(unlisted, setup!, 3).log;
    t.throws(() => checkSchemas(unlisted, unlistedLog), { message: /^\{"type":"Planted"\}: / }, 'an event type eventSchema does not list is found');
    // A view field the schemas lack, and a spectator shown the `all` view.
    const extraView: AnyGame = { ...game, view: (state, viewer) => ({ ...(game.view(state, viewer) as object), planted: true }) };
    t.throws(() => checkViewSchemas(extraView, p), { message: /does not fit its schema/ }, 'a view field the view schema lacks is found');
    if (game.viewSchemas.spectator !== game.viewSchemas.all) {
      const tooMuch: AnyGame = { ...game, view: (state) => game.view(state, { kind: 'all' }) };
      t.throws(() => checkViewSchemas(tooMuch, p), { message: /does not fit its schema/ }, "a seat or spectator given the `all` view is found by the schemas");
    }
  });

  property('schemas', 'events fit eventSchema exactly', (s) => checkSchemas(game, played(s).log));

  property('views', 'every viewer can look at every version, between the events of one command too', (s) => checkViews(game, played(s)));
  property('schemas', "every viewer's views fit the game's view schema for that viewer exactly", (s) => checkViewSchemas(game, played(s)));
}
