// Tournaments: players, rounds paired into tables of one game, results, standings.
// This folder owns the tournament tables and the tournament log (see log.ts); it may
// import src/domain (the pairing, standings and ratings maths is in
// src/domain/tournament), src/bots, src/events, src/state, src/commands (a round's
// games are prepared by GameSetup), src/access, src/lib and src/errors.ts.
//
// Every command is a recipe like a game's: read the tournament's state, decide its
// events, append them at the version read in one transaction together with what must
// commit with them (a round's games!), then tell the games and the feed. Within an
// instance a tournament's commands queue one after another; across instances the
// version check lets one writer win and the other retries on the new state.
import { randomUUID } from 'node:crypto';
import { botsFor } from '../bots/index.ts';
import type { GameSetup, PreparedGame } from '../commands/game-setup.ts';
import { validateFormat, type Format } from '../domain/tournament/format.ts';
import { isComplete, pairRound } from '../domain/tournament/pairing.ts';
import type { TableResult } from '../domain/tournament/results.ts';
import { defaultPointsScheme, defaultTieBreaks, standings, type Standing } from '../domain/tournament/standings.ts';
import { ServiceError, serviceCodes } from '../errors.ts';
import { hashToken, newSeed, newToken, sha256 } from '../access/tokens.ts';
import type { GameRecord } from '../events/records.ts';
import type { EventStore } from '../events/store.ts';
import { KeyedQueue } from '../lib/keyed-queue.ts';
import type { LatestStates } from '../state/latest-states.ts';
import { findGame } from '../domain/games.ts';
import {
  activePlayers, allByes, allResults, currentRound, currentTable, evolve, fold, roundComplete,
  type PlayerEntry, type Player, type Settings, type TournamentEvent, type TournamentState, type TournamentStatus,
} from './log.ts';
import { ratingUpdates } from './ratings.ts';
import type { TournamentAppend, TournamentStore } from './tournament-store.ts';

export interface NewTournament {
  readonly name: string;
  readonly gameType: string;
  readonly format: Format;
  readonly settings: Settings;
  readonly players: readonly PlayerEntry[];
}

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

const MAX_ATTEMPTS = 5;

export interface RoundAnswer {
  readonly round: number;
  /** When a scheduled round will be paired; null when it was paired now. */
  readonly scheduled: string | null;
  readonly tables: readonly { readonly gameId: string; readonly players: readonly string[] }[];
}

/** One decision on a tournament: its events and what commits with them, and the answer. */
interface Decision<T> {
  readonly events: readonly TournamentEvent[];
  readonly answer: T;
  readonly extra?: Pick<TournamentAppend, 'players' | 'tables' | 'within'>;
  /** After the commit, e.g. publishing a round's games. */
  readonly after?: () => void;
  readonly nextRoundAt?: Date | null;
}

export class Tournaments {
  private readonly states = new Map<string, TournamentState>();
  private readonly queue = new KeyedQueue();
  /** Work the server started by itself (recording a finished table, pairing the next round). */
  private readonly background = new Set<Promise<unknown>>();

  constructor(
    private readonly store: TournamentStore,
    private readonly games: EventStore,
    private readonly setup: GameSetup,
    private readonly latest: LatestStates,
    private readonly clock: () => number,
    private readonly hooks: TournamentHooks = {},
  ) {}

  async create(organizerId: string, request: NewTournament): Promise<{ state: TournamentState; tokens: { player: string; token: string | null }[] }> {
    const game = findGame(request.gameType);
    if (game === undefined) throw new ServiceError(serviceCodes.unknownGameType, `no game of type "${request.gameType}" in the catalog`);
    const options = game.optionsSchema.safeParse(request.settings.options ?? {});
    if (!options.success) throw new ServiceError(serviceCodes.invalidSetup, `invalid options: ${options.error.issues.map((i) => i.message).join('; ')}`);
    // The field may still grow by late registration; the table sizes must fit the game now.
    const refused = validateFormat(request.format, request.gameType, Math.max(request.players.length, request.format.tableSize.max));
    if (refused !== null) throw new ServiceError(serviceCodes.invalidFormat, refused);
    const id = randomUUID();
    const createdEvent: TournamentEvent = { type: 'TournamentCreated', name: request.name, gameType: game.type, format: request.format, settings: { ...request.settings, options: options.data }, seed: newSeed(), organizerId };
    const base = fold(id, [createdEvent]);
    const { events, players } = this.registrations(base, request.players);
    const at = new Date(this.clock());
    await this.store.create(
      { id, organizerId, name: request.name, gameType: game.type, status: 'registering' },
      { events: [createdEvent, ...events], at, status: 'registering', nextRoundAt: null, players: players.flatMap((p) => (p.tokenHash === null ? [] : [{ playerId: p.player, tokenHash: p.tokenHash }])) },
    );
    const state = events.reduce(evolve, base);
    this.states.set(id, state);
    this.hooks.appended?.(id, 1, [createdEvent, ...events]);
    return { state, tokens: players.map(({ player, token }) => ({ player, token })) };
  }

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

  register(organizerId: OrganizerId, id: string, entries: readonly PlayerEntry[], idempotencyKey?: string) {
    return this.command(id, organizerId, { register: entries }, idempotencyKey, (state) => {
      if (state.status === 'finished') throw new ServiceError(serviceCodes.tournamentFinished, 'the tournament is over');
      if (state.format.kind === 'knockout' && state.rounds.length > 0) throw new ServiceError(serviceCodes.invalidFormat, 'a knockout takes no players once it has started');
      const { events, players } = this.registrations(state, entries);
      return {
        events,
        answer: { players: players.map(({ player, token }) => ({ player, token })) },
        extra: { players: players.flatMap((p) => (p.tokenHash === null ? [] : [{ playerId: p.player, tokenHash: p.tokenHash }])) },
      };
    });
  }

  /** A withdrawn player is paired no more; a table they are at is played on by a bot,
   * their token no longer holds that seat, and they rank last there. Not a `resign`:
   * a resignation ends the game for the whole table (docs/lifecycle.md), and the others
   * deserve to finish theirs. */
  withdraw(organizerId: OrganizerId, id: string, playerId: string, idempotencyKey?: string) {
    return this.command(id, organizerId, { withdraw: playerId }, idempotencyKey, async (state): Promise<Decision<{ withdrawn: string; table: string | null }>> => {
      this.player(state, playerId);
      if (state.withdrawn.has(playerId)) throw new ServiceError(serviceCodes.playerWithdrawn, `${playerId} withdrew already`);
      if (state.status === 'finished') throw new ServiceError(serviceCodes.tournamentFinished, 'the tournament is over');
      const table = currentTable(state, playerId);
      const events: TournamentEvent[] = [{ type: 'PlayerWithdrew', player: playerId, afterRound: state.rounds.length }];
      if (table === null || state.takenOver.has(`${table.gameId}:${playerId}`)) return { events, answer: { withdrawn: playerId, table: null } };
      events.push({ type: 'SeatTakenOver', round: table.round, gameId: table.gameId, player: playerId, reason: 'withdrew', forfeited: true });
      const bot = this.substitute(state.gameType);
      return {
        events,
        answer: { withdrawn: playerId, table: table.gameId },
        extra: { within: (client) => this.store.seatBot(client, table.gameId, table.seat, bot) },
        after: () => this.botSeated(table.gameId),
      };
    });
  }

  /** Pairs the next round now, or schedules it (`at`). */
  pair(organizerId: OrganizerId, id: string, request: { round?: number; at?: Date }, idempotencyKey?: string) {
    return this.command(id, organizerId, { pair: request.round ?? null, at: request.at?.toISOString() ?? null }, idempotencyKey, async (state): Promise<Decision<RoundAnswer>> => {
      const next = this.nextRound(state, request.round);
      if (request.at !== undefined && request.at.getTime() > this.clock()) {
        return { events: [{ type: 'RoundScheduled', round: next, at: request.at.toISOString() }], answer: { round: next, scheduled: request.at.toISOString(), tables: [] }, nextRoundAt: request.at };
      }
      return this.pairing(state, next);
    });
  }

  /** Records the result of a finished table (the server does it by itself when a game
   * ends; this is for an organizer who wants to be sure, and for catching up). */
  record(organizerId: OrganizerId, id: string, gameId: string) {
    return this.command(id, organizerId, null, undefined, async (state) => {
      if (!state.rounds.some((r) => r.tables.some((t) => t.gameId === gameId))) {
        throw new ServiceError(serviceCodes.gameNotInTournament, `game ${gameId} is no table of tournament ${id}`);
      }
      return this.finishing(state, [gameId]);
    });
  }

  /** The committed hook of games: a finished table of a tournament is recorded. */
  gameFinished(record: GameRecord): void {
    if (record.status !== 'finished' || record.tournament === null) return;
    this.inBackground(this.record(null, record.tournament.id, record.id));
  }

  /** Settles once the server's own tournament work has finished. */
  async idle(): Promise<void> {
    while (this.background.size > 0) await Promise.all([...this.background]);
  }

  /** What fails here is reported, and caught up by attend(): nothing is lost by it. */
  private inBackground(work: Promise<unknown>): void {
    const tracked = work.then(() => undefined, (error: unknown) => this.hooks.failed?.(error)).finally(() => this.background.delete(tracked));
    this.background.add(tracked);
  }

  /** Catches up what a restart or a lost hook left behind: finished tables not yet
   * recorded, rounds due to be paired, no-shows past their table's deadline. */
  async attend(): Promise<void> {
    for (const id of await this.store.needingAttention(new Date(this.clock()))) await this.catchUp(id);
    for (const row of await this.store.list(null)) if (row.status === 'running') await this.noShows(row.id);
  }

  private async catchUp(id: string): Promise<void> {
    await this.command(id, null, null, undefined, async (state): Promise<Decision<unknown>> => {
      const round = currentRound(state);
      const finished = round === undefined ? [] : await this.finishedGames(round.tables.map((t) => t.gameId).filter((g) => !state.results.has(g)));
      if (finished.length > 0) return this.finishing(state, finished);
      if (state.scheduled !== null && Date.parse(state.scheduled.at) <= this.clock() && (round === undefined || roundComplete(state, round))) return this.pairing(state, state.scheduled.round);
      return { events: [], answer: null };
    });
  }

  /** Seats of the current round that sent nothing by the table deadline go to a bot. */
  async noShows(id: string): Promise<void> {
    await this.command(id, null, null, undefined, async (state) => {
      const round = currentRound(state);
      const rule = state.settings.noShow;
      if (round === undefined || rule === undefined || round.tableDeadline === null || Date.parse(round.tableDeadline) > this.clock()) return { events: [], answer: null };
      const running = round.tables.filter((t) => !state.results.has(t.gameId));
      const silent = await this.store.silentSeats(running.map((t) => t.gameId));
      const bot = this.substitute(state.gameType);
      const seats = running.flatMap((t) => (silent.get(t.gameId) ?? []).map((seat) => ({ gameId: t.gameId, seat, player: t.players[seat]! }))).filter((s) => !state.takenOver.has(`${s.gameId}:${s.player}`));
      return {
        events: seats.map((s) => ({ type: 'SeatTakenOver', round: round.round, gameId: s.gameId, player: s.player, reason: 'no-show', forfeited: rule.action === 'forfeit' }) as const),
        answer: seats,
        extra: { within: async (client) => { for (const s of seats) await this.store.seatBot(client, s.gameId, s.seat, bot); } },
        after: () => new Set(seats.map((s) => s.gameId)).forEach((g) => this.botSeated(g)),
      };
    });
  }

  standingsOf(state: TournamentState): Standing[] {
    return standings(state.players.map((p) => p.id), allResults(state), allByes(state), state.settings.points ?? defaultPointsScheme, state.settings.tieBreaks ?? defaultTieBreaks);
  }

  /** The player holding a tournament token, and where they play now. */
  async me(token: string) {
    const found = await this.store.playerByToken(hashToken(token));
    if (found === null) throw new ServiceError(serviceCodes.unknownToken, 'this token belongs to no tournament player');
    const state = await this.state(found.tournamentId);
    return { state, player: this.player(state, found.playerId), table: currentTable(state, found.playerId) };
  }

  // ——— deciding ———

  private registrations(state: TournamentState, entries: readonly PlayerEntry[]) {
    const bots = botsFor(state.gameType) ?? {};
    const players: { player: string; token: string | null; tokenHash: string | null }[] = [];
    const events: TournamentEvent[] = entries.map((entry, i) => {
      if (entry.bot !== undefined && !Object.hasOwn(bots, entry.bot)) {
        throw new ServiceError(serviceCodes.invalidSetup, `player ${i}: no bot "${entry.bot}" for ${state.gameType}; there are ${Object.keys(bots).join(', ')}`);
      }
      const id = `p${state.players.length + i + 1}`;
      const token = entry.bot === undefined ? newToken() : null;
      players.push({ player: id, token, tokenHash: token === null ? null : hashToken(token) });
      return { type: 'PlayerRegistered', player: { id, ...entry } };
    });
    return { events, players };
  }

  private nextRound(state: TournamentState, requested: number | undefined): number {
    if (state.status === 'finished') throw new ServiceError(serviceCodes.tournamentFinished, 'the tournament is over');
    const next = state.rounds.length + 1;
    if (requested !== undefined && requested < next) throw new ServiceError(serviceCodes.roundAlreadyPaired, `round ${requested} was paired already; the next is round ${next}`);
    if (requested !== undefined && requested > next) throw new ServiceError(serviceCodes.validation, `the next round is round ${next}, not ${requested}`);
    const current = currentRound(state);
    if (current !== undefined && !roundComplete(state, current)) throw new ServiceError(serviceCodes.roundInProgress, `round ${current.round} still has tables playing`);
    return next;
  }

  /** The round's pairing and its games, prepared; written with the round's event. */
  private async pairing(state: TournamentState, round: number): Promise<Decision<RoundAnswer>> {
    const active = activePlayers(state);
    const refused = validateFormat(state.format, state.gameType, active.length);
    if (refused !== null) throw new ServiceError(serviceCodes.pairingImpossible, refused);
    const pairing = pairRound({
      format: state.format,
      round,
      players: active.map((p) => (p.seed === undefined ? { id: p.id } : { id: p.id, seed: p.seed })),
      results: allResults(state),
      byes: allByes(state),
      seed: state.seed,
      scheme: state.settings.points ?? defaultPointsScheme,
      tieBreaks: state.settings.tieBreaks ?? defaultTieBreaks,
    });
    if ('violation' in pairing) throw new ServiceError(serviceCodes.pairingImpossible, pairing.violation);
    const byId = new Map(state.players.map((p) => [p.id, p]));
    // People's seats carry their tournament token's hash, so that one token plays every table.
    const hashes = await this.store.tokenHashes(state.id);
    const prepared: PreparedGame[] = pairing.tables.map((table) =>
      this.setup.prepare(
        { type: state.gameType, seats: table.players.map((p) => ({ name: byId.get(p)!.name, ...(byId.get(p)!.bot === undefined ? {} : { bot: byId.get(p)!.bot }) })), options: state.settings.options as Readonly<Record<string, unknown>> | undefined, chance: 'server', organizerId: state.organizerId },
        { tournament: { id: state.id, round }, seatTokenHashes: table.players.map((p) => hashes.get(p) ?? null) },
      ),
    );
    const tables = prepared.map((game, i) => ({ gameId: game.record.id, players: pairing.tables[i]!.players }));
    const deadline = state.settings.noShow === undefined ? null : new Date(this.clock() + state.settings.noShow.afterSeconds * 1000).toISOString();
    return {
      events: [{ type: 'RoundPaired', round, tables, byes: pairing.byes, repeats: pairing.repeats, tableDeadline: deadline }],
      answer: { round, scheduled: null, tables },
      extra: {
        tables: tables.map((t) => ({ ...t, round })),
        within: (client) =>
          this.games.insertGames(client, prepared.map((game) => ({ record: game.started!.record, events: game.opening!.map((event, i) => ({ seq: i + 1, event, actor: 'system', at: game.record.createdAt })) }))),
      },
      after: () => prepared.forEach((game) => this.setup.published(game)),
      nextRoundAt: null,
    };
  }

  /** TableFinished for each of `gameIds` (finished games), then what a complete round brings. */
  private async finishing(state: TournamentState, gameIds: readonly string[]): Promise<Decision<{ recorded: string[] }>> {
    const fresh = gameIds.filter((g) => !state.results.has(g));
    const events: TournamentEvent[] = [];
    const results: TableResult[] = [];
    for (const gameId of fresh) {
      const loaded = await this.latest.load(gameId);
      const result = loaded.game.result(loaded.state);
      if (result === null) throw new ServiceError(serviceCodes.notFinished, `game ${gameId} is still running`);
      const round = state.rounds.find((r) => r.tables.some((t) => t.gameId === gameId))!;
      const players = round.tables.find((t) => t.gameId === gameId)!.players;
      const forfeited = state.forfeits.get(gameId);
      const table: TableResult = { tableId: gameId, round: round.round, players, ranks: result.ranks, scores: result.scores, ...(forfeited === undefined ? {} : { forfeited }) };
      results.push(table);
      events.push({ type: 'TableFinished', round: round.round, gameId, result: table });
    }
    const after = events.reduce(evolve, state);
    const round = currentRound(after);
    let advance = false;
    if (round !== undefined && fresh.length > 0 && roundComplete(after, round)) {
      events.push({ type: 'StandingsChanged', round: round.round, standings: this.standingsOf(after) });
      const over = after.format.kind === 'knockout' ? isComplete(after.format, round.round, allResults(after)) : round.round >= after.format.rounds;
      if (over) events.push({ type: 'TournamentFinished', round: round.round });
      else advance = after.settings.advance === 'auto' && after.scheduled === null;
    }
    const rated = state.settings.rated ? results : [];
    return {
      events,
      answer: { recorded: fresh },
      extra: { within: rated.length === 0 ? undefined : (client) => ratingUpdates(this.store, client, state, rated, new Date(this.clock())) },
      after: advance ? () => this.inBackground(this.pair(null, state.id, {})) : undefined,
    };
  }

  private async finishedGames(gameIds: readonly string[]): Promise<string[]> {
    const finished: string[] = [];
    for (const id of gameIds) if ((await this.games.loadGame(id))?.status === 'finished') finished.push(id);
    return finished;
  }

  private player(state: TournamentState, playerId: string): Player {
    const player = state.players.find((p) => p.id === playerId);
    if (player === undefined) throw new ServiceError(serviceCodes.unknownPlayer, `tournament ${state.id} has no player ${playerId}`);
    return player;
  }

  /** The bot that takes over a seat: the game's greedy one if it has one. */
  private substitute(gameType: string): string {
    const bots = Object.keys(botsFor(gameType) ?? {});
    return bots.includes('greedy') ? 'greedy' : bots[0]!;
  }

  private botSeated(gameId: string): void {
    this.latest.forget(gameId);
    this.hooks.botSeated?.(gameId);
  }

  // ——— the recipe ———

  /** Reads, decides, appends at the version read (retrying a lost race on the new
   * state), answers a retried idempotent command from its record. */
  private command<T>(id: string, organizerId: OrganizerId, request: unknown, idempotencyKey: string | undefined, decide: (state: TournamentState) => Decision<T> | Promise<Decision<T>>): Promise<T> {
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
        const outcome = await this.store.append({
          tournamentId: id,
          expectedVersion: state.version,
          events: decision.events,
          at: new Date(this.clock()),
          status: next.status as TournamentStatus,
          nextRoundAt: next.scheduled === null ? null : new Date(next.scheduled.at),
          ...decision.extra,
          ...(idempotencyKey === undefined ? {} : { idempotency: { key: idempotencyKey, requestHash, response: decision.answer } }),
        });
        if (outcome === 'appended') {
          this.states.set(id, next);
          this.hooks.appended?.(id, state.version + 1, decision.events);
          decision.after?.();
          return decision.answer;
        }
        this.states.delete(id);
        if (attempt >= MAX_ATTEMPTS) throw new ServiceError(serviceCodes.conflict, 'the tournament kept changing; retry');
      }
    });
  }
}
