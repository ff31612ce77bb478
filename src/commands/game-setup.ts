// Creating games and taking their open seats: the writes that come before any command.
// A game's opening events (the deal) are decided here and appended with the game, or
// when its last open seat is taken. Commands go through the CommandHandler.
import { randomUUID } from 'node:crypto';
import type { GameEvent } from '../domain/contract.ts';
import { serverChance, suppliedChance } from '../domain/chance.ts';
import { findGame } from '../domain/games.ts';
import { botsFor } from '../bots/index.ts';
import { ServiceError, serviceCodes } from '../errors.ts';
import { hashToken, newSeed, newSeedNonce, newToken, seedCommitment } from '../access/tokens.ts';
import { waitingFor, type ChanceMode, type GameRecord } from '../events/records.ts';
import type { EventStore } from '../events/store.ts';
import { setupOf, type LatestStates, type LoadedGame } from '../state/latest-states.ts';
import { advance, chanceProblem, type CommandHooks } from './command-handler.ts';
import { openingAt } from './position-opening.ts';

/** The bots a seat of a game of this type may ask for (none for an unknown type). */
export const botNames = (type: string): string[] => Object.keys(botsFor(type) ?? {});

/** A seat's name when its creator or joiner gave none: its kind and number, never "You"
 * (which only a viewer says of their own seat). */
export const defaultName = (seat: number, bot: string | null | undefined): string =>
  bot == null ? `Player ${seat + 1}` : `${bot.charAt(0).toUpperCase()}${bot.slice(1)} bot ${seat + 1}`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Tokens known to have arrived (or to hold no person's seat), so that a read costs no write. */
const ARRIVALS_REMEMBERED = 100_000;

export interface NewGame {
  readonly type: string;
  /** One entry per seat; `open` seats are joined later, `bot` seats are played by the server. */
  readonly seats: readonly { readonly name?: string; readonly open?: boolean; readonly bot?: string }[];
  readonly options?: Readonly<Record<string, unknown>>;
  readonly seed?: string;
  readonly chance: ChanceMode;
  /** Setup outcomes for a supplied-chance game (deals, first draws). */
  readonly outcomes?: readonly unknown[];
  /** How long its server bots think before each move; absent: the server's default. */
  readonly botThinkMs?: number;
  /** A supplied-chance game's described position to start from instead of a deal
   * (src/domain/positions.ts); it is the game's first event. */
  readonly position?: unknown;
  /** The organizer creating it with an API key. */
  readonly organizerId?: string | null;
}

export interface CreatedGame {
  /** The game as stored: open, or running with its setup events appended. */
  readonly record: GameRecord;
  readonly refereeToken: string;
  /** Index = seat; null for open and bot seats. */
  readonly seatTokens: readonly (string | null)[];
}

/** Where a tournament seats its players: its table, and each seat's token hash (null for a bot). */
export interface Placement {
  readonly tournament: { readonly id: string; readonly round: number };
  readonly seatTokenHashes: readonly (string | null)[];
}

export interface PreparedGame {
  /** As it is to be written: open, or with `opening` to be written with it. */
  readonly record: GameRecord;
  readonly refereeToken: string;
  readonly seatTokens: readonly (string | null)[];
  /** The setup events, or null while seats are open. */
  readonly opening: GameEvent[] | null;
  /** The game before and after its opening events (null while seats are open). */
  readonly base: LoadedGame | null;
  readonly started: LoadedGame | null;
}

export class GameSetup {
  private readonly arrived = new Set<string>();
  constructor(
    private readonly store: EventStore,
    private readonly latest: LatestStates,
    private readonly clock: () => number,
    private readonly hooks: CommandHooks = {},
    /** How long a game may wait for its open seats (OPEN_GAME_TTL_SECONDS): past it the
     * scheduler expires it (`GameExpired`, no result). 0: open games never expire. */
    private readonly openGameTtlMs = 0,
  ) {}

  async create(request: NewGame): Promise<CreatedGame> {
    const prepared = this.prepare(request);
    // An open game's deadline is its expiry: the scheduler's poll finds it.
    await this.store.createGame(prepared.record, prepared.opening === null ? null : { events: prepared.opening, status: prepared.started!.record.status, deadline: prepared.started!.record.deadline });
    this.published(prepared);
    return { record: prepared.started?.record ?? prepared.record, refereeToken: prepared.refereeToken, seatTokens: prepared.seatTokens };
  }

  /** A game checked and decided (its record and opening events), not yet written: the
   * tournaments write a round's games together with the round's event. `placement`
   * seats tournament players, whose tokens the caller holds already. */
  prepare(request: NewGame, placement?: Placement): PreparedGame {
    const game = findGame(request.type);
    if (game === undefined) throw new ServiceError(serviceCodes.unknownGameType, `no game of type "${request.type}" in the catalog`);
    // A recorded table runs without deadlines unless the referee sets them.
    const defaults = request.chance === 'supplied' ? game.untimedOptions : {};
    const parsedOptions = game.optionsSchema.safeParse({ ...defaults, ...request.options });
    if (!parsedOptions.success) {
      throw new ServiceError(serviceCodes.invalidSetup, `invalid options: ${parsedOptions.error.issues.map((i) => `${i.path.join('.') || 'options'}: ${i.message}`).join('; ')}`);
    }
    const seatCount = request.seats.length;
    if (seatCount < game.players.min || seatCount > game.players.max) {
      throw new ServiceError(serviceCodes.invalidSetup, `${game.title} is for ${game.players.min} to ${game.players.max} players, not ${seatCount}`);
    }
    const setup = { options: parsedOptions.data, seats: seatCount };
    const refused = game.validateSetup?.(setup);
    if (refused) throw new ServiceError(refused.code, refused.message, {}, 'rule');
    if (request.chance === 'server' && request.outcomes !== undefined) {
      throw new ServiceError(serviceCodes.outcomesNotAllowed, 'outcomes are supplied only in chance mode "supplied"');
    }
    if (request.chance === 'supplied' && request.seats.some((s) => s.open)) {
      throw new ServiceError(serviceCodes.invalidSetup, 'a supplied-chance game records a table that is already seated: no open seats');
    }
    this.checkBots(game.type, request);
    const seed = request.seed ?? newSeed();
    const seedNonce = newSeedNonce();
    const refereeToken = newToken();
    const given = placement?.seatTokenHashes;
    const seatTokens = request.seats.map((s, seat) => (s.open || s.bot !== undefined || given?.[seat] != null ? null : newToken()));
    const now = new Date(this.clock());
    let record: GameRecord = {
      id: randomUUID(),
      type: game.type,
      rulesVersion: game.rulesVersion,
      options: parsedOptions.data,
      seatCount,
      chanceMode: request.chance,
      seed,
      seedHash: seedCommitment(seedNonce, seed),
      seedNonce,
      seedChosenBy: request.seed === undefined ? 'server' : 'creator',
      botThinkMs: request.botThinkMs ?? null,
      refereeTokenHash: hashToken(refereeToken),
      status: 'open',
      version: 0,
      // Set for every game that does not start at once; replaced by its opening's deadline when it starts.
      deadline: this.openGameTtlMs > 0 ? new Date(now.getTime() + this.openGameTtlMs) : null,
      createdAt: now,
      updatedAt: now,
      finishedAt: null,
      startedAt: null,
      rematchId: null,
      organizerId: request.organizerId ?? null,
      tournament: placement?.tournament ?? null,
      seats: request.seats.map((s, seat) => {
        // A bot's seat is taken like a person's, with a token nobody ever sees: every
        // check that a seat is open (joining, starting) then holds for bots too.
        const token = s.bot === undefined ? seatTokens[seat]! : newToken();
        const tokenHash = (s.bot === undefined ? given?.[seat] : null) ?? (token === null ? null : hashToken(token));
        return { seat, name: s.name ?? (s.open ? null : defaultName(seat, s.bot)), tokenHash, joinedAt: tokenHash === null ? null : now, bot: s.bot ?? null, arrivedAt: null };
      }),
    };
    // Setup is decided before anything is written, so bad supplied outcomes create nothing.
    const opening = request.position === undefined ? this.opening(record, setup, request.outcomes) : openingAt(record, setup, request, this.clock());
    if (opening === null) return { record, refereeToken, seatTokens, opening, base: null, started: null };
    // A game that starts at once has no expiry.
    record = { ...record, deadline: null };
    const { base, next } = this.opened(record, opening);
    return { record, refereeToken, seatTokens, opening, base, started: next };
  }

  /** After a prepared game was written: its state is cached and its commit reported
   * (bots wake up, deadlines are armed, watchers hear of it). */
  published(prepared: PreparedGame): void {
    if (prepared.started === null || prepared.opening === null || prepared.base === null) return;
    this.latest.remember(prepared.started);
    this.hooks.committed?.(prepared.base, prepared.opening, prepared.started);
  }

  private checkBots(type: string, request: NewGame): void {
    const bots = botsFor(type) ?? {};
    for (const [seat, { bot, open }] of request.seats.entries()) {
      if (bot === undefined) continue;
      if (!Object.hasOwn(bots, bot)) {
        throw new ServiceError(serviceCodes.invalidSetup, `seat ${seat}: no bot "${bot}" for ${type}; there are ${Object.keys(bots).join(', ')}`);
      }
      if (open) throw new ServiceError(serviceCodes.invalidSetup, `seat ${seat}: a bot's seat is not open`);
      // Bots cannot supply chance outcomes: only the referee of a supplied game can.
      if (request.chance === 'supplied') throw new ServiceError(serviceCodes.invalidSetup, 'bots play only in server-chance games');
    }
  }

  /** Takes an open seat (a given one, or the first open one). */
  async join(gameId: string, seat: number | undefined, name: string | undefined): Promise<{ seat: number; token: string }> {
    const record = await this.record(gameId);
    if (record.status !== 'open') throw new ServiceError(serviceCodes.notRunning, 'the game has no open seats: it already started');
    const candidates = record.seats.filter((s) => s.tokenHash === null && (seat === undefined || s.seat === seat));
    const token = newToken();
    for (const candidate of candidates) {
      if (await this.store.takeSeat(gameId, candidate.seat, name ?? defaultName(candidate.seat, null), hashToken(token), new Date(this.clock()))) {
        // Read again after our seat is taken, not worked out from the first read: a join
        // racing ours may have taken the last other seat, and whichever of us reads
        // after both have committed starts the game (the start appends at version 0 once).
        await this.startIfReady(await this.record(gameId));
        return { seat: candidate.seat, token };
      }
    }
    throw new ServiceError(serviceCodes.seatUnavailable, seat === undefined ? 'no seat is open' : `seat ${seat} is not open`);
  }

  private async record(gameId: string): Promise<GameRecord> {
    const record = await this.store.loadGame(gameId);
    if (record === null) throw new ServiceError(serviceCodes.gameNotFound, `no game ${gameId}`);
    return record;
  }

  /** The person holding `token` arrives at the game (a read, the live socket, a
   * command: the caller uses the token on it), once per seat; the last person to arrive
   * starts it. Anything else (a referee's or unknown token, no token) changes nothing:
   * the read or command itself answers for it. */
  async arrive(gameId: string, token: string | undefined): Promise<void> {
    if (token === undefined) return;
    const key = `${gameId}:${token}`;
    if (this.arrived.has(key)) return;
    // Games are ids the caller chose: only a uuid can name one (the read refuses the rest).
    if (!UUID.test(gameId)) return;
    const seat = await this.store.arrive(gameId, hashToken(token), new Date(this.clock()));
    // Forgotten wholesale rather than one by one: a forgotten token costs one statement that changes nothing.
    if (this.arrived.size >= ARRIVALS_REMEMBERED) this.arrived.clear();
    this.arrived.add(key);
    if (seat !== null) await this.startIfReady(await this.record(gameId));
  }

  /** Starts an open game its people have not all arrived at ("start anyway"): its
   * creator only, the holder of its referee token or the organizer whose key created it. */
  async startAnyway(gameId: string, token: string | undefined, organizerId: string | null): Promise<GameRecord> {
    const record = await this.record(gameId);
    const creator = organizerId !== null ? record.organizerId === organizerId : token !== undefined && hashToken(token) === record.refereeTokenHash;
    if (!creator) {
      if (token === undefined && organizerId === null) throw new ServiceError(serviceCodes.tokenRequired, "starting a game takes its referee token or its organizer's key");
      throw new ServiceError(serviceCodes.forbidden, "only the game's creator starts it: its referee token, or the organizer key that created it");
    }
    if (record.status !== 'open') throw new ServiceError(serviceCodes.notOpen, `the game is ${record.status}: it started already`);
    if (record.seats.some((s) => s.tokenHash === null)) throw new ServiceError(serviceCodes.seatsOpen, 'the game has open seats: it starts once they are taken');
    await this.startIfReady(record, true);
    return this.record(gameId);
  }

  /** A rematch of a finished game for the person holding `token` at it: the rematch is
   * created by the first call (same type, options and seats; bots stay bots) and linked
   * to the game once, so every later or concurrent call finds the same one. Each call
   * hands the caller's seat in it to a fresh token (a second call replaces the first's)
   * and counts as their arrival; the rematch starts when every person claimed theirs. */
  async rematch(gameId: string, token: string | undefined): Promise<{ record: GameRecord; seat: number; token: string; refereeToken: string | null }> {
    if (token === undefined) throw new ServiceError(serviceCodes.tokenRequired, "a rematch is asked for with a seat's token of the finished game");
    const old = await this.record(gameId);
    const hash = hashToken(token);
    const seat = old.seats.find((s) => s.bot === null && s.tokenHash === hash);
    if (seat === undefined) throw new ServiceError(serviceCodes.forbidden, "only a person seated at the game asks for its rematch, with their seat's token");
    if (old.status !== 'finished') throw new ServiceError(serviceCodes.notFinished, 'the game is not over: a rematch comes after it');
    if (old.tournament !== null || old.chanceMode === 'supplied') throw new ServiceError(serviceCodes.invalidSetup, "a tournament's table or a recorded table has no rematch");
    let rematchId = old.rematchId;
    let refereeToken: string | null = null;
    if (rematchId === null) {
      const prepared = this.prepare({
        type: old.type,
        options: old.options as Record<string, unknown>,
        seats: old.seats.map((s) => (s.bot === null ? { ...(s.name === null ? {} : { name: s.name }) } : { bot: s.bot, ...(s.name === null ? {} : { name: s.name }) })),
        chance: 'server',
        organizerId: old.organizerId,
        ...(old.botThinkMs === null ? {} : { botThinkMs: old.botThinkMs }),
      });
      await this.store.createGame(prepared.record, prepared.opening === null ? null : { events: prepared.opening, status: prepared.started!.record.status, deadline: prepared.started!.record.deadline });
      this.published(prepared);
      rematchId = await this.store.linkRematch(old.id, prepared.record.id);
      // Another call linked its rematch first: this one stays unclaimed and expires as any waiting table.
      if (rematchId === prepared.record.id) refereeToken = prepared.refereeToken;
    }
    const fresh = newToken();
    if (!(await this.store.claimSeat(rematchId, seat.seat, hashToken(fresh), new Date(this.clock())))) {
      throw new ServiceError(serviceCodes.notRunning, 'the rematch is over already');
    }
    const claimed = await this.record(rematchId);
    await this.startIfReady(claimed);
    return { record: await this.record(rematchId), seat: seat.seat, token: fresh, refereeToken };
  }

  /** Starts an open game once every seat is taken and its people arrived (or its
   * creator does not wait for them: `anyway`). */
  private async startIfReady(record: GameRecord, anyway = false): Promise<void> {
    if (record.status !== 'open' || record.seats.some((s) => s.tokenHash === null)) return;
    if (!anyway && waitingFor(record).length > 0) return;
    const opening = this.opening(record, setupOf(record), undefined, anyway);
    if (opening !== null) await this.start(record, opening);
  }

  /** The setup events, or null while seats are open or people are awaited. */
  private opening(record: GameRecord, setup: { options: unknown; seats: number }, outcomes: readonly unknown[] | undefined, anyway = false): GameEvent[] | null {
    if (record.seats.some((s) => s.tokenHash === null)) return null;
    if (!anyway && waitingFor(record).length > 0) return null;
    const game = findGame(record.type)!;
    const supplied = record.chanceMode === 'supplied' ? suppliedChance(outcomes ?? [], `${record.seed}:0`) : null;
    try {
      const events = game.setup(game.initialState(setup), { now: this.clock(), chance: supplied ?? serverChance(record.seed, 0) });
      supplied?.assertAllUsed();
      return events;
    } catch (error) {
      throw chanceProblem(error);
    }
  }

  /** The game before and after its opening events. */
  private opened(record: GameRecord, opening: readonly GameEvent[]): { base: LoadedGame; next: LoadedGame } {
    const game = findGame(record.type)!;
    const base: LoadedGame = { record: { ...record, status: 'running' }, game, setup: setupOf(record), version: 0, state: game.initialState(setupOf(record)) };
    return { base, next: advance(base, opening) };
  }

  /** Starts a game whose last open seat was just taken. The append at version 0 also
   * moves it from open to running, so two last joins racing start it once. */
  private async start(waited: GameRecord, opening: GameEvent[]): Promise<void> {
    const at = new Date(this.clock());
    const record = { ...waited, startedAt: at };
    const { base, next } = this.opened(record, opening);
    const outcome = await this.store.append({
      gameId: record.id,
      expectedVersion: 0,
      events: opening,
      actor: 'system',
      at,
      commandId: null,
      status: next.record.status,
      deadline: next.record.deadline,
      idempotency: null,
    });
    if (outcome === 'appended') {
      await this.store.markStarted(record.id, at);
      this.latest.remember(next);
      this.hooks.committed?.(base, opening, next);
    }
  }
}
