// src/jobs/ is the work the server does by itself: firing deadlines and playing
// bots' seats. Both act only through the command handler, like any client, so they
// may import src/commands besides src/domain, src/bots, src/events, src/state,
// src/errors.ts and src/lib.
//
// Deadlines: when a game's pending deadline passes, the server itself sends the
// game's `timeout` command as the system actor, at the version the deadline belongs
// to. If several instances fire for the same deadline, the append's version check
// lets exactly one timeout through; the others fail harmlessly with a conflict.
import type { Logger } from '../lib/logger.ts';
import type { CommandHandler } from '../commands/command-handler.ts';
import { ServiceError } from '../errors.ts';
import type { EventStore } from '../events/store.ts';
import { databaseUnavailable } from '../events/unavailable.ts';

/** Node may fire a timer a millisecond before the wall clock reaches its deadline; a
 * timeout that early would be refused by the rules and wait for the next poll. */
const TIMER_SLACK_MS = 2;

export interface SchedulerOptions {
  /** Arm real timers and poll the database; off in tests that drive a fake clock. */
  readonly timers: boolean;
  /** How often to look for due deadlines that no local timer covers (e.g. after a restart). */
  readonly pollMs: number;
}

/** What became of a fired deadline: its timeout committed; refused as too early (tried
 * again at the next poll); refused by the rules; or skipped because the service
 * declined it (someone acted first, the game ended, the database was unavailable). */
export type DeadlineOutcome = 'committed' | 'too-early' | 'refused' | 'skipped';

export class DeadlineScheduler {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** The version at which each game's timeout was refused by its rules or its chance.
   * Firing again at that version would be refused again: nothing changed. */
  private readonly refused = new Map<string, number>();
  private poller: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly store: EventStore,
    private readonly commands: CommandHandler,
    private readonly clock: () => number,
    private readonly log: Logger,
    private readonly options: SchedulerOptions,
    /** Told of every deadline fired, by game type (the metrics). */
    private readonly fired: (gameType: string, outcome: DeadlineOutcome) => void = () => {},
  ) {}

  start(): void {
    if (!this.options.timers) return;
    this.poller = setInterval(() => void this.runDue(), this.options.pollMs);
    this.poller.unref();
  }

  /** Arms (or disarms) the timer for a game whose pending deadline is now `deadline`. */
  track(gameId: string, gameType: string, version: number, deadline: Date | null): void {
    const existing = this.timers.get(gameId);
    if (existing !== undefined) clearTimeout(existing);
    this.timers.delete(gameId);
    if (this.refused.get(gameId) !== version) this.refused.delete(gameId);
    if (deadline === null || !this.options.timers || this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(gameId);
      void this.fire(gameId, gameType, version);
    }, Math.max(0, deadline.getTime() - this.clock()) + TIMER_SLACK_MS);
    timer.unref();
    this.timers.set(gameId, timer);
  }

  /** Fires every deadline that has passed by the clock's now. */
  async runDue(): Promise<void> {
    if (this.stopped) return;
    try {
      const due = await this.store.dueGames(new Date(this.clock()));
      await Promise.all(due.map((game) => this.fire(game.id, game.type, game.version)));
    } catch (error) {
      // The next poll looks again: an unavailable database (failing over) is only warned of.
      this.log[databaseUnavailable(error) ? 'warn' : 'error']({ err: error }, 'looking for due deadlines failed');
    }
  }

  stop(): void {
    this.stopped = true;
    if (this.poller !== null) clearInterval(this.poller);
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  /** Sends the game's timeout at `version`, unless the rules refused it there before;
   * the sweeper (stalled-games.ts) fires through here too. */
  async fire(gameId: string, gameType: string, version: number): Promise<DeadlineOutcome> {
    if (this.refused.get(gameId) === version) return 'refused';
    const outcome = await this.timeout(gameId, version);
    this.fired(gameType, outcome);
    return outcome;
  }

  private async timeout(gameId: string, version: number): Promise<DeadlineOutcome> {
    try {
      await this.commands.handle({ gameId, caller: { kind: 'system' }, command: { type: 'timeout' }, expectedVersion: version });
      return 'committed';
    } catch (error) {
      // Someone acted first (stale version, conflict) or the game ended: nothing to do.
      if (error instanceof ServiceError && error.kind === 'service') return 'skipped';
      // Too early (a timer that fired before the rules' deadline): the next poll tries
      // again. Remembering it would stall the game at this version for good.
      if (error instanceof ServiceError && error.code.endsWith('/too-early')) return 'too-early';
      // The database failed over or was out of reach: the next poll fires it again.
      // Remembered, the game would wait for this deadline for good.
      if (databaseUnavailable(error)) return 'skipped';
      // Said once: the poll would find the same deadline every time, and the game can
      // only move on by another command, which arms its deadline anew.
      this.refused.set(gameId, version);
      this.log.warn({ err: error, gameId, version }, 'a timeout was refused; it is not retried at this version');
      return 'refused';
    }
  }
}
