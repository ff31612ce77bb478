// src/commands/ is the command path: creating and joining games, and deciding and
// appending every command a seat, the referee, a bot or a deadline sends. It may
// import src/domain, src/bots (which bots exist), src/events, src/state, src/access,
// src/errors.ts and src/lib; it tells the rest of the service about commits through
// CommandHooks instead of importing it.
//
// Handling one command, as a recipe: (1) answer a retried idempotent command from its
// record, (2) take the game's latest state, (3) check who acts and what they sent,
// (4) decide with the game's rules, (5) append at the version read — in one
// statement that also records the answer, (6) once committed, remember the new state
// and answer. Within this instance a game's commands are decided one after another,
// each on the state the previous one leaves, without waiting for its commit: in a race
// the next grab is decided at once and travels in the same write (see Pipeline).
// Across instances the append's version check and the (game, seq) key let exactly one
// writer win.
import type { z } from 'zod';
import type { Actor, Command, GameEvent, RuleViolation, Viewer } from '../domain/contract.ts';
import { isOver, isViolation } from '../domain/contract.ts';
import { lifecycleCodes, type LifecycleCommand } from '../domain/lifecycle.ts';
import { serverChance, suppliedChance, SuppliedChanceError, type Chance } from '../domain/chance.ts';
import { ServiceError, serviceCodes } from '../errors.ts';
import type { LatestStates, LoadedGame } from '../state/latest-states.ts';
import { actorLabel, ownViewer, resolvePrincipal, type Principal } from '../access/principal.ts';
import { hashToken, sha256 } from '../access/tokens.ts';
import { type EventStore } from '../events/store.ts';
import { AppendChain, waitingFor, type AppendOutcome, type GameRecord, type GameStatus } from '../events/records.ts';
import { KeyedQueue } from '../lib/keyed-queue.ts';
import { describeVersion, redactAll, type GameSnapshot, type VersionedEvent } from '../state/snapshot.ts';
import type { RaceRefusal } from '../events/race-refusals.ts';
import type { Reservation } from '../events/group-commit.ts';
import { raceCommandOf } from './race-command.ts';

export type CommandPrincipal = Principal | { readonly kind: 'system' };

/** Whoever holds the bearer token (none: anonymous). */
type TokenCaller = { readonly kind: 'token'; readonly token: string | undefined };

export interface CommandInput {
  readonly gameId: string;
  /** The system (deadlines), a server-side bot playing its seat, or a client. Only a
   * client reads the answer: for the server's own commands none is built. */
  readonly caller: { readonly kind: 'system' } | { readonly kind: 'bot'; readonly seat: number } | TokenCaller;
  readonly command: unknown;
  /** The game type the caller meant the command for (a route of one game's commands). */
  readonly gameType?: string;
  /** The seat a referee acts for. */
  readonly seat?: number;
  readonly expectedVersion?: number;
  readonly outcomes?: readonly unknown[];
  readonly idempotencyKey?: string;
  /** The referee supplies what the game waits for from chance: `outcomes` are
   * chance's move (see src/domain/chance-party.ts), `command` is not read. */
  readonly asChance?: boolean;
  /** The creator aborts the game (src/domain/lifecycle.ts): the referee's token, or
   * the organizer key (`organizerId`) that owns the game; `command` is not read. */
  readonly abort?: { readonly organizerId: string | null };
  /** The organizer owning the game sets its result (src/domain/lifecycle.ts): `end`s
   * it running, or `correct`s it once over; `command` is not read. */
  readonly adjudicate?: { readonly organizerId: string; readonly mode: 'end' | 'correct'; readonly ranks: readonly number[]; readonly scores: readonly number[]; readonly reason: string };
}

export interface CommandAnswer extends GameSnapshot {
  /** The new events, as the caller may see them. */
  readonly events: readonly VersionedEvent[];
}

export interface CommandHooks {
  /** Called after every commit, e.g. to arm a deadline timer or feed local watchers. */
  readonly committed?: (before: LoadedGame, events: readonly GameEvent[], after: LoadedGame) => void;
}

const MAX_ATTEMPTS = 5;

/** A command's Idempotency-Key and the hash of what it asked: a retry asks the same. */
type Idempotency = { readonly key: string; readonly requestHash: string } | null;

/** A game's commands decided but not all committed yet: the state the last one leaves,
 * and the chain their appends share (one failed append refuses the rest unwritten). */
interface Pipeline {
  tip: LoadedGame;
  readonly chain: AppendChain;
  /** Appends sent and not yet settled. */
  pending: number;
  /** Settles with the last append sent. */
  settled: Promise<unknown>;
  /** The tip is known to be the game's latest committed state, or one decided on it:
   * it was read from the database, or one of its appends has committed. */
  confirmed: boolean;
}

/** What deciding a command came to: an append on its way, or a refusal that must wait
 * until the commands decided before it have committed. */
type Step =
  | { readonly kind: 'append'; readonly committed: Promise<AppendOutcome>; readonly answer: CommandAnswer | null }
  | {
      readonly kind: 'refusal';
      readonly error: ServiceError;
      readonly pipeline: Pipeline;
      readonly before: LoadedGame;
      readonly settled: Promise<unknown>;
      /** A race command's record for the race log, carried by its game's appends from its decision on. */
      readonly race: Reservation | null;
    };


export class CommandHandler {
  private readonly queue = new KeyedQueue();
  private readonly pipelines = new Map<string, Pipeline>();
  private readonly handling = new Set<Promise<unknown>>();
  /** Race commands' refusals that stand, for the race log. */
  private readonly refused = new WeakMap<ServiceError, Reservation>();
  private refusalOrd = 0;

  constructor(
    private readonly store: EventStore,
    private readonly latest: LatestStates,
    private readonly clock: () => number,
    private readonly hooks: CommandHooks = {},
  ) {}

  handle(input: CommandInput & { readonly caller: TokenCaller }): Promise<CommandAnswer>;
  handle(input: CommandInput): Promise<CommandAnswer | null>;
  handle(input: CommandInput): Promise<CommandAnswer | null> {
    const handled = this.handleInOrder(input);
    const tracked = handled.catch(() => undefined);
    this.handling.add(tracked);
    void tracked.then(() => this.handling.delete(tracked));
    return handled;
  }

  /** Settles once every command accepted so far has finished (graceful shutdown). */
  async drain(): Promise<void> {
    while (this.handling.size > 0) await Promise.all(this.handling);
  }

  private async handleInOrder(input: CommandInput): Promise<CommandAnswer | null> {
    // Only a command with a key is ever compared with an earlier one.
    const idempotency: Idempotency = input.idempotencyKey === undefined ? null : { key: input.idempotencyKey, requestHash: hashRequest(input) };
    try {
      return await this.attempt(input, idempotency);
    } catch (error) {
      const race = error instanceof ServiceError ? this.refused.get(error) : undefined;
      try {
        // A retried command meets a state it was already applied to, or its key in the
        // append: only then is the idempotency record worth a read. A conflict has had it
        // read already, in `attempt`.
        if (idempotency !== null && error instanceof ServiceError && error.code !== serviceCodes.conflict) {
          const earlier = await this.replayed(input.gameId, idempotency);
          if (earlier !== null) {
            race?.cancel();
            return earlier;
          }
        }
      } catch (failure) {
        race?.cancel();
        throw failure;
      }
      if (race !== undefined) this.confirmRace(race);
      throw error;
    }
  }

  /** A refused race command is answered at once; its record rides with its game's next
   * append, or goes within 10 ms, before or together with every append of its game
   * decided after it (docs/realtime.md, "Disputes"). Shutting down waits for it (drain). */
  private confirmRace(reservation: Reservation): void {
    const written = reservation.confirm();
    this.handling.add(written);
    void written.then(() => this.handling.delete(written));
  }

  private async attempt(input: CommandInput, idempotency: Idempotency): Promise<CommandAnswer | null> {
    for (let attempt = 1; ; attempt++) {
      const step = await this.queue.run(input.gameId, () => this.step(input, idempotency, attempt > 1));
      if (step.kind === 'refusal') {
        let stands: boolean;
        try {
          stands = attempt >= MAX_ATTEMPTS || (await this.refusalStands(step));
        } catch (error) {
          step.race?.cancel();
          throw error;
        }
        if (stands) {
          if (step.race !== null) this.refused.set(step.error, step.race);
          throw step.error;
        }
        step.race?.cancel();
        continue;
      }
      if ((await step.committed) === 'appended') return step.answer;
      // The conflict may be this very command, retried while its first try committed.
      if (idempotency !== null) {
        const earlier = await this.replayed(input.gameId, idempotency);
        if (earlier !== null) return earlier;
      }
      if (input.expectedVersion !== undefined || attempt >= MAX_ATTEMPTS) {
        const current = (await this.latest.load(input.gameId)).version;
        throw new ServiceError(serviceCodes.conflict, `another command was appended first; the game is at version ${current}`, { currentVersion: current });
      }
    }
  }

  /** Decides one command on the game's tip and sends its append on the way; runs in the
   * game's queue, and does not wait for the commit. */
  private async step(input: CommandInput, idempotency: Idempotency, reload: boolean): Promise<Step> {
    const pipeline = await this.pipelineOf(input.gameId, reload);
    const before = pipeline.tip;
    const now = this.clock();
    let decided: ReturnType<CommandHandler['decide']>;
    try {
      decided = this.decide(before, input, now);
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      return { kind: 'refusal', error, pipeline, before, settled: pipeline.settled, race: this.raceRecord(before, input, error, now) };
    }
    const { events, actor, viewer } = decided;
    // Only a client reads the answer, now or by its Idempotency-Key later.
    const answered = input.caller.kind === 'token' || idempotency !== null;
    const { next, answer } = answered ? respond(before, events, viewer) : { next: advance(before, events), answer: null };
    const committed = this.store
      .append({
        gameId: input.gameId,
        expectedVersion: before.version,
        events,
        actor,
        at: new Date(now),
        commandId: input.idempotencyKey ?? null,
        status: next.record.status,
        deadline: next.record.deadline,
        idempotency: idempotency === null || answer === null ? null : { ...idempotency, response: answer },
        chain: pipeline.chain,
      })
      .then(
        (outcome) => {
          this.settle(pipeline, outcome === 'appended' ? { before, events, next } : null);
          return outcome;
        },
        (error: unknown) => {
          this.settle(pipeline, null);
          throw error;
        },
      );
    this.pipelines.set(input.gameId, pipeline);
    pipeline.tip = next;
    pipeline.pending++;
    pipeline.settled = committed.catch(() => undefined);
    return { kind: 'append', committed, answer };
  }

  /** The race log's record of a refused race command, taken now, in decision order. */
  private raceRecord(before: LoadedGame, input: CommandInput, error: ServiceError, receivedAt: number): Reservation | null {
    const race = raceCommandOf(before, input);
    if (race === null) return null;
    const refusal: RaceRefusal = { gameId: before.record.id, version: before.version, ...race, code: error.code, receivedAt, ord: this.refusalOrd++ % 2 ** 31 };
    return this.store.raceRefusals.reserve(refusal);
  }

  /** A refusal stands only if the state it was decided on was the game's latest: the
   * commands decided before it must commit, and a cached state that none of them has
   * confirmed is checked against the database, since another instance may have moved
   * the game on. Otherwise the command is decided again. A race command's record that
   * has committed with an append of its game proves that state, whatever came after. */
  private async refusalStands({ pipeline, before, settled, race }: Extract<Step, { kind: 'refusal' }>): Promise<boolean> {
    await settled;
    if (race?.recorded() === true) return true;
    if (pipeline.chain.broken) return false;
    if (pipeline.confirmed) return true;
    const stored = await this.store.version(before.record.id);
    // It may have committed while the version was read.
    if (stored === null || stored === before.version || race?.recorded() === true) return true;
    this.latest.forget(before.record.id);
    return false;
  }

  /** The game's pipeline; a new one starts from the committed state. A cached state is
   * trusted unless `reload`: a stale cache shows up as a conflict at append time, or in
   * the check before a refusal. */
  private async pipelineOf(gameId: string, reload: boolean): Promise<Pipeline> {
    const current = this.pipelines.get(gameId);
    if (current !== undefined && !current.chain.broken) return current;
    const cached = reload ? undefined : this.latest.peek(gameId);
    const tip = cached ?? (await this.latest.load(gameId));
    // Registered by its first append: a refused command leaves nothing behind.
    return { tip, chain: new AppendChain(), pending: 0, settled: Promise.resolve(), confirmed: cached === undefined };
  }

  /** One append of the pipeline has its outcome; appends of one game settle in order.
   * Runs before anyone awaiting the append resumes, so the committed state is known first. */
  private settle(pipeline: Pipeline, appended: { before: LoadedGame; events: readonly GameEvent[]; next: LoadedGame } | null): void {
    pipeline.pending--;
    const gameId = pipeline.tip.record.id;
    const ours = this.pipelines.get(gameId) === pipeline;
    if (appended === null) {
      if (ours) this.pipelines.delete(gameId);
      this.latest.forget(gameId);
      return;
    }
    this.latest.remember(appended.next);
    pipeline.confirmed = true;
    if (ours && pipeline.pending === 0) this.pipelines.delete(gameId);
    this.hooks.committed?.(appended.before, appended.events, appended.next);
  }

  private async replayed(gameId: string, { key, requestHash }: NonNullable<Idempotency>): Promise<CommandAnswer | null> {
    const record = await this.store.findCommandRecord(gameId, key);
    if (record === null) return null;
    if (record.requestHash !== requestHash) {
      throw new ServiceError(serviceCodes.idempotencyKeyReused, 'this Idempotency-Key was already used for a different command');
    }
    return record.response as CommandAnswer;
  }

  private decide(loaded: LoadedGame, input: CommandInput, now: number): { events: GameEvent[]; actor: string; viewer: Viewer } {
    const { record, game } = loaded;
    if (input.gameType !== undefined && input.gameType !== game.type) {
      throw new ServiceError(serviceCodes.invalidCommand, `this game is a ${game.type} game, not ${input.gameType}: send its commands to /games/{id}/commands/${game.type}`);
    }
    if (input.abort !== undefined || input.adjudicate !== undefined || (record.status === 'open' && input.caller.kind === 'system')) return this.decideLifecycle(loaded, input);
    if (record.status !== 'running') {
      const waiting = waitingFor(record);
      if (waiting.length > 0) throw new ServiceError(serviceCodes.notRunning, `the game is open: it waits for the people of seats ${waiting.join(', ')} to arrive (or its creator to start it)`);
      throw new ServiceError(serviceCodes.notRunning, `the game is ${record.status}`);
    }
    if (input.expectedVersion !== undefined && input.expectedVersion !== loaded.version) {
      throw new ServiceError(serviceCodes.staleVersion, `expected version ${input.expectedVersion}, but the game is at version ${loaded.version}`, { currentVersion: loaded.version });
    }
    const { caller } = input;
    const principal: CommandPrincipal = caller.kind === 'system' ? caller : caller.kind === 'bot' ? botSeat(record, caller.seat) : resolvePrincipal(record, caller.token);
    if (input.asChance === true) return this.decideChance(loaded, principal, input.outcomes ?? [], now);
    const acting = actingAs(principal, input, record.seatCount, record.chanceMode);
    const { actor } = acting;
    // The log tells a bot's moves from a person's at the same seat.
    const label = caller.kind === 'bot' ? `bot:${acting.label}` : acting.label;
    const parsed = game.commandSchema.safeParse(input.command);
    if (!parsed.success) throw invalidCommand(game.type, parsed.error.issues);
    const { chance, supplied } = chanceFor(loaded, input);
    let result: GameEvent[] | RuleViolation;
    try {
      result = game.decide(loaded.state, parsed.data as Command, { actor, now, chance });
      // The rules' verdict comes first: outcomes sent with a command the rules refuse
      // are not the reason it fails.
      if (!isViolation(result)) supplied?.assertAllUsed();
    } catch (error) {
      throw chanceProblem(error);
    }
    if (isViolation(result)) throw new ServiceError(result.code, result.message, {}, 'rule');
    const viewer: Viewer = principal.kind === 'system' ? { kind: 'all' } : ownViewer(record, principal);
    return { events: result, actor: label, viewer };
  }

  /** The creator's abort (of an open or a running game), the expiry of an open game
   * (the system's timeout at an open game's deadline), the organizer's adjudication
   * (of a running or a finished game): src/domain/lifecycle.ts. */
  private decideLifecycle(loaded: LoadedGame, input: CommandInput): { events: GameEvent[]; actor: string; viewer: Viewer } {
    const { record, game, version } = loaded;
    if (record.status === 'finished' && input.adjudicate === undefined) throw new ServiceError(serviceCodes.notRunning, 'the game is finished');
    let command: LifecycleCommand;
    let actor: string;
    if (input.adjudicate !== undefined) {
      const { organizerId, mode, ranks, scores, reason } = input.adjudicate;
      if (record.organizerId !== organizerId) throw new ServiceError(serviceCodes.forbidden, 'only the organizer owning the game sets its result');
      if (record.status !== (mode === 'end' ? 'running' : 'finished')) throw new ServiceError(mode === 'end' ? serviceCodes.notRunning : serviceCodes.notFinished, `the game is ${record.status}`);
      command = { type: 'adjudicate', ranks, scores, reason };
      actor = `organizer:${organizerId}`;
    } else if (input.abort !== undefined) {
      const organizer = input.abort.organizerId !== null && input.abort.organizerId === record.organizerId;
      const principal: CommandPrincipal = input.caller.kind === 'token' ? resolvePrincipal(record, input.caller.token) : { kind: 'anonymous' };
      if (!organizer && principal.kind !== 'referee') throw new ServiceError(serviceCodes.forbidden, "only the game's creator aborts it: its referee token, or the organizer key that created it");
      // A table without a result would hold its tournament's round forever: players
      // there resign, and the organizer withdraws them.
      if (record.tournament !== null) throw new ServiceError(serviceCodes.forbidden, "a tournament's table is not aborted: its players resign, or the organizer withdraws them");
      command = { type: 'abort', by: organizer ? 'organizer' : 'referee' };
      actor = organizer ? `organizer:${record.organizerId}` : 'referee';
    } else {
      if (record.deadline === null || this.clock() < record.deadline.getTime()) {
        throw new ServiceError(lifecycleCodes.tooEarly, `the open game expires at ${record.deadline?.toISOString() ?? 'no time'}`, {}, 'rule');
      }
      command = { type: 'expire' };
      actor = 'system';
    }
    const result = game.decide(loaded.state, command, { actor: { kind: 'system' }, now: this.clock(), chance: serverChance(record.seed, version) });
    if (isViolation(result)) throw new ServiceError(result.code, result.message, {}, 'rule');
    return { events: result, actor, viewer: { kind: 'all' } };
  }

  /** The referee, as chance, supplies outcomes the game waits for. */
  private decideChance(loaded: LoadedGame, principal: CommandPrincipal, outcomes: readonly unknown[], now: number): { events: GameEvent[]; actor: string; viewer: Viewer } {
    const { record, game, version } = loaded;
    if (principal.kind !== 'referee') throw new ServiceError(serviceCodes.forbidden, 'only the referee supplies chance');
    if (record.chanceMode !== 'supplied') throw new ServiceError(serviceCodes.outcomesNotAllowed, 'this game draws its own chance (chance mode "server")');
    const command = { type: 'chance', outcomes };
    let result: GameEvent[] | RuleViolation;
    try {
      // Only the awaited command's secrets (salts) come from this source.
      result = game.decide(loaded.state, command, { actor: { kind: 'chance' }, now, chance: suppliedChance([], `${record.seed}:${version}`) });
    } catch (error) {
      throw chanceProblem(error);
    }
    if (isViolation(result)) throw new ServiceError(result.code, result.message, {}, 'rule');
    return { events: result, actor: 'referee:chance', viewer: { kind: 'all' } };
  }
}

/** A command the game's schema refuses; fields the command does not have are named
 * in `unknownFields`, so a misspelt field is never silently dropped. */
function invalidCommand(type: string, issues: readonly z.core.$ZodIssue[]): ServiceError {
  const unknownFields = issues.flatMap((i) => (i.code === 'unrecognized_keys' ? i.keys.map((key) => [...i.path, key].join('.')) : []));
  const message = `not a ${type} command: ${issues.map((i) => `${i.path.join('.') || 'command'}: ${i.message}`).join('; ')}`;
  return new ServiceError(serviceCodes.invalidCommand, message, unknownFields.length === 0 ? {} : { unknownFields });
}

/** Outcomes that do not fit, as a problem saying what the draw needs (`need`: kind,
 * count, the values still possible). */
export function chanceProblem(error: unknown): unknown {
  if (!(error instanceof SuppliedChanceError)) return error;
  return new ServiceError(error.code, error.message, error.need === null ? {} : { need: error.need }, 'chance');
}

/** A bot acts as its seat, through the seat's own checks; only a bot seat has one. */
function botSeat(record: GameRecord, seat: number): Principal {
  if (record.seats[seat]?.bot == null) throw new ServiceError(serviceCodes.forbidden, `seat ${seat} is not played by a bot`);
  return { kind: 'seat', seat };
}

function actingAs(principal: CommandPrincipal, input: CommandInput, seatCount: number, chanceMode: string): { actor: Actor; label: string } {
  const { seat } = input;
  switch (principal.kind) {
    case 'system':
      return { actor: { kind: 'system' }, label: 'system' };
    case 'anonymous':
      throw new ServiceError(serviceCodes.tokenRequired, 'send the seat token as a Bearer token to act');
    case 'seat':
      if (seat !== undefined && seat !== principal.seat) {
        throw new ServiceError(serviceCodes.forbidden, `seat ${principal.seat} may act only as itself`);
      }
      if (input.outcomes !== undefined) {
        throw new ServiceError(serviceCodes.outcomesNotAllowed, 'only the referee may supply chance outcomes');
      }
      return { actor: { kind: 'seat', seat: principal.seat }, label: actorLabel(principal, null) };
    case 'referee':
      if (chanceMode !== 'supplied') {
        throw new ServiceError(serviceCodes.forbidden, 'the referee acts for seats only in supplied-chance games');
      }
      if (seat === undefined || seat < 0 || seat >= seatCount) {
        throw new ServiceError(serviceCodes.validation, `the referee must name the seat it acts for (0..${seatCount - 1})`);
      }
      return { actor: { kind: 'seat', seat }, label: actorLabel(principal, seat) };
  }
}

function chanceFor(loaded: LoadedGame, input: CommandInput): { chance: Chance; supplied: ReturnType<typeof suppliedChance> | null } {
  const { record, version } = loaded;
  if (record.chanceMode === 'server') {
    if (input.outcomes !== undefined) {
      throw new ServiceError(serviceCodes.outcomesNotAllowed, 'this game draws its own chance (chance mode "server")');
    }
    return { chance: serverChance(record.seed, version), supplied: null };
  }
  const supplied = suppliedChance(input.outcomes ?? [], `${record.seed}:${version}`);
  return { chance: supplied, supplied };
}

/** The game after `events`, its status and deadline following the rules. */
export function advance(loaded: LoadedGame, events: readonly GameEvent[]): LoadedGame {
  return reached(loaded, events.reduce((s, e) => loaded.game.evolve(s, e), loaded.state), events.length);
}

/** The game at `state`, `count` events after `loaded`, its status and deadline
 * following the rules, as the append stores them. */
function reached(loaded: LoadedGame, state: unknown, count: number): LoadedGame {
  const { game } = loaded;
  const status: GameStatus = isOver(game, state) ? 'finished' : loaded.record.status;
  const version = loaded.version + count;
  const pendingDeadline = status === 'running' ? game.pending(state).deadline : undefined;
  const deadline = pendingDeadline === undefined ? null : new Date(pendingDeadline);
  return { ...loaded, state, version, record: { ...loaded.record, status, version, deadline } };
}

/** The game after `events` and the caller's answer; redacting needs the state before
 * each event, so one fold serves both. */
function respond(before: LoadedGame, events: readonly GameEvent[], viewer: Viewer): { next: LoadedGame; answer: CommandAnswer } {
  const numbered = events.map((event, i) => ({ seq: before.version + i + 1, event }));
  const { shown, state } = redactAll(before, before.state, numbered, viewer);
  const next = reached(before, state, events.length);
  return { next, answer: { ...describeVersion(next, viewer), events: shown } };
}

function hashRequest(input: CommandInput): string {
  const who = input.caller.kind === 'token' ? hashToken(input.caller.token ?? '') : input.caller.kind === 'bot' ? `bot:${input.caller.seat}` : 'system';
  const asked = input.adjudicate ?? (input.abort === undefined ? input.command : 'abort');
  return sha256(JSON.stringify([who, input.seat ?? null, asked, input.expectedVersion ?? null, input.outcomes ?? null]));
}
