// Tournaments: players, rounds paired into tables of one game, results, standings.
// This folder owns the tournament tables and the tournament log (see log.ts); it may
// import src/domain (the pairing, standings and ratings maths is in
// src/domain/tournament), src/bots, src/events, src/state, src/commands (a round's
// games are prepared by GameSetup), src/access, src/lib and src/errors.ts.
//
// Every command follows the recipe in recipe.ts; this file holds the tournament's own
// commands (create, register, withdraw, pair, change the format, end, record tables)
// and what the server does by itself (next rounds, no-shows, catching up).
import { randomUUID } from 'node:crypto';
import { botsFor } from '../bots/index.ts';
import type { GameSetup, PreparedGame } from '../commands/game-setup.ts';
import { validateFormat, type Format } from '../domain/tournament/format.ts';
import { knockoutStandings } from '../domain/tournament/knockout.ts';
import { pairRound } from '../domain/tournament/pairing.ts';
import type { TableResult } from '../domain/tournament/results.ts';
import { defaultPointsScheme, defaultTieBreaks, standings, type Standing } from '../domain/tournament/standings.ts';
import { ServiceError, serviceCodes } from '../errors.ts';
import { hashToken, newSeed, newToken } from '../access/tokens.ts';
import type { GameRecord } from '../events/records.ts';
import type { EventStore } from '../events/store.ts';
import type { LatestStates } from '../state/latest-states.ts';
import { findGame } from '../domain/games.ts';
import type { Ending } from '../domain/lifecycle.ts';
import {
  activePlayers, allByes, allResults, currentRound, currentTable, evolve, fold, noShowCount, rankedPlayers, roundComplete,
  type PlayerEntry, type Settings, type TournamentEvent, type TournamentState,
} from './log.ts';
import { ratingUpdates } from './ratings.ts';
import { nothing, TournamentRecipe, type Decision, type OrganizerId, type TournamentHooks } from './recipe.ts';
import { blockedReason, fieldOf, lastRoundPlayed, outlook, pairingInput, roundDue, type Outlook } from './rounds.ts';
import { playerOf, tableOf, tableResult } from './tables.ts';
import type { TournamentStore } from './tournament-store.ts';

export type { Decision, OrganizerId } from './recipe.ts';

export interface NewTournament {
  readonly name: string;
  readonly gameType: string;
  readonly format: Format;
  readonly settings: Settings;
  readonly players: readonly PlayerEntry[];
}

export interface RoundAnswer {
  readonly round: number;
  /** When a scheduled round will be paired; null when it was paired now. */
  readonly scheduled: string | null;
  readonly tables: readonly { readonly gameId: string; readonly players: readonly string[]; readonly placement?: true }[];
  /** Players left out of this round (not checked in before round 1). */
  readonly leftOut: readonly string[];
}

type Refusal = { readonly violation: string };

export class Tournaments extends TournamentRecipe {
  constructor(
    store: TournamentStore,
    private readonly games: EventStore,
    private readonly setup: GameSetup,
    private readonly latest: LatestStates,
    clock: () => number,
    hooks: TournamentHooks = {},
  ) {
    super(store, clock, hooks);
  }

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

  register(organizerId: OrganizerId, id: string, entries: readonly PlayerEntry[], idempotencyKey?: string) {
    return this.run(id, organizerId, { register: entries }, idempotencyKey, (state) => {
      const { events, players } = this.registering(state, entries);
      return {
        events,
        answer: { players: players.map(({ player, token }) => ({ player, token })) },
        extra: { players: players.flatMap((p) => (p.tokenHash === null ? [] : [{ playerId: p.player, tokenHash: p.tokenHash }])) },
        unblocks: true,
      };
    });
  }

  /** New players' events and tokens, if the tournament still takes players. An entry
   * of self-registration brings its token's hash and its id. */
  registering(state: TournamentState, entries: readonly (PlayerEntry & { readonly tokenHash?: string; readonly entry?: string })[]) {
    if (state.status === 'finished') throw new ServiceError(serviceCodes.tournamentFinished, 'the tournament is over');
    if (state.format.kind === 'knockout' && state.rounds.length > 0) throw new ServiceError(serviceCodes.invalidFormat, 'a knockout takes no players once it has started');
    return this.registrations(state, entries);
  }

  /** A withdrawn player is paired no more; a table they are at is played on by a bot,
   * their token no longer holds that seat, and they rank last there. Not a `resign`:
   * a resignation ends the game for the whole table (docs/lifecycle.md), and the others
   * deserve to finish theirs. The answer says what the next round will look like. */
  withdraw(organizerId: OrganizerId, id: string, playerId: string, idempotencyKey?: string) {
    return this.run(id, organizerId, { withdraw: playerId }, idempotencyKey, (state) => this.withdrawal(state, playerId, 'withdrew'));
  }

  /** The withdrawal's events and what commits with them (a bot takes a seat still playing). */
  withdrawal(state: TournamentState, playerId: string, reason: 'withdrew' | 'removed'): Decision<{ withdrawn: string; table: string | null; outlook: Outlook | null }> {
    playerOf(state, playerId);
    if (state.withdrawn.has(playerId)) throw new ServiceError(serviceCodes.playerWithdrawn, `${playerId} withdrew already`);
    if (state.status === 'finished') throw new ServiceError(serviceCodes.tournamentFinished, 'the tournament is over');
    const events: TournamentEvent[] = [{ type: 'PlayerWithdrew', player: playerId, afterRound: state.rounds.length, ...(reason === 'withdrew' ? {} : { reason }) }];
    const table = currentTable(state, playerId);
    const seated = table !== null && !state.takenOver.has(`${table.gameId}:${playerId}`);
    if (seated) events.push({ type: 'SeatTakenOver', round: table.round, gameId: table.gameId, player: playerId, reason: 'withdrew', forfeited: true });
    const answer = { withdrawn: playerId, table: seated ? table.gameId : null, outlook: outlook(events.reduce(evolve, state)) };
    if (!seated) return { events, answer, unblocks: true };
    const bot = this.substitute(state.gameType);
    return {
      events,
      answer,
      extra: { within: (client) => this.store.seatBot(client, table.gameId, table.seat, bot) },
      after: () => this.botSeated(table.gameId),
      unblocks: true,
    };
  }

  /** Pairs the next round now, or schedules it (`at`). A round that cannot be paired is
   * refused (`tournament/pairing-impossible`), nothing written. */
  pair(organizerId: OrganizerId, id: string, request: { round?: number; at?: Date }, idempotencyKey?: string) {
    return this.run(id, organizerId, { pair: request.round ?? null, at: request.at?.toISOString() ?? null }, idempotencyKey, async (state): Promise<Decision<RoundAnswer>> => {
      const next = this.nextRound(state, request.round);
      if (request.at !== undefined && request.at.getTime() > this.clock()) {
        return { events: [{ type: 'RoundScheduled', round: next, at: request.at.toISOString() }], answer: { round: next, scheduled: request.at.toISOString(), tables: [], leftOut: [] } };
      }
      const paired = await this.pairing(state, next);
      if ('violation' in paired) throw new ServiceError(serviceCodes.pairingImpossible, paired.violation);
      return paired;
    });
  }

  /** The organizer changes the format for the rounds to come (table sizes, byes,
   * rounds; not its kind): the way out of a blocked round, or a shorter tournament. */
  changeFormat(organizerId: OrganizerId, id: string, format: Format, idempotencyKey?: string) {
    return this.run(id, organizerId, { format }, idempotencyKey, (state): Decision<{ format: Format; outlook: Outlook | null; finished: boolean }> => {
      if (state.status === 'finished') throw new ServiceError(serviceCodes.tournamentFinished, 'the tournament is over');
      if (format.kind !== state.format.kind) throw new ServiceError(serviceCodes.invalidFormat, `a ${state.format.kind} stays a ${state.format.kind}: its kind cannot change`);
      const refused = validateFormat(format, state.gameType, Math.max(activePlayers(state).length, format.tableSize.max));
      if (refused !== null) throw new ServiceError(serviceCodes.invalidFormat, refused);
      if (format.kind !== 'knockout' && format.rounds < Math.max(1, state.rounds.length)) {
        throw new ServiceError(serviceCodes.invalidFormat, `${state.rounds.length} rounds were paired already: the tournament cannot have ${format.rounds}`);
      }
      const events: TournamentEvent[] = [{ type: 'FormatChanged', format }];
      const changed = events.reduce(evolve, state);
      // Fewer rounds may make the round just played the last.
      const over = lastRoundPlayed(changed);
      if (over) events.push({ type: 'StandingsChanged', round: state.rounds.length, standings: this.standingsOf(changed) }, { type: 'TournamentFinished', round: state.rounds.length });
      return { events, answer: { format, outlook: over ? null : outlook(changed), finished: over }, unblocks: true };
    });
  }

  /** The organizer ends the tournament now (once no table is playing): the standings
   * as they are are its final ones. */
  end(organizerId: OrganizerId, id: string, reason: string, idempotencyKey?: string) {
    return this.run(id, organizerId, { end: reason }, idempotencyKey, (state): Decision<{ finished: true; round: number }> => {
      if (state.status === 'finished') throw new ServiceError(serviceCodes.tournamentFinished, 'the tournament is over');
      const round = currentRound(state);
      if (round !== undefined && !roundComplete(state, round)) throw new ServiceError(serviceCodes.roundInProgress, `round ${round.round} still has tables playing: adjudicate them first`);
      const played = round?.round ?? 0;
      return {
        events: [{ type: 'StandingsChanged', round: played, standings: this.standingsOf(state) }, { type: 'TournamentFinished', round: played, endedBy: 'organizer', reason }],
        answer: { finished: true, round: played },
      };
    });
  }

  /** Records the result of a finished table (the server does it by itself when a game
   * ends; this is for an organizer who wants to be sure, and for catching up). */
  record(organizerId: OrganizerId, id: string, gameId: string) {
    return this.run(id, organizerId, null, undefined, async (state) => {
      tableOf(state, gameId);
      return this.finishing(state, [gameId]);
    });
  }

  /** The committed hook of games: a finished table of a tournament is recorded. */
  gameFinished(record: GameRecord): void {
    if (record.status !== 'finished' || record.tournament === null) return;
    this.inBackground(this.record(null, record.tournament.id, record.id));
  }

  /** Catches up what a restart or a lost hook left behind: finished tables not yet
   * recorded, rounds owed (due, or complete with advance "auto"), no-shows past their
   * table's deadline. */
  async attend(): Promise<void> {
    for (const id of await this.store.needingAttention(new Date(this.clock()))) await this.catchUp(id);
    for (const id of await this.store.running()) await this.noShows(id);
  }

  private async catchUp(id: string): Promise<void> {
    await this.run(id, null, null, undefined, async (state): Promise<Decision<unknown>> => {
      const round = currentRound(state);
      const finished = round === undefined ? [] : await this.finishedGames(round.tables.map((t) => t.gameId).filter((g) => !state.results.has(g)));
      if (finished.length > 0) return this.finishing(state, finished);
      return roundDue(state, this.clock()) ? this.pairOrBlock(state) : nothing(null);
    });
  }

  /** The server pairs the round it owes; one it cannot pair blocks the tournament, with
   * the reason in the log (once: the same reason again writes nothing). */
  protected advance(id: string): Promise<unknown> {
    return this.run(id, null, null, undefined, (state) => (roundDue({ ...state, blocked: null }, this.clock()) ? this.pairOrBlock(state) : nothing(null)));
  }

  private async pairOrBlock(state: TournamentState): Promise<Decision<unknown>> {
    const round = state.rounds.length + 1;
    const paired = await this.pairing(state, round);
    if (!('violation' in paired)) return paired;
    const reason = blockedReason(paired.violation);
    if (state.blocked?.round === round && state.blocked.reason === reason) return nothing(null);
    return { events: [{ type: 'TournamentBlocked', round, reason }], answer: null };
  }

  /** A seat of the current round is a no-show once the table deadline has passed, its
   * player has never opened the table (nor sent a command), and the game waits on it
   * (its turn, a reaction it is asked for): then a bot takes it. A silent seat whose
   * turn has not come is left alone until it does; the attendance ticker (attend(),
   * every second) looks again. A player with `absentAfter` no-shows is left out of
   * later rounds. */
  async noShows(id: string): Promise<void> {
    await this.run(id, null, null, undefined, async (state) => {
      const round = currentRound(state);
      const rule = state.settings.noShow;
      if (round === undefined || rule === undefined || round.tableDeadline === null || Date.parse(round.tableDeadline) > this.clock()) return nothing(null);
      const running = round.tables.filter((t) => !state.results.has(t.gameId));
      const silent = await this.store.silentSeats(running.map((t) => t.gameId));
      const bot = this.substitute(state.gameType);
      const candidates = running.flatMap((t) => (silent.get(t.gameId) ?? []).map((seat) => ({ gameId: t.gameId, seat, player: t.players[seat]! }))).filter((s) => !state.takenOver.has(`${s.gameId}:${s.player}`));
      const awaited = await this.awaitedSeats(new Set(candidates.map((s) => s.gameId)));
      const seats = candidates.filter((s) => awaited.get(s.gameId)!.includes(s.seat));
      const events: TournamentEvent[] = seats.map((s) => ({ type: 'SeatTakenOver', round: round.round, gameId: s.gameId, player: s.player, reason: 'no-show', forfeited: rule.action === 'forfeit' }));
      const after = events.reduce(evolve, state);
      const limit = rule.absentAfter ?? 1;
      for (const player of new Set(seats.map((s) => s.player))) {
        if (limit === 0 || noShowCount(after, player) < limit || after.withdrawn.has(player) || after.absent.has(player)) continue;
        events.push(rule.then === 'withdraw' ? { type: 'PlayerWithdrew', player, afterRound: round.round, reason: 'no-show' } : { type: 'PlayerAbsent', player, fromRound: round.round + 1, reason: 'no-show' });
      }
      return {
        events,
        answer: seats,
        extra: { within: async (client) => { for (const s of seats) await this.store.seatBot(client, s.gameId, s.seat, bot); } },
        after: () => new Set(seats.map((s) => s.gameId)).forEach((g) => this.botSeated(g)),
      };
    });
  }

  standingsOf(state: TournamentState): Standing[] {
    const rank = state.format.kind === 'knockout' ? knockoutStandings : standings;
    return rank(rankedPlayers(state), allResults(state), allByes(state), state.settings.points ?? defaultPointsScheme, state.settings.tieBreaks ?? defaultTieBreaks);
  }

  /** The player holding a tournament token, and where they play now. */
  async me(token: string) {
    const found = await this.store.playerByToken(hashToken(token));
    if (found === null) return null;
    const state = await this.state(found.tournamentId);
    return { state, player: playerOf(state, found.playerId), table: currentTable(state, found.playerId) };
  }

  // ——— deciding ———

  private registrations(state: TournamentState, entries: readonly (PlayerEntry & { readonly tokenHash?: string; readonly entry?: string })[]) {
    const bots = botsFor(state.gameType) ?? {};
    const players: { player: string; token: string | null; tokenHash: string | null }[] = [];
    const externalIds = new Set(state.players.flatMap((p) => (p.externalId === undefined ? [] : [p.externalId])));
    const events: TournamentEvent[] = entries.map(({ tokenHash: knownHash, entry: from, ...entry }, i) => {
      if (entry.bot !== undefined && !Object.hasOwn(bots, entry.bot)) {
        throw new ServiceError(serviceCodes.invalidSetup, `player ${i}: no bot "${entry.bot}" for ${state.gameType}; there are ${Object.keys(bots).join(', ')}`);
      }
      // A rating row per external id: two entries sharing one would be rated as one player.
      if (entry.externalId !== undefined) {
        if (externalIds.has(entry.externalId)) throw new ServiceError(serviceCodes.duplicateExternalId, `player ${i}: externalId "${entry.externalId}" is registered already`, { externalId: entry.externalId });
        externalIds.add(entry.externalId);
      }
      const id = `p${state.players.length + i + 1}`;
      const token = entry.bot === undefined && knownHash === undefined ? newToken() : null;
      players.push({ player: id, token, tokenHash: knownHash ?? (token === null ? null : hashToken(token)) });
      return { type: 'PlayerRegistered', player: { id, ...entry }, ...(from === undefined ? {} : { entry: from }) };
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

  /** The round's pairing and its games, prepared; written with the round's event (and,
   * before round 1 after a check-in, with who is left out for not checking in). */
  private async pairing(state: TournamentState, round: number): Promise<Decision<RoundAnswer> | Refusal> {
    const { players, notCheckedIn } = fieldOf(state, round);
    const refused = state.format.kind === 'knockout' && round > 1 ? null : validateFormat(state.format, state.gameType, players.length);
    if (refused !== null) return { violation: refused };
    const pairing = pairRound(pairingInput(state, round, players));
    if ('violation' in pairing) return pairing;
    const byId = new Map(state.players.map((p) => [p.id, p]));
    // People's seats carry their tournament token's hash, so that one token plays every table.
    const hashes = await this.store.tokenHashes(state.id);
    const prepared: PreparedGame[] = pairing.tables.map((table) =>
      this.setup.prepare(
        { type: state.gameType, seats: table.players.map((p) => ({ name: byId.get(p)!.name, ...(byId.get(p)!.bot === undefined ? {} : { bot: byId.get(p)!.bot }) })), options: state.settings.options as Readonly<Record<string, unknown>> | undefined, chance: 'server', organizerId: state.organizerId },
        { tournament: { id: state.id, round }, seatTokenHashes: table.players.map((p) => hashes.get(p) ?? null) },
      ),
    );
    const tables = prepared.map((game, i) => ({ gameId: game.record.id, players: pairing.tables[i]!.players, ...(pairing.tables[i]!.placement ? { placement: true as const } : {}) }));
    const deadline = state.settings.noShow === undefined ? null : new Date(this.clock() + state.settings.noShow.afterSeconds * 1000).toISOString();
    const leftOut = notCheckedIn.map((p) => p.id);
    return {
      events: [
        ...leftOut.map((player): TournamentEvent => ({ type: 'PlayerAbsent', player, fromRound: round, reason: 'not-checked-in' })),
        { type: 'RoundPaired', round, tables, byes: pairing.byes, repeats: pairing.repeats, tableDeadline: deadline },
      ],
      answer: { round, scheduled: null, tables, leftOut },
      extra: {
        tables: tables.map((t) => ({ gameId: t.gameId, players: t.players, round })),
        within: (client) =>
          this.games.insertGames(client, prepared.map((game) => ({ record: game.started!.record, events: game.opening!.map((event, i) => ({ seq: i + 1, event, actor: 'system', at: game.record.createdAt })) }))),
      },
      after: () => prepared.forEach((game) => this.setup.published(game)),
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
      const { round, table } = tableOf(state, gameId);
      const ending = loaded.game.ending?.(loaded.state) as Ending | null | undefined;
      const outcome = tableResult(state, gameId, round, table, result);
      results.push(outcome);
      events.push({ type: 'TableFinished', round, gameId, result: outcome, ...(ending?.kind === 'adjudicated' ? { adjudicated: { reason: ending.reason } } : {}) });
    }
    const after = events.reduce(evolve, state);
    const round = currentRound(after);
    if (round !== undefined && fresh.length > 0 && roundComplete(after, round)) {
      events.push({ type: 'StandingsChanged', round: round.round, standings: this.standingsOf(after) });
      if (lastRoundPlayed(after)) events.push({ type: 'TournamentFinished', round: round.round });
    }
    const next = events.reduce(evolve, state);
    const rated = state.settings.rated ? results : [];
    return {
      events,
      answer: { recorded: fresh },
      extra: { within: rated.length === 0 ? undefined : (client) => ratingUpdates(this.store, client, state, rated, new Date(this.clock())) },
      after: roundDue(next, this.clock()) ? () => this.inBackground(this.advance(state.id)) : undefined,
    };
  }

  private async finishedGames(gameIds: readonly string[]): Promise<string[]> {
    const finished: string[] = [];
    for (const id of gameIds) if ((await this.games.loadGame(id))?.status === 'finished') finished.push(id);
    return finished;
  }

  /** The seats each game waits on now: whose turn it is, whose reaction it asks for. */
  private async awaitedSeats(gameIds: ReadonlySet<string>): Promise<Map<string, readonly number[]>> {
    const awaited = new Map<string, readonly number[]>();
    for (const gameId of gameIds) {
      // The latest-state cache, as the bots read it: every commit here and every other
      // instance's notice keeps it current, and this runs every second.
      const { game, state } = this.latest.peek(gameId) ?? (await this.latest.load(gameId));
      awaited.set(gameId, game.pending(state).seats);
    }
    return awaited;
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


}
