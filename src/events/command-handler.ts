// Handling one command, as a recipe: (1) answer a retried idempotent command from its
// record, (2) take the game's latest state, (3) check who acts and what they sent,
// (4) decide with the game's rules, (5) append at the version read — in one
// statement that also records the answer and notifies listeners, (6) remember the new
// state. Commands on one game are serialized within this instance; across instances
// the append's version check and the (game, seq) key let exactly one win.
import { createHash } from 'node:crypto';
import type { Actor, Command, GameEvent, RuleViolation, Viewer } from '../domain/contract.ts';
import { isViolation } from '../domain/contract.ts';
import { serverChance, suppliedChance, SuppliedChanceError, type Chance } from '../domain/chance.ts';
import { ServiceError, serviceCodes } from './errors.ts';
import type { LiveStates, LoadedGame } from './live-state.ts';
import { actorLabel, ownViewer, resolvePrincipal, type Principal } from './principal.ts';
import { hashToken } from './tokens.ts';
import type { EventStore, GameRecord, GameStatus } from './store.ts';
import { KeyedQueue } from './keyed-queue.ts';
import { describeVersion, redactAll, type GameSnapshot, type VersionedEvent } from './snapshot.ts';

export type CommandPrincipal = Principal | { readonly kind: 'system' };

export interface CommandInput {
  readonly gameId: string;
  /** The system (deadlines), a server-side bot playing its seat, or whoever holds the
   * bearer token (none: anonymous). */
  readonly caller:
    | { readonly kind: 'system' }
    | { readonly kind: 'bot'; readonly seat: number }
    | { readonly kind: 'token'; readonly token: string | undefined };
  readonly command: unknown;
  /** The seat a referee acts for. */
  readonly seat?: number;
  readonly expectedVersion?: number;
  readonly outcomes?: readonly unknown[];
  readonly idempotencyKey?: string;
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

export class CommandHandler {
  private readonly queue = new KeyedQueue();

  constructor(
    private readonly store: EventStore,
    private readonly live: LiveStates,
    private readonly clock: () => number,
    private readonly hooks: CommandHooks = {},
  ) {}

  handle(input: CommandInput): Promise<CommandAnswer> {
    return this.queue.run(input.gameId, () => this.handleInOrder(input));
  }

  /** Settles once every command accepted so far has finished (graceful shutdown). */
  drain(): Promise<void> {
    return this.queue.drain();
  }

  private async handleInOrder(input: CommandInput): Promise<CommandAnswer> {
    const requestHash = hashRequest(input);
    try {
      return await this.attempt(input, requestHash);
    } catch (error) {
      // A retried command meets a state it was already applied to, or its key in the
      // append: only then is the idempotency record worth a read.
      if (input.idempotencyKey !== undefined && error instanceof ServiceError) {
        const earlier = await this.replayed(input.gameId, input.idempotencyKey, requestHash);
        if (earlier !== null) return earlier;
      }
      throw error;
    }
  }

  private async attempt(input: CommandInput, requestHash: string): Promise<CommandAnswer> {
    for (let attempt = 1; ; attempt++) {
      const loaded = await this.current(input.gameId, attempt > 1);
      const { events, actor, viewer } = this.decide(loaded, input);
      const { next, answer } = respond(loaded, events, viewer);
      const outcome = await this.store.append({
        gameId: input.gameId,
        expectedVersion: loaded.version,
        events,
        actor,
        at: new Date(this.clock()),
        commandId: input.idempotencyKey ?? null,
        status: next.record.status,
        deadline: deadlineOf(next),
        idempotency: input.idempotencyKey === undefined ? null : { key: input.idempotencyKey, requestHash, response: answer },
      });
      if (outcome === 'appended') {
        this.live.remember(next);
        this.hooks.committed?.(loaded, events, next);
        return answer;
      }
      this.live.forget(input.gameId);
      // The conflict may be this very command, retried while its first try committed.
      if (input.idempotencyKey !== undefined) {
        const earlier = await this.replayed(input.gameId, input.idempotencyKey, requestHash);
        if (earlier !== null) return earlier;
      }
      if (input.expectedVersion !== undefined || attempt >= MAX_ATTEMPTS) {
        const current = (await this.current(input.gameId, true)).version;
        throw new ServiceError(serviceCodes.conflict, `another command was appended first; the game is at version ${current}`, { currentVersion: current });
      }
    }
  }

  private async replayed(gameId: string, key: string, requestHash: string): Promise<CommandAnswer | null> {
    const record = await this.store.findCommandRecord(gameId, key);
    if (record === null) return null;
    if (record.requestHash !== requestHash) {
      throw new ServiceError(serviceCodes.idempotencyKeyReused, 'this Idempotency-Key was already used for a different command');
    }
    return record.response as CommandAnswer;
  }

  /** The cached state is trusted on the first attempt: a stale cache shows up as a
   * conflict at append time, and the next attempt reloads. */
  private async current(gameId: string, reload: boolean): Promise<LoadedGame> {
    const cached = reload ? undefined : this.live.peek(gameId);
    return cached ?? this.live.load(gameId);
  }

  private decide(loaded: LoadedGame, input: CommandInput): { events: GameEvent[]; actor: string; viewer: Viewer } {
    const { record, game } = loaded;
    if (record.status !== 'running') {
      throw new ServiceError(serviceCodes.notRunning, `the game is ${record.status}`);
    }
    if (input.expectedVersion !== undefined && input.expectedVersion !== loaded.version) {
      throw new ServiceError(serviceCodes.staleVersion, `expected version ${input.expectedVersion}, but the game is at version ${loaded.version}`, { currentVersion: loaded.version });
    }
    const { caller } = input;
    const principal: CommandPrincipal = caller.kind === 'system' ? caller : caller.kind === 'bot' ? botSeat(record, caller.seat) : resolvePrincipal(record, caller.token);
    const acting = actingAs(principal, input, record.seatCount, record.chanceMode);
    const { actor } = acting;
    // The log tells a bot's moves from a person's at the same seat.
    const label = caller.kind === 'bot' ? `bot:${acting.label}` : acting.label;
    const parsed = game.commandSchema.safeParse(input.command);
    if (!parsed.success) {
      throw new ServiceError(serviceCodes.invalidCommand, `not a ${game.type} command: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'command'}: ${i.message}`).join('; ')}`);
    }
    const { chance, supplied } = chanceFor(loaded, input);
    let result: GameEvent[] | RuleViolation;
    try {
      result = game.decide(loaded.state, parsed.data as Command, { actor, now: this.clock(), chance });
      supplied?.assertAllUsed();
    } catch (error) {
      if (error instanceof SuppliedChanceError) throw new ServiceError(error.code, error.message, {}, 'chance');
      throw error;
    }
    if (isViolation(result)) throw new ServiceError(result.code, result.message, {}, 'rule');
    const viewer: Viewer = principal.kind === 'system' ? { kind: 'all' } : ownViewer(record, principal);
    return { events: result, actor: label, viewer };
  }
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

/** The game after `events`, with its status following the rules' result. */
export function advance(loaded: LoadedGame, events: readonly GameEvent[]): LoadedGame {
  return settle(loaded, events.reduce((s, e) => loaded.game.evolve(s, e), loaded.state), events.length);
}

/** The game at `state`, `count` events after `loaded`, its status following the rules' result. */
function settle(loaded: LoadedGame, state: unknown, count: number): LoadedGame {
  const status: GameStatus = loaded.game.result(state) === null ? loaded.record.status : 'finished';
  const version = loaded.version + count;
  return { ...loaded, state, version, record: { ...loaded.record, status, version } };
}

export const deadlineOf = (loaded: LoadedGame): Date | null => {
  if (loaded.record.status !== 'running') return null;
  const deadline = loaded.game.pending(loaded.state).deadline;
  return deadline === undefined ? null : new Date(deadline);
};

/** The game after `events` and the caller's answer; redacting needs the state before
 * each event, so one fold serves both. */
function respond(before: LoadedGame, events: readonly GameEvent[], viewer: Viewer): { next: LoadedGame; answer: CommandAnswer } {
  const numbered = events.map((event, i) => ({ seq: before.version + i + 1, event }));
  const { shown, state } = redactAll(before, before.state, numbered, viewer);
  const next = settle(before, state, events.length);
  return { next, answer: { ...describeVersion(next, viewer), events: shown } };
}

function hashRequest(input: CommandInput): string {
  const who = input.caller.kind === 'token' ? hashToken(input.caller.token ?? '') : input.caller.kind === 'bot' ? `bot:${input.caller.seat}` : 'system';
  return createHash('sha256')
    .update(JSON.stringify([who, input.seat ?? null, input.command, input.expectedVersion ?? null, input.outcomes ?? null]))
    .digest('hex');
}
