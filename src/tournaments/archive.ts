// A whole tournament as one document — its log, its players' token hashes and every
// game with its events — that another instance imports and replays identically; and
// every game of a tournament as NDJSON, one game a line. Imports are checked by
// replaying everything before anything is written, then written in one transaction.
import { z } from 'zod';
import { findGame } from '../domain/games.ts';
import { ServiceError, serviceCodes } from '../errors.ts';
import { maxBotThinkMs, type GameRecord } from '../events/records.ts';
import type { EventStore } from '../events/store.ts';
import { fold, type TournamentEvent, type TournamentState } from './log.ts';
import type { TournamentStore } from './tournament-store.ts';

const StoredGameEvent = z.object({ seq: z.int().min(1), event: z.looseObject({ type: z.string() }), actor: z.string(), at: z.iso.datetime({ offset: true }) });
const Seat = z.object({ seat: z.int().min(0), name: z.string().nullable(), tokenHash: z.string().nullable(), joinedAt: z.iso.datetime({ offset: true }).nullable(), bot: z.string().nullable() });
const GameCopy = z.object({
  record: z.object({
    id: z.uuid(), type: z.string(), rulesVersion: z.string(), options: z.unknown(), seatCount: z.int().min(1), chanceMode: z.enum(['server', 'supplied']),
    seed: z.string(), seedHash: z.string(), seedNonce: z.string().nullable().default(null), seedChosenBy: z.enum(['creator', 'server']).nullable().default(null), botThinkMs: z.int().min(0).max(maxBotThinkMs).nullable().default(null), refereeTokenHash: z.string(), status: z.enum(['open', 'running', 'finished']), version: z.int().min(0),
    deadline: z.iso.datetime({ offset: true }).nullable(), createdAt: z.iso.datetime({ offset: true }), updatedAt: z.iso.datetime({ offset: true }), finishedAt: z.iso.datetime({ offset: true }).nullable(),
    seats: z.array(Seat),
  }),
  events: z.array(StoredGameEvent),
});

export const Archive = z
  .object({
    format: z.literal('spielwerk-tournament-archive'),
    version: z.literal(1),
    tournament: z.object({ id: z.uuid(), name: z.string(), gameType: z.string(), status: z.enum(['registering', 'running', 'finished']), createdAt: z.iso.datetime({ offset: true }) }),
    events: z.array(z.object({ seq: z.int().min(1), at: z.iso.datetime({ offset: true }), event: z.looseObject({ type: z.string() }) })).min(1),
    players: z.array(z.object({ playerId: z.string(), tokenHash: z.string() })),
    games: z.array(GameCopy),
  })
  .meta({ id: 'TournamentArchive' });
export type Archive = z.infer<typeof Archive>;

const iso = (date: Date | null) => date?.toISOString() ?? null;

function recordCopy(record: GameRecord): z.infer<typeof GameCopy>['record'] {
  return {
    id: record.id, type: record.type, rulesVersion: record.rulesVersion, options: record.options, seatCount: record.seatCount, chanceMode: record.chanceMode,
    seed: record.seed, seedHash: record.seedHash, seedNonce: record.seedNonce, seedChosenBy: record.seedChosenBy, botThinkMs: record.botThinkMs, refereeTokenHash: record.refereeTokenHash, status: record.status, version: record.version,
    deadline: iso(record.deadline), createdAt: record.createdAt.toISOString(), updatedAt: record.updatedAt.toISOString(), finishedAt: iso(record.finishedAt),
    seats: record.seats.map((s) => ({ ...s, joinedAt: iso(s.joinedAt) })),
  };
}

/** `value` as JSON with `"events": eventsJson` added as its last field: the events'
 * JSON text comes from the store and is copied as it is. */
const withEvents = (value: object, eventsJson: string | null): string => `${JSON.stringify(value).slice(0, -1)},"events":${eventsJson ?? 'null'}}`;

const tableIds = (state: TournamentState): string[] => state.rounds.flatMap((r) => r.tables.map((t) => t.gameId));

export class TournamentArchives {
  constructor(
    private readonly tournaments: TournamentStore,
    private readonly games: EventStore,
    /** Games read per pair of queries (their records, then their events): an export
     * holds one batch's events at a time, whatever the size of the tournament. */
    private readonly batchSize = 50,
  ) {}

  /** The tournament's games in table order, `batchSize` at a time, each with the JSON
   * text of its events when `eventsOf` says so. */
  private async *batches(state: TournamentState, eventsOf: (record: GameRecord) => boolean): AsyncGenerator<{ record: GameRecord; events: string | null }[]> {
    const ids = tableIds(state);
    for (let from = 0; from < ids.length; from += this.batchSize) {
      const batch = ids.slice(from, from + this.batchSize);
      const records = new Map((await this.games.loadGames(batch)).map((r) => [r.id, r]));
      const events = await this.games.eventsJsonOfGames(batch.filter((id) => eventsOf(records.get(id)!)));
      yield batch.map((id) => ({ record: records.get(id)!, events: events.get(id) ?? null }));
    }
  }

  /** The archive as JSON text, in pieces: the log and the players first, then the games
   * a batch at a time, so that a big tournament is never held whole in memory. */
  async *export(state: TournamentState): AsyncGenerator<string> {
    const row = (await this.tournaments.row(state.id))!;
    const events = await this.tournaments.readEvents(state.id);
    const hashes = await this.tournaments.tokenHashes(state.id);
    const head: Omit<Archive, 'games'> = {
      format: 'spielwerk-tournament-archive',
      version: 1,
      tournament: { id: state.id, name: state.name, gameType: state.gameType, status: row.status, createdAt: events[0]!.at.toISOString() },
      events: events.map((e) => ({ seq: e.seq, at: e.at.toISOString(), event: e.event })),
      players: [...hashes].map(([playerId, tokenHash]) => ({ playerId, tokenHash })),
    };
    yield `${JSON.stringify(head).slice(0, -1)},"games":[`;
    let separator = '';
    for await (const batch of this.batches(state, () => true)) {
      for (const { record, events: gameEvents } of batch) {
        yield separator + withEvents({ record: recordCopy(record) }, gameEvents);
        separator = ',';
      }
    }
    yield ']}';
  }

  /** Every game at the tournament's tables, one JSON line each: its summary fields and,
   * once it is over, its events (a running game's events would show hidden hands). */
  async *gameLines(state: TournamentState): AsyncGenerator<string> {
    const tableOf = new Map(state.rounds.flatMap((r) => r.tables.map((t) => [t.gameId, { round: r.round, players: t.players }] as const)));
    for await (const batch of this.batches(state, (record) => record.status === 'finished')) {
      for (const { record, events } of batch) {
        const { refereeTokenHash: _referee, seed, seedNonce, seats, ...game } = recordCopy(record);
        const { round, players } = tableOf.get(record.id)!;
        const line = {
          ...game,
          seed: events === null ? null : seed,
          seedNonce: events === null ? null : seedNonce,
          round,
          seats: seats.map((s, i) => ({ seat: s.seat, name: s.name, bot: s.bot, player: players[i] })),
          result: state.results.get(record.id) ?? null,
        };
        yield `${withEvents(line, events)}\n`;
      }
    }
  }

  /** Checks the archive by replaying it, then writes it all in one transaction; the
   * importing organizer owns the copy. */
  async import(organizerId: string, archive: Archive): Promise<TournamentState> {
    const invalid = (message: string) => new ServiceError(serviceCodes.invalidArchive, message);
    archive.events.forEach((e, i) => {
      if (e.seq !== i + 1) throw invalid(`tournament event ${i} has seq ${e.seq}, not ${i + 1}`);
    });
    let state: TournamentState;
    try {
      state = fold(archive.tournament.id, archive.events.map((e) => e.event as unknown as TournamentEvent));
    } catch (error) {
      throw invalid(`the tournament log does not replay: ${(error as Error).message}`);
    }
    const tables = tableIds(state);
    const copies = new Map(archive.games.map((g) => [g.record.id, g]));
    if (copies.size !== archive.games.length || tables.length !== copies.size || tables.some((id) => !copies.has(id))) throw invalid('the games are not exactly the tables of the log');
    for (const { record, events } of archive.games) {
      const game = findGame(record.type);
      if (game === undefined || record.type !== state.gameType) throw invalid(`game ${record.id} is of type ${record.type}, not ${state.gameType}`);
      if (events.length !== record.version || events.some((e, i) => e.seq !== i + 1)) throw invalid(`game ${record.id}: ${events.length} events for version ${record.version}`);
      try {
        let folded = game.initialState({ options: record.options, seats: record.seatCount });
        for (const e of events) folded = game.evolve(folded, e.event);
        if ((game.result(folded) !== null) !== (record.status === 'finished')) throw new Error(`its status ${record.status} is not what its events say`);
      } catch (error) {
        throw invalid(`game ${record.id} does not replay: ${(error as Error).message}`);
      }
    }
    if ((await this.tournaments.row(state.id)) !== null) throw invalid(`tournament ${state.id} exists here already`);
    const existing = await this.games.loadGames(tables);
    if (existing.length > 0) throw invalid(`game ${existing[0]!.id} exists here already`);

    const date = (value: string | null) => (value === null ? null : new Date(value));
    await this.tournaments.transaction(async (client) => {
      await this.tournaments.insertRow(client, { id: state.id, organizerId, name: state.name, gameType: state.gameType, status: archive.tournament.status, version: archive.events.length }, archive.tournament.createdAt, true);
      await this.tournaments.insertEvents(client, state.id, archive.events);
      await this.tournaments.insertPlayers(client, state.id, archive.players);
      await this.games.insertGames(client, archive.games.map(({ record, events }) => ({
        record: { ...record, organizerId, tournament: null, deadline: date(record.deadline), createdAt: new Date(record.createdAt), updatedAt: new Date(record.updatedAt), finishedAt: date(record.finishedAt), seats: record.seats.map((s) => ({ ...s, joinedAt: date(s.joinedAt) })) },
        events: events.map((e) => ({ seq: e.seq, event: e.event, actor: e.actor, at: new Date(e.at) })),
      })));
      await this.tournaments.insertTables(client, state.id, state.rounds.flatMap((r) => r.tables.map((t) => ({ gameId: t.gameId, round: r.round, players: t.players }))));
    });
    return state;
  }
}
