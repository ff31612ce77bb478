// The sweeper: liveness as a guarantee rather than a hope. Bots are woken by the
// commits of the instance that made them and deadlines by timers and a poll; a wake-up
// lost (a stale cache the bots decided on, an error swallowed, an instance gone between
// a commit and its bots' move) would leave a game waiting for good, and a tournament's
// round with it. Every few seconds each instance looks in the database for running
// games with bots that have not moved for `stallMs`, and for deadlines passed by as
// long, and moves them on through the same paths the bots and the deadline timers
// take: at the version read, so when two instances (or the sweeper and a late bot)
// act on one game, exactly one command is appended and the others lose the race
// harmlessly. Only a move this sweeper appended counts as a stall.
import type { Logger } from '../lib/logger.ts';
import { databaseUnavailable } from '../events/unavailable.ts';
import type { EventStore, IdleGame } from '../events/store.ts';
import type { BotSeats } from './bot-seats.ts';
import type { DeadlineScheduler } from './deadline-scheduler.ts';

export interface SweeperOptions {
  /** How long a game may wait on the server (a bot's move, a passed deadline's timeout)
   * before the sweeper moves it on; 0: no sweeper. */
  readonly stallMs: number;
  /** How often it looks; 0: only when sweep() is called (tests). */
  readonly everyMs: number;
  /** How long bots think before a move (BotSeats) in a game that set no think time of
   * its own: a bot thinking is not stalled, so a game waits on a bot for its think time
   * + stallMs before it counts as stalled. */
  readonly thinkMs: number;
}

export const defaultSweeperOptions: SweeperOptions = { stallMs: 2000, everyMs: 1000, thinkMs: 0 };

/** Why a game was stalled: a server bot was to move, or its deadline had passed. */
export type StallReason = 'bot' | 'deadline';

export interface Intervention {
  readonly gameId: string;
  readonly gameType: string;
  readonly reason: StallReason;
  /** The version the game waited at. */
  readonly version: number;
}

export class StalledGames {
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<Intervention[]> | null = null;
  private stopped = false;
  /** Games found waiting on no bot (a person's turn), by what they were at (version and
   * bot seats): looked at again only once one of those changes. */
  private readonly notDue = new Map<string, string>();

  constructor(
    private readonly store: EventStore,
    private readonly bots: BotSeats,
    private readonly scheduler: DeadlineScheduler,
    private readonly clock: () => number,
    private readonly log: Logger,
    private readonly options: SweeperOptions,
    /** Told of every game it moved on (the metrics). */
    private readonly stalled: (gameType: string, reason: StallReason) => void = () => {},
  ) {}

  start(): void {
    if (this.options.stallMs <= 0 || this.options.everyMs <= 0) return;
    this.timer = setInterval(() => void this.sweep(), this.options.everyMs);
    this.timer.unref();
  }

  /** No new sweeps; settles once the one under way has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearInterval(this.timer);
    await this.sweeping;
  }

  /** Looks once (one sweep at a time) and moves on every stalled game it finds. */
  sweep(): Promise<Intervention[]> {
    if (this.stopped) return Promise.resolve([]);
    this.sweeping ??= this.sweepOnce().finally(() => (this.sweeping = null));
    return this.sweeping;
  }

  private async sweepOnce(): Promise<Intervention[]> {
    const moved: Intervention[] = [];
    try {
      const { stallMs, thinkMs } = this.options;
      const idle = await this.store.idleGames(new Date(this.clock() - stallMs), stallMs, thinkMs);
      const ids = new Set(idle.map((g) => g.id));
      for (const id of this.notDue.keys()) if (!ids.has(id)) this.notDue.delete(id);
      for (const game of idle) {
        if (this.stopped) break;
        // One game that fails is tried again at the next sweep; the others go on now.
        const intervention = await this.drive(game).catch((error: unknown) => this.failed(error, game.id));
        if (intervention != null) moved.push(intervention);
      }
    } catch (error) {
      this.failed(error, null);
    }
    return moved;
  }

  /** The next sweep looks again: an unavailable database (failing over) is only warned of. */
  private failed(error: unknown, gameId: string | null): void {
    this.log[databaseUnavailable(error) ? 'warn' : 'error']({ err: error, gameId }, 'sweeping for stalled games failed');
  }

  private async drive(game: IdleGame): Promise<Intervention | null> {
    if (game.deadlinePassed) {
      const outcome = await this.scheduler.fire(game.id, game.type, game.version);
      return outcome === 'committed' ? this.counted(game, 'deadline') : null;
    }
    const at = `${game.version}:${game.bots}`;
    if (this.notDue.get(game.id) === at) return null;
    const outcome = await this.bots.drive(game.id);
    // 'lost': someone moved the game meanwhile. A refusal has been logged by the bots,
    // and would be refused again until the game moves.
    if (outcome === null || outcome === 'refused') this.notDue.set(game.id, at);
    return outcome === 'committed' ? this.counted(game, 'bot') : null;
  }

  private counted(game: IdleGame, reason: StallReason): Intervention {
    this.stalled(game.type, reason);
    const why = reason === 'bot' ? `a server bot was to move and none had for ${game.thinkMs + this.options.stallMs} ms (the game's think time and STALL_MS)` : `its deadline had passed ${this.options.stallMs} ms before and no timeout had been appended`;
    // The think time waited out, the game's own or the server's: which one an operator cannot tell from the settings alone.
    this.log.warn({ gameId: game.id, gameType: game.type, version: game.version, reason, ...(reason === 'bot' ? { thinkMs: game.thinkMs } : {}) }, `a stalled game was moved on: ${why}`);
    return { gameId: game.id, gameType: game.type, reason, version: game.version };
  }
}
