// Server-side bots in their seats. After a commit of a game with bots, a pending bot
// decides from what a client of its seat would get — the seat's view and legal
// commands — and sends its command through the CommandHandler like anyone else, at the
// version it decided on: same validation, same events, same deadlines. A bot that
// loses a race drops its command; the winner's commit wakes the bots again. Every
// instance runs bots for the commits it makes, and on start for the running games
// with bots, so a game left waiting on a bot by a restart moves on.
//
// Think time: a bot waits `thinkMs` before each move, so that people can watch a table
// of bots. It is counted from when the bot's seat became pending (the commit this
// instance made, or the game's last move as the database has it), not from when an
// instance noticed: a move already overdue (after a restart, or found by the sweeper)
// is played at once. Races (Porca Miseria's grabs and slaps) wait too: a bot that
// reacted at once would win every race against people.
import type { Logger } from '../lib/logger.ts';
import { botsFor } from '../bots/index.ts';
import { LazyTurn } from '../bots/play.ts';
import { seededRng, shuffle } from '../bots/rng.ts';
import type { CommandHandler } from '../commands/command-handler.ts';
import { ServiceError, serviceCodes } from '../errors.ts';
import type { LatestStates, LoadedGame } from '../state/latest-states.ts';
import type { EventStore } from '../events/store.ts';
import { databaseUnavailable } from '../events/unavailable.ts';

interface Work {
  /** A commit arrived since the bots last looked. */
  again: boolean;
  done: Promise<void>;
}

const lostRace = new Set<string>([serviceCodes.staleVersion, serviceCodes.conflict, serviceCodes.notRunning]);

/** What became of a bot's command: committed, beaten by another command (a lost race,
 * the game moved on or ended), or refused (by the rules or the service). */
export type BotOutcome = 'committed' | 'lost' | 'refused';

export class BotSeats {
  private readonly working = new Map<string, Work>();
  /** When this instance committed each game's latest version: its bots think from then. */
  private readonly committedAt = new Map<string, { version: number; at: number }>();
  /** Bots thinking: their waits end at once when the bots stop. */
  private readonly thinking = new Set<() => void>();
  private stopped = false;

  constructor(
    private readonly store: EventStore,
    private readonly commands: CommandHandler,
    private readonly latest: LatestStates,
    private readonly clock: () => number,
    private readonly log: Logger,
    /** Told of every bot command, by game type (the metrics). */
    private readonly sent: (gameType: string, outcome: BotOutcome) => void = () => {},
    /** How soon bots that found the database unavailable look again. */
    private readonly retryMs = 1000,
    /** How long a bot thinks before each move in a game that set none (BOT_THINK_MS); 0: at once. */
    private readonly thinkMs = 0,
  ) {}

  /** The committed hook: wakes the bots of a running game that has any. */
  committed(after: LoadedGame): void {
    if (after.record.status !== 'running') {
      this.committedAt.delete(after.record.id);
      return;
    }
    if (!after.record.seats.some((s) => s.bot !== null)) return;
    this.committedAt.set(after.record.id, { version: after.version, at: this.clock() });
    this.kick(after.record.id);
  }

  /** Wakes the bots of every running game with bots once, e.g. after a restart. */
  async start(): Promise<void> {
    for (const id of await this.store.runningGamesWithBots()) this.kick(id);
  }

  /** No new bot commands; settles once the ones under way have finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const wake of this.thinking) wake();
    await this.idle();
  }

  /** Settles once no game's bots are at work. */
  async idle(): Promise<void> {
    while (this.working.size > 0) await Promise.all([...this.working.values()].map((w) => w.done));
  }

  /** One worker per game, so its bots send one command at a time; a kick while it
   * works makes it look once more. It starts on a later turn of the event loop, never
   * inside the commit that woke it. */
  kick(gameId: string): void {
    if (this.stopped) return;
    const current = this.working.get(gameId);
    if (current !== undefined) {
      current.again = true;
      return;
    }
    const work: Work = { again: true, done: Promise.resolve() };
    this.working.set(gameId, work);
    work.done = new Promise<void>((resolve) => setImmediate(resolve))
      .then(async () => {
        while (work.again && !this.stopped) {
          work.again = false;
          await this.step(gameId);
        }
      })
      .catch((error: unknown) => {
        if (!databaseUnavailable(error)) return this.log.error({ err: error, gameId }, 'bots failed');
        // The database is failing over or out of reach, and no commit may come to wake
        // these bots again (a table of bots alone): they look again shortly.
        this.log.warn({ err: error, gameId }, 'bots wait for the database');
        setTimeout(() => this.kick(gameId), this.retryMs).unref();
      })
      .finally(() => this.working.delete(gameId));
  }

  /** Lets one pending bot act, if any. */
  private async step(gameId: string): Promise<void> {
    for (;;) {
      // The commit that woke us left the game in the cache; a stale entry only costs a
      // refused command, and the newer commit wakes the bots of the instance that made it.
      const loaded = this.latest.peek(gameId) ?? (await this.latest.load(gameId));
      const wait = this.dueAt(loaded) - this.clock();
      if (wait <= 0 || loaded.record.status !== 'running') {
        await this.act(loaded);
        return;
      }
      // Thinking; a move meanwhile (a person's, in a race) is seen when it is over.
      await this.think(wait);
      if (this.stopped) return;
    }
  }

  /** When the pending bots of this version may move: the game's think time (its own,
   * else `thinkMs`) after it was committed here, or after the game last moved as the
   * database had it when read. */
  private dueAt({ record, version }: LoadedGame): number {
    const thinkMs = record.botThinkMs ?? this.thinkMs;
    if (thinkMs <= 0) return 0;
    const mine = this.committedAt.get(record.id);
    const since = mine !== undefined && mine.version === version ? mine.at : record.updatedAt.getTime();
    return since + thinkMs;
  }

  private think(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.thinking.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.thinking.add(wake);
    });
  }

  /** The sweeper's way in (stalled-games.ts): one pending bot acts on the game as the
   * database has it, not as this instance's cache does (which may be what left it
   * waiting). Null: no bot was due, or none could act. */
  async drive(gameId: string): Promise<BotOutcome | null> {
    if (this.stopped) return null;
    return this.act(await this.latest.load(gameId));
  }

  private async act({ record, game, state, version }: LoadedGame): Promise<BotOutcome | null> {
    const gameId = record.id;
    if (record.status !== 'running') return null;
    const pending = game.pending(state);
    // Past the deadline the rules refuse moves until the server's timeout, whose commit wakes us.
    if (pending.deadline !== undefined && this.clock() >= pending.deadline) return null;
    const bots = botsFor(record.type) ?? {};
    const rng = seededRng(`${record.seed}:${version}`);
    // In a race the bots' order is the game's, not the seat numbers'.
    for (const seat of shuffle(rng, pending.seats)) {
      const name = record.seats[seat]?.bot;
      if (name == null) continue;
      const bot = bots[name];
      const legal = game.legalCommands(state, seat);
      if (bot === undefined || legal.length === 0) {
        this.log.error({ gameId, seat, bot: name }, bot === undefined ? 'no such bot' : 'a pending bot has no legal command');
        continue;
      }
      const command = bot.choose(new LazyTurn(game, state, seat, legal), seededRng(`${record.seed}:${version}:${seat}`));
      return this.send(record.type, gameId, seat, command, version);
    }
    return null;
  }

  private async send(gameType: string, gameId: string, seat: number, command: { readonly type: string }, version: number): Promise<BotOutcome> {
    try {
      await this.commands.handle({ gameId, caller: { kind: 'bot', seat }, command, expectedVersion: version });
      this.sent(gameType, 'committed');
      return 'committed';
    } catch (error) {
      if (error instanceof ServiceError && lostRace.has(error.code)) {
        this.sent(gameType, 'lost');
        return 'lost';
      }
      // Not the bot's doing: kick() tries again once the database answers.
      if (databaseUnavailable(error)) throw error;
      this.sent(gameType, 'refused');
      // The command's type and the refusal's code only: the command's fields, and a rule's
      // message ("card … is not in your hand"), can name a card held face down.
      const why = error instanceof ServiceError ? { code: error.code } : { err: error };
      this.log.warn({ ...why, gameId, seat, commandType: command.type }, 'a bot command was refused');
      return 'refused';
    }
  }
}
