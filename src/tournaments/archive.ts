// A whole tournament as one document — its log, its players' token hashes and every
// game with its events — that another instance imports and replays identically; and
// every game of a tournament as NDJSON, one game a line. Imports are checked by
// replaying everything before anything is written, then written in one transaction.
import { z } from 'zod';
import { findGame } from '../domain/games.ts';
import { ServiceError, serviceCodes } from '../errors.ts';
import type { GameRecord, StoredEvent } from '../events/records.ts';
import type { EventStore } from '../events/store.ts';
import { fold, type TournamentEvent, type TournamentState } from './log.ts';
import type { TournamentStore } from './tournament-store.ts';

const StoredGameEvent = z.object({ seq: z.int().min(1), event: z.looseObject({ type: z.string() }), actor: z.string(), at: z.iso.datetime({ offset: true }) });
const Seat = z.object({ seat: z.int().min(0), name: z.string().nullable(), tokenHash: z.string().nullable(), joinedAt: z.iso.datetime({ offset: true }).nullable(), bot: z.string().nullable() });
const GameCopy = z.object({
  record: z.object({
    id: z.uuid(), type: z.string(), rulesVersion: z.string(), options: z.unknown(), seatCount: z.int().min(1), chanceMode: z.enum(['server', 'supplied']),
    seed: z.string(), seedHash: z.string(), seedNonce: z.string().nullable().default(null), seedChosenBy: z.enum(['creator', 'server']).nullable().default(null), refereeTokenHash: z.string(), status: z.enum(['open', 'running', 'finished']), version: z.int().min(0),
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

function copyOf(record: GameRecord, events: readonly StoredEvent[]): z.infer<typeof GameCopy> {
  return {
    record: {
      id: record.id, type: record.type, rulesVersion: record.rulesVersion, options: record.options, seatCount: record.seatCount, chanceMode: record.chanceMode,
      seed: record.seed, seedHash: record.seedHash, seedNonce: record.seedNonce, seedChosenBy: record.seedChosenBy, refereeTokenHash: record.refereeTokenHash, status: record.status, version: record.version,
      deadline: iso(record.deadline), createdAt: record.createdAt.toISOString(), updatedAt: record.updatedAt.toISOString(), finishedAt: iso(record.finishedAt),
      seats: record.seats.map((s) => ({ ...s, joinedAt: iso(s.joinedAt) })),
    },
    events: events.map((e) => ({ seq: e.seq, event: e.event as z.infer<typeof StoredGameEvent>['event'], actor: e.actor, at: e.at.toISOString() })),
  };
}

const tableIds = (state: TournamentState): string[] => state.rounds.flatMap((r) => r.tables.map((t) => t.gameId));

export class TournamentArchives {
  constructor(
    private readonly tournaments: TournamentStore,
    private readonly games: EventStore,
  ) {}

  async export(state: TournamentState): Promise<Archive> {
    const row = (await this.tournaments.row(state.id))!;
    const events = await this.tournaments.readEvents(state.id);
    const hashes = await this.tournaments.tokenHashes(state.id);
    const games: z.infer<typeof GameCopy>[] = [];
    for (const id of tableIds(state)) games.push(copyOf((await this.games.loadGame(id))!, await this.games.readEvents(id, 0)));
    return {
      format: 'spielwerk-tournament-archive',
      version: 1,
      tournament: { id: state.id, name: state.name, gameType: state.gameType, status: row.status, createdAt: events[0]!.at.toISOString() },
      events: events.map((e) => ({ seq: e.seq, at: e.at.toISOString(), event: e.event })),
      players: [...hashes].map(([playerId, tokenHash]) => ({ playerId, tokenHash })),
      games,
    };
  }

  /** Every game at the tournament's tables, one JSON line each: its summary fields and,
   * once it is over, its events (a running game's events would show hidden hands). */
  async *gameLines(state: TournamentState): AsyncGenerator<string> {
    for (const id of tableIds(state)) {
      const record = (await this.games.loadGame(id))!;
      const events = record.status === 'finished' ? await this.games.readEvents(id, 0) : null;
      const { refereeTokenHash: _referee, seed, seedNonce, seats, ...game } = copyOf(record, events ?? []).record;
      const round = state.rounds.find((r) => r.tables.some((t) => t.gameId === id))!;
      const players = round.tables.find((t) => t.gameId === id)!.players;
      const line = {
        ...game,
        seed: record.status === 'finished' ? seed : null,
        seedNonce: record.status === 'finished' ? seedNonce : null,
        round: round.round,
        seats: seats.map((s, i) => ({ seat: s.seat, name: s.name, bot: s.bot, player: players[i] })),
        result: state.results.get(id) ?? null,
        events: events === null ? null : copyOf(record, events).events,
      };
      yield `${JSON.stringify(line)}\n`;
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
    for (const id of tables) if ((await this.games.loadGame(id)) !== null) throw invalid(`game ${id} exists here already`);

    const date = (value: string | null) => (value === null ? null : new Date(value));
    await this.tournaments.transaction(async (client) => {
      await this.tournaments.insertRow(client, { id: state.id, organizerId, name: state.name, gameType: state.gameType, status: archive.tournament.status, version: archive.events.length }, archive.tournament.createdAt);
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
