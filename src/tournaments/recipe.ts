// The recipe every tournament command follows, as a game's does: read the tournament's
// state, decide its events, append them at the version read in one transaction together
// with what must commit with them (a round's games!), then tell the feed. Within an
// instance a tournament's commands queue one after another; across instances the
// version check lets one writer win and the other retries on the new state.
import { sha256 } from '../access/tokens.ts';
import { ServiceError, serviceCodes } from '../errors.ts';
import { KeyedQueue } from '../lib/keyed-queue.ts';
import { evolve, fold, type TournamentEvent, type TournamentState } from './log.ts';
import { nextRoundAt } from './rounds.ts';
import type { TournamentAppend, TournamentStore } from './tournament-store.ts';

/** Who asks: an organizer's id (null: the admin key, which may act on any tournament). */
export type OrganizerId = string | null;

export interface TournamentHooks {
  /** Events committed to a tournament's log, with the seq of the first. */
  readonly appended?: (tournamentId: string, firstSeq: number, events: readonly TournamentEvent[]) => void;
  /** A seat was handed to a bot: its game's bots should look. */
  readonly botSeated?: (gameId: string) => void;
  /** Work the server did by itself failed (a refusal such as an impossible pairing, or a fault). */
  readonly failed?: (error: unknown) => void;
}

/** One decision on a tournament: its events and what commits with them, and the answer. */
export interface Decision<T> {
  readonly events: readonly TournamentEvent[];
  readonly answer: T;
  readonly extra?: Pick<TournamentAppend, 'players' | 'tables' | 'within'>;
  /** After the commit, e.g. publishing a round's games. */
  readonly after?: () => void;
  /** It changes what a blocked round depends on (the field, the format): the server
   * tries the round again once it has committed. */
  readonly unblocks?: boolean;
}

export const nothing = <T>(answer: T): Decision<T> => ({ events: [], answer });

const MAX_ATTEMPTS = 5;

export abstract class TournamentRecipe {
  protected readonly states = new Map<string, TournamentState>();
  private readonly queue = new KeyedQueue();
  /** Work the server started by itself (recording a finished table, pairing the next round). */
  private readonly background = new Set<Promise<unknown>>();

  constructor(
    readonly store: TournamentStore,
    readonly clock: () => number,
    protected readonly hooks: TournamentHooks,
  ) {}

  /** The server tries the round a blocked tournament waits for again. */
  protected abstract advance(id: string): Promise<unknown>;

  /** The tournament as its log says, for `organizerId` (null: anyone may read). */
  async state(id: string, organizerId?: OrganizerId): Promise<TournamentState> {
    const row = await this.store.row(id);
    if (row === null || (organizerId != null && row.organizerId !== organizerId)) throw new ServiceError(serviceCodes.tournamentNotFound, `no tournament ${id}`);
    const cached = this.states.get(id);
    if (cached !== undefined && cached.version === row.version) return cached;
    const base = cached !== undefined && cached.version < row.version ? cached : undefined;
    const stored = await this.store.readEvents(id, base?.version ?? 0);
    const folded = base === undefined ? fold(id, stored.map((e) => e.event)) : stored.map((e) => e.event).reduce(evolve, base);
    // The owner is the row's: an imported tournament belongs to the organizer who imported it.
    const state = folded.organizerId === row.organizerId ? folded : { ...folded, organizerId: row.organizerId };
    this.states.set(id, state);
    return state;
  }

  /** Reads, decides, appends at the version read (retrying a lost race on the new
   * state), answers a retried idempotent command from its record. */
  run<T>(id: string, organizerId: OrganizerId, request: unknown, idempotencyKey: string | undefined, decide: (state: TournamentState) => Decision<T> | Promise<Decision<T>>): Promise<T> {
    return this.queue.run(id, async () => {
      const requestHash = sha256(JSON.stringify(request));
      for (let attempt = 1; ; attempt++) {
        const state = await this.state(id, organizerId);
        if (idempotencyKey !== undefined) {
          const recorded = await this.store.findCommand(id, idempotencyKey);
          if (recorded !== null) {
            if (recorded.requestHash !== requestHash) throw new ServiceError(serviceCodes.idempotencyKeyReused, 'this Idempotency-Key was used for another command');
            return recorded.response as T;
          }
        }
        const decision = await decide(state);
        if (decision.events.length === 0) return decision.answer;
        const next = decision.events.reduce(evolve, state);
        const now = this.clock();
        const outcome = await this.store.append({
          tournamentId: id,
          expectedVersion: state.version,
          events: decision.events,
          at: new Date(now),
          status: next.status,
          nextRoundAt: nextRoundAt(next, now),
          ...decision.extra,
          ...(idempotencyKey === undefined ? {} : { idempotency: { key: idempotencyKey, requestHash, response: decision.answer } }),
        });
        if (outcome === 'appended') {
          this.states.set(id, next);
          this.hooks.appended?.(id, state.version + 1, decision.events);
          decision.after?.();
          if (decision.unblocks === true && next.blocked !== null) this.inBackground(this.advance(id));
          return decision.answer;
        }
        this.states.delete(id);
        if (attempt >= MAX_ATTEMPTS) throw new ServiceError(serviceCodes.conflict, 'the tournament kept changing; retry');
      }
    });
  }

  /** Settles once the server's own tournament work has finished. */
  async idle(): Promise<void> {
    while (this.background.size > 0) await Promise.all([...this.background]);
  }

  /** What fails here is reported, and caught up by attend(): nothing is lost by it. */
  inBackground(work: Promise<unknown>): void {
    const tracked = work.then(() => undefined, (error: unknown) => this.hooks.failed?.(error)).finally(() => this.background.delete(tracked));
    this.background.add(tracked);
  }
}
