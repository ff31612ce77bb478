// src/events/ is the event store alone: how games and their events are written,
// appended (group commit included), read, and announced between instances. It may
// import src/domain (for event types), src/lib and the generated Prisma client, and
// knows nothing of HTTP, tokens, seats' views or bots.
//
// The event store: games, seats and their append-only event logs in PostgreSQL.
// Appending is one SQL statement, so one round trip and one transaction: it bumps the
// game's version only if it still is the expected one, inserts the events at the
// following sequence numbers and records the idempotent answer. The primary key
// (game_id, seq) is what makes a second writer of the same version fail; the version
// check merely makes that failure cheap and quiet. Every append is announced to the
// other instances (notifier.ts), as a rule after its commit and batched with others:
// a NOTIFY inside an append would hold a database-wide lock until its transaction has
// committed, which would serialize every append's disk flush. Only a statement that
// goes alone carries its NOTIFY itself (see appendOne, and group-commit.ts).
// On Citus (`distributed`) the statements that insert are functions run on the game's
// shard instead (citus.ts), and no statement notifies: see docs/scaling.md.
import type pg from 'pg';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { GameEvent } from '../domain/contract.ts';
import type { AppendOutcome, AppendRequest, ChanceMode, GameFilter, GameRecord, GameStatus, SeatRecord, SeedChosenBy, StoredEvent, StoredSnapshot } from './records.ts';
import { GroupCommit, type AppendObserver } from './group-commit.ts';
import { NOTIFY_CHANNEL, NOTIFY_CLOCK_SQL, type Notifier } from './notifier.ts';
import { VersionProbe } from './version-probe.ts';
import { RaceRefusals } from './race-refusals.ts';
import { CITUS_CREATE_GAME_SQL } from './citus.ts';

const UNIQUE_VIOLATION = '23505';

const isUniqueViolation = (error: unknown): boolean =>
  error instanceof Error && (error as Error & { code?: string }).code === UNIQUE_VIOLATION;

// The statements on a command's path run as named (prepared) statements: each pooled
// connection parses and plans them once. Planning the append took Postgres about a
// quarter of a millisecond per command, and one command's append round trip fell from
// about 1.9 to 1.3 ms with it gone. (A pooler in front of Postgres must then support
// prepared statements, as PgBouncer does from 1.21 on.)
const APPEND_SQL = `
WITH bumped AS (
  UPDATE game
     SET version = $2::int + $3::int, status = $4, deadline = $5::timestamptz, updated_at = now(),
         finished_at = CASE WHEN $4 = 'finished' THEN now() ELSE finished_at END
   WHERE id = $1::uuid AND version = $2::int
  RETURNING id
), inserted AS (
  INSERT INTO event (game_id, seq, type, data, actor, at, command_id)
  SELECT b.id, $2::int + e.ord::int, e.ev->>'type', e.ev, $6, $7::timestamptz, $8
    FROM bumped b, jsonb_array_elements($9::jsonb) WITH ORDINALITY AS e(ev, ord)
  RETURNING seq
), recorded AS (
  INSERT INTO command_record (game_id, key, request_hash, response)
  SELECT b.id, $10, $11, $12::jsonb FROM bumped b WHERE $10::text IS NOT NULL
  RETURNING key
), notified AS (
  -- Delivered by Postgres only once this statement has committed.
  -- The payload as Notifier sends it: game, version, sending instance ($13), the clock.
  SELECT pg_notify('${NOTIFY_CHANNEL}', b.id::text || ':' || ($2::int + $3::int) || ':' || $13 || ':' || ${NOTIFY_CLOCK_SQL}) FROM bumped b WHERE $13::text IS NOT NULL
)
SELECT (SELECT count(*) FROM inserted)::int AS inserted,
       (SELECT count(*) FROM recorded)::int AS recorded,
       (SELECT count(*) FROM notified)::int AS notified
  FROM bumped`;

// A new game, its seats and its opening events (seq 1, 2, …, by the system).
const CREATE_GAME_SQL = `
WITH created AS (
  INSERT INTO game (id, type, rules_version, options, seat_count, chance_mode, seed, seed_hash, referee_token_hash,
                    status, version, deadline, created_at, updated_at, organizer_id, seed_nonce, seed_chosen_by, bot_think_ms)
  VALUES ($1::uuid, $2, $3, $4::jsonb, $5::int, $6, $7, $8, $9, $10, $11::int, $12::timestamptz, $13::timestamptz, $13::timestamptz, $14::uuid, $17, $18, $19::int)
  RETURNING id
), seats AS (
  INSERT INTO seat (game_id, seat, name, token_hash, joined_at, bot)
  SELECT c.id, s.seat, s.name, s.token_hash, s.joined_at, s.bot
    FROM created c, jsonb_to_recordset($15::jsonb) AS s(seat int, name text, token_hash text, joined_at timestamptz, bot text)
), events AS (
  INSERT INTO event (game_id, seq, type, data, actor, at)
  SELECT c.id, e.ord::int, e.ev->>'type', e.ev, 'system', $13::timestamptz
    FROM created c, jsonb_array_elements($16::jsonb) WITH ORDINALITY AS e(ev, ord)
)
SELECT id FROM created`;

const FIND_COMMAND_RECORD_SQL = `
SELECT request_hash AS "requestHash", response FROM command_record WHERE game_id = $1::uuid AND key = $2`;

const READ_EVENTS_SQL = `
SELECT seq, data, actor, at FROM event
 WHERE game_id = $1 AND seq > $2 AND ($3::int IS NULL OR seq <= $3)
 ORDER BY seq LIMIT $4`;

/** The columns of a game record, its seats and tournament table included; `id`: the
 * game's id in the subqueries, the parameter itself when there is one game, so that
 * Citus sees every table filtered by it and plans the statement for one shard. */
const gameColumns = (id: string) => `
       g.id::text AS id, g.type, g.rules_version AS "rulesVersion", g.options, g.seat_count AS "seatCount",
       g.chance_mode AS "chanceMode", g.seed, g.seed_hash AS "seedHash", g.seed_nonce AS "seedNonce", g.seed_chosen_by AS "seedChosenBy", g.bot_think_ms AS "botThinkMs", g.referee_token_hash AS "refereeTokenHash",
       g.status, g.version, g.deadline, g.created_at AS "createdAt", g.updated_at AS "updatedAt", g.finished_at AS "finishedAt",
       g.started_at AS "startedAt", g.rematch_id::text AS "rematchId", g.organizer_id::text AS "organizerId",
       (SELECT json_build_object('id', t.tournament_id, 'round', t.round) FROM tournament_table t WHERE t.game_id = ${id}) AS tournament,
       (SELECT coalesce(json_agg(json_build_object('seat', s.seat, 'name', s.name, 'tokenHash', s.token_hash,
                                                   'joinedAt', s.joined_at, 'bot', s.bot, 'arrivedAt', s.arrived_at) ORDER BY s.seat), '[]')
          FROM seat s WHERE s.game_id = ${id}) AS seats`;

const LOAD_GAME_SQL = `SELECT ${gameColumns('$1::uuid')} FROM game g WHERE g.id = $1::uuid`;

const LOAD_GAMES_SQL = `SELECT ${gameColumns('g.id')} FROM game g WHERE g.id = ANY($1::uuid[])`;

// Each game's events as the JSON text of an array of {seq, event, actor, at} (at in
// the form of Date.toISOString), built by Postgres: an export copies it into its
// output as it is, instead of parsing every event and writing it out again. Grouped by
// game, so that on Citus each shard builds its own games' arrays.
const EVENTS_JSON_OF_GAMES_SQL = `
SELECT e.game_id::text AS "gameId",
       json_agg(json_build_object('seq', e.seq, 'event', e.data, 'actor', e.actor,
                                  'at', to_char(e.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) ORDER BY e.seq)::text AS events
  FROM event e WHERE e.game_id = ANY($1::uuid[])
 GROUP BY e.game_id`;

const LOAD_GAME_WITH_SNAPSHOT_SQL = `
SELECT ${gameColumns('$1::uuid')},
       sn.version AS "snapshotVersion", sn.rules_version AS "snapshotRulesVersion", sn.state AS "snapshotState"
  FROM game g LEFT JOIN state_snapshot sn ON sn.game_id = g.id
 WHERE g.id = $1::uuid`;

// A newer snapshot replaces an older one; one folded by other rules is replaced by
// any, so that rolling back a release does not leave a game without a usable one.
// (excluded.created_at is the insert's default, now(): Citus refuses the call itself there.)
const SAVE_SNAPSHOT_SQL = `
INSERT INTO state_snapshot (game_id, version, rules_version, state) VALUES ($1::uuid, $2::int, $3, $4::json)
ON CONFLICT (game_id) DO UPDATE
   SET version = excluded.version, rules_version = excluded.rules_version, state = excluded.state, created_at = excluded.created_at
 WHERE state_snapshot.version < excluded.version OR state_snapshot.rules_version <> excluded.rules_version`;

type GameRow = Omit<GameRecord, 'seats'> & { seats: (Omit<SeatRecord, 'joinedAt' | 'arrivedAt'> & { joinedAt: string | null; arrivedAt: string | null })[] };

const recordOf = ({ seats, ...game }: GameRow): GameRecord => ({
  ...game,
  seats: seats.map((seat) => ({ ...seat, joinedAt: seat.joinedAt === null ? null : new Date(seat.joinedAt), arrivedAt: seat.arrivedAt === null ? null : new Date(seat.arrivedAt) })),
});

const DUE_GAMES_SQL = `
SELECT id::text AS id, type, version FROM game
 WHERE status IN ('running', 'open') AND deadline <= $1::timestamptz
 ORDER BY deadline LIMIT $2`;

const RUNNING_WITH_BOTS_SQL = `
SELECT g.id::text AS id FROM game g
 WHERE g.status = 'running' AND EXISTS (SELECT 1 FROM seat s WHERE s.game_id = g.id AND s.bot IS NOT NULL)`;

// A seat handed to a bot beside the log touches updated_at too (touch()): the game has
// just moved for the sweeper, and its bot was just woken. A bot game idles once its
// bots' think time (its own, else the server's $3) and the stall time ($2) have passed.
const IDLE_GAMES_SQL = `
SELECT g.id::text AS id, g.type, g.version, coalesce(g.deadline <= $1::timestamptz, false) AS "deadlinePassed", coalesce(g.bot_think_ms, $3::int) AS "thinkMs",
       (SELECT count(*)::int FROM seat s WHERE s.game_id = g.id AND s.bot IS NOT NULL) AS bots
  FROM game g
 WHERE (g.status = 'running' AND g.updated_at <= now() - make_interval(secs => (coalesce(g.bot_think_ms, $3::int) + $2::float8) / 1000)
        AND EXISTS (SELECT 1 FROM seat s WHERE s.game_id = g.id AND s.bot IS NOT NULL))
    OR (g.status IN ('running', 'open') AND g.deadline <= $1::timestamptz)`;

/** A game that has not moved for a while although the server may owe it a move. */
export interface IdleGame {
  readonly id: string;
  readonly type: string;
  readonly version: number;
  /** Its deadline passed before the time asked about. */
  readonly deadlinePassed: boolean;
  /** Seats played by server bots (a takeover changes it at the same version). */
  readonly bots: number;
  /** How long its bots think before a move: its own think time, else the server's. */
  readonly thinkMs: number;
}

export class EventStore {
  private readonly group: GroupCommit;
  private readonly probe: VersionProbe;
  /** Refused race commands, the losers the log does not show (race-refusals.ts). */
  readonly raceRefusals: RaceRefusals;

  constructor(
    private readonly prisma: PrismaClient,
    /** The pool behind `prisma`, for the statements on every command's path. */
    private readonly pool: pg.Pool,
    /** Tells other instances of every append; none when this instance is alone. */
    private readonly notifier: Notifier | null = null,
    /** Told of every append's latency and every statement's size. */
    observer?: AppendObserver,
    /** The database is a Citus coordinator (docs/scaling.md). */
    private readonly distributed = false,
  ) {
    this.group = new GroupCommit(pool, (request, alone) => this.appendOne(request, alone), (request) => this.announce(request), notifier?.instance ?? null, observer, distributed);
    this.probe = new VersionProbe(pool);
    this.raceRefusals = new RaceRefusals(pool, this.group);
  }

  /** Creates a game; with `opening`, already running with its setup events, in one
   * statement (so one transaction): no game is ever left running without them. On the
   * pg pool: through Prisma the nested create compiled its query in WebAssembly each
   * time (about 20 ms a game on a busy machine) and loaded the query compiler into an
   * otherwise Prisma-free server. */
  async createGame(
    /** `deadline`: an open game's expiry (ignored with `opening`, which brings its own). */
    // Nobody has arrived at a game being created, and it has not waited for anyone.
    game: Omit<GameRecord, 'updatedAt' | 'finishedAt' | 'version' | 'deadline' | 'status' | 'startedAt' | 'rematchId' | 'seats'> & {
      readonly deadline?: Date | null;
      readonly seats: readonly Omit<SeatRecord, 'arrivedAt'>[];
    },
    opening: { events: readonly GameEvent[]; status: GameStatus; deadline: Date | null } | null,
  ): Promise<void> {
    const createdAt = game.createdAt.toISOString();
    const statement = this.distributed ? { name: 'spielwerk_create_game_citus', text: CITUS_CREATE_GAME_SQL } : { name: 'spielwerk_create_game', text: CREATE_GAME_SQL };
    await this.pool.query(statement, [
      game.id,
      game.type,
      game.rulesVersion,
      JSON.stringify(game.options),
      game.seatCount,
      game.chanceMode,
      game.seed,
      game.seedHash,
      game.refereeTokenHash,
      opening?.status ?? 'open',
      opening?.events.length ?? 0,
      (opening === null ? (game.deadline ?? null) : opening.deadline)?.toISOString() ?? null,
      createdAt,
      game.organizerId,
      JSON.stringify(game.seats.map((s) => ({ seat: s.seat, name: s.name, token_hash: s.tokenHash, joined_at: s.joinedAt?.toISOString() ?? null, bot: s.bot }))),
      JSON.stringify(opening?.events ?? []),
      game.seedNonce,
      game.seedChosenBy,
      game.botThinkMs,
    ]);
    if (opening !== null && opening.events.length > 0) this.notifier?.announce(game.id, opening.events.length);
  }

  /** Writes many games with their events, on `client` inside the caller's
   * transaction: a tournament round's tables are written with the round's event, all
   * or none, and an imported archive's games with the tournament. Three statements
   * whatever the number of games. */
  async insertGames(client: pg.ClientBase, games: readonly { record: Omit<GameRecord, 'startedAt' | 'rematchId' | 'seats'> & { readonly seats: readonly Omit<SeatRecord, 'arrivedAt'>[] }; events: readonly StoredEvent[] }[]): Promise<void> {
    if (games.length === 0) return;
    const rows = games.map(({ record }) => ({
      id: record.id,
      type: record.type,
      rules_version: record.rulesVersion,
      options: record.options,
      seat_count: record.seatCount,
      chance_mode: record.chanceMode,
      seed: record.seed,
      seed_hash: record.seedHash,
      seed_nonce: record.seedNonce,
      seed_chosen_by: record.seedChosenBy,
      bot_think_ms: record.botThinkMs,
      referee_token_hash: record.refereeTokenHash,
      status: record.status,
      version: record.version,
      deadline: record.deadline?.toISOString() ?? null,
      created_at: record.createdAt.toISOString(),
      updated_at: record.updatedAt.toISOString(),
      finished_at: record.finishedAt?.toISOString() ?? null,
      organizer_id: record.organizerId,
    }));
    await client.query(
      `INSERT INTO game (id, type, rules_version, options, seat_count, chance_mode, seed, seed_hash, seed_nonce, seed_chosen_by, bot_think_ms, referee_token_hash, status, version, deadline, created_at, updated_at, finished_at, organizer_id)
       SELECT id, type, rules_version, options, seat_count, chance_mode, seed, seed_hash, seed_nonce, seed_chosen_by, bot_think_ms, referee_token_hash, status, version, deadline, created_at, updated_at, finished_at, organizer_id
         FROM jsonb_to_recordset($1::jsonb) AS g(id uuid, type text, rules_version text, options jsonb, seat_count int, chance_mode text, seed text, seed_hash text, seed_nonce text, seed_chosen_by text, bot_think_ms int,
              referee_token_hash text, status text, version int, deadline timestamptz, created_at timestamptz, updated_at timestamptz, finished_at timestamptz, organizer_id uuid)`,
      [JSON.stringify(rows)],
    );
    const seats = games.flatMap(({ record }) => record.seats.map((s) => ({ game_id: record.id, seat: s.seat, name: s.name, token_hash: s.tokenHash, joined_at: s.joinedAt?.toISOString() ?? null, bot: s.bot })));
    await client.query(
      `INSERT INTO seat (game_id, seat, name, token_hash, joined_at, bot)
       SELECT game_id, seat, name, token_hash, joined_at, bot FROM jsonb_to_recordset($1::jsonb) AS s(game_id uuid, seat int, name text, token_hash text, joined_at timestamptz, bot text)`,
      [JSON.stringify(seats)],
    );
    const events = games.flatMap(({ record, events }) => events.map((e) => ({ game_id: record.id, seq: e.seq, type: e.event.type, data: e.event, actor: e.actor, at: e.at.toISOString() })));
    await client.query(
      `INSERT INTO event (game_id, seq, type, data, actor, at)
       SELECT game_id, seq, type, data, actor, at FROM jsonb_to_recordset($1::jsonb) AS e(game_id uuid, seq int, type text, data jsonb, actor text, at timestamptz)`,
      [JSON.stringify(events)],
    );
  }

  /** On the pg pool in one statement: every live connection and every fresh read of a
   * game loads its record, and through Prisma that was two queries at about a
   * millisecond each. */
  async loadGame(id: string): Promise<GameRecord | null> {
    const { rows } = await this.pool.query<GameRow>({ name: 'spielwerk_load_game', text: LOAD_GAME_SQL }, [id]);
    return rows[0] === undefined ? null : recordOf(rows[0]);
  }

  /** The records of many games in one statement (in no particular order; missing ids
   * are left out): exports read a tournament's games in batches with it. */
  async loadGames(ids: readonly string[]): Promise<GameRecord[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.pool.query<GameRow>(LOAD_GAMES_SQL, [ids]);
    return rows.map(recordOf);
  }

  /** Every event of each of `ids` in one statement, as the JSON text of an array of
   * {seq, event, actor, at}, by game id. Callers bound the batch: it is held at once. */
  async eventsJsonOfGames(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const { rows } = await this.pool.query<{ gameId: string; events: string }>(EVENTS_JSON_OF_GAMES_SQL, [ids]);
    // A game without events has no group.
    return new Map([...ids.map((id): [string, string] => [id, '[]']), ...rows.map((r): [string, string] => [r.gameId, r.events])]);
  }

  /** The record and the game's state snapshot, if it has one, in one statement: what a
   * game not in memory is loaded from. */
  async loadGameWithSnapshot(id: string): Promise<{ record: GameRecord; snapshot: StoredSnapshot | null } | null> {
    const { rows } = await this.pool.query<GameRow & { snapshotVersion: number | null; snapshotRulesVersion: string | null; snapshotState: unknown }>(
      { name: 'spielwerk_load_game_with_snapshot', text: LOAD_GAME_WITH_SNAPSHOT_SQL },
      [id],
    );
    const row = rows[0];
    if (row === undefined) return null;
    const { snapshotVersion, snapshotRulesVersion, snapshotState, ...game } = row;
    const snapshot = snapshotVersion === null ? null : { version: snapshotVersion, rulesVersion: snapshotRulesVersion!, state: snapshotState };
    return { record: recordOf(game), snapshot };
  }

  /** Keeps `snapshot` as the game's snapshot unless the one kept is newer. */
  async saveSnapshot(gameId: string, snapshot: StoredSnapshot): Promise<void> {
    await this.pool.query({ name: 'spielwerk_save_snapshot', text: SAVE_SNAPSHOT_SQL }, [
      gameId,
      snapshot.version,
      snapshot.rulesVersion,
      JSON.stringify(snapshot.state),
    ]);
  }

  /** Takes an open seat; false when someone else took it first. */
  async takeSeat(gameId: string, seat: number, name: string | null, tokenHash: string, at: Date): Promise<boolean> {
    // Only while the game is open: an open game aborted or expired keeps its seats empty.
    const { count } = await this.prisma.seat.updateMany({
      where: { gameId, seat, tokenHash: null, game: { is: { status: 'open' } } },
      // Joining a seat is arriving at it.
      data: { tokenHash, name, joinedAt: at, arrivedAt: at },
    });
    return count === 1;
  }

  /** The person holding `tokenHash` at this game arrives (first time only): the seat's
   * number, or null when the token holds no person's seat or it had arrived already.
   * One statement on the game's shard. */
  async arrive(gameId: string, tokenHash: string, at: Date): Promise<number | null> {
    const { rows } = await this.pool.query<{ seat: number }>({
      name: 'spielwerk_arrive',
      text: 'UPDATE seat SET arrived_at = $3::timestamptz WHERE game_id = $1::uuid AND token_hash = $2 AND bot IS NULL AND arrived_at IS NULL RETURNING seat',
      values: [gameId, tokenHash, at.toISOString()],
    });
    return rows[0]?.seat ?? null;
  }

  /** Records when a game that waited for its people started (after its opening was appended). */
  async markStarted(gameId: string, at: Date): Promise<void> {
    await this.pool.query({ name: 'spielwerk_mark_started', text: 'UPDATE game SET started_at = $2::timestamptz WHERE id = $1::uuid AND started_at IS NULL', values: [gameId, at.toISOString()] });
  }

  /** Hands a person's seat of a rematch to a new token (replacing the one before, which
   * stops holding it) and counts it as arrived; false once the rematch is over. */
  async claimSeat(gameId: string, seat: number, tokenHash: string, at: Date): Promise<boolean> {
    const { rowCount } = await this.pool.query({
      name: 'spielwerk_claim_seat',
      text: `UPDATE seat SET token_hash = $3, arrived_at = coalesce(arrived_at, $4::timestamptz)
              WHERE game_id = $1::uuid AND seat = $2::int AND bot IS NULL AND EXISTS (SELECT 1 FROM game g WHERE g.id = $1::uuid AND g.status <> 'finished')`,
      values: [gameId, seat, tokenHash, at.toISOString()],
    });
    return rowCount === 1;
  }

  /** Links a finished game to its rematch, once: the rematch that won, whoever wrote it. */
  async linkRematch(gameId: string, rematchId: string): Promise<string> {
    const { rows } = await this.pool.query<{ rematch: string }>({
      name: 'spielwerk_link_rematch',
      text: 'UPDATE game SET rematch_id = coalesce(rematch_id, $2::uuid) WHERE id = $1::uuid RETURNING rematch_id::text AS rematch',
      values: [gameId, rematchId],
    });
    return rows[0]!.rematch;
  }

  private announce({ gameId, expectedVersion, events }: AppendRequest): void {
    this.notifier?.announce(gameId, expectedVersion + events.length);
  }

  /** Appends at the expected version, together with other games' appends under way. */
  append(request: AppendRequest): Promise<AppendOutcome> {
    return this.group.append(request);
  }

  /** An append that goes alone carries its own notification, which saves a statement
   * and a commit per command when commands come one at a time: with nothing else under
   * way, no other append's commit waits on NOTIFY's lock. Otherwise it is announced
   * after its commit, batched with others. */
  private async appendOne(request: AppendRequest, alone: boolean): Promise<AppendOutcome> {
    const inline = alone && this.notifier !== null;
    try {
      const { rows } = await this.pool.query<{ inserted: number }>({ name: 'spielwerk_append', text: APPEND_SQL }, [
        request.gameId,
        request.expectedVersion,
        request.events.length,
        request.status,
        request.deadline?.toISOString() ?? null,
        request.actor,
        request.at.toISOString(),
        request.commandId,
        JSON.stringify(request.events),
        request.idempotency?.key ?? null,
        request.idempotency?.requestHash ?? null,
        request.idempotency === null ? null : JSON.stringify(request.idempotency.response),
        inline ? this.notifier!.instance : null,
      ]);
      if (rows.length !== 1 || rows[0]!.inserted !== request.events.length) return 'conflict';
      if (!inline) this.announce(request);
      return 'appended';
    } catch (error) {
      if (isUniqueViolation(error)) return 'conflict';
      throw error;
    }
  }

  async readEvents(gameId: string, afterSeq: number, limit?: number, upToSeq?: number): Promise<StoredEvent[]> {
    const { rows } = await this.pool.query<{ seq: number; data: GameEvent; actor: string; at: Date }>(
      { name: 'spielwerk_read_events', text: READ_EVENTS_SQL },
      [gameId, afterSeq, upToSeq ?? null, limit ?? null],
    );
    return rows.map((r) => ({ seq: r.seq, event: r.data, actor: r.actor, at: r.at }));
  }

  /** On the pg pool: every command sent with an Idempotency-Key looks its key up first. */
  async findCommandRecord(gameId: string, key: string): Promise<{ requestHash: string; response: unknown } | null> {
    const { rows } = await this.pool.query<{ requestHash: string; response: unknown }>({ name: 'spielwerk_find_command_record', text: FIND_COMMAND_RECORD_SQL }, [gameId, key]);
    return rows[0] ?? null;
  }

  async listGames(filter: GameFilter): Promise<GameRecord[]> {
    const rows = await this.prisma.game.findMany({
      where: {
        ...(filter.type === undefined ? {} : { type: filter.type }),
        ...(filter.status === undefined ? {} : { status: filter.status }),
        ...(filter.organizerId === undefined ? {} : { organizerId: filter.organizerId }),
        ...(filter.finishedAfter === undefined ? {} : { finishedAt: { gt: filter.finishedAfter } }),
        ...(filter.tournamentId === undefined && filter.round === undefined && filter.player === undefined
          ? {}
          : {
              tournamentTable: {
                is: {
                  ...(filter.tournamentId === undefined ? {} : { tournamentId: filter.tournamentId }),
                  ...(filter.round === undefined ? {} : { round: filter.round }),
                  ...(filter.player === undefined ? {} : { players: { has: filter.player } }),
                },
              },
            }),
        ...(filter.after === undefined
          ? {}
          : {
              OR: [
                { createdAt: { lt: filter.after.createdAt } },
                { createdAt: filter.after.createdAt, id: { lt: filter.after.id } },
              ],
            }),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: filter.limit,
      include: { seats: { orderBy: { seat: 'asc' } }, tournamentTable: { select: { tournamentId: true, round: true } } },
    });
    return rows.map(({ tournamentTable, ...row }) => ({
      ...row,
      status: row.status as GameStatus,
      chanceMode: row.chanceMode as ChanceMode,
      seedChosenBy: row.seedChosenBy as SeedChosenBy | null,
      tournament: tournamentTable === null ? null : { id: tournamentTable.tournamentId, round: tournamentTable.round },
    }));
  }

  /** One game's committed version, or null when there is no such game. Reads asked
   * for in one turn of the event loop share one query: refusals are checked in bursts
   * (see CommandHandler.refusalStands), and so are watched games (LiveHub.resync). */
  version(gameId: string): Promise<number | null> {
    return this.probe.version(gameId);
  }

  // The scheduler polls, a restart looks for bots and readiness probes ping: on the pg
  // pool, so that an idle server never runs a Prisma query, whose query compiler
  // (WebAssembly, about 28 MiB) is loaded by the first one.

  /** Running games whose deadline has passed, for the scheduler. */
  async dueGames(now: Date, limit = 100): Promise<{ id: string; type: string; version: number }[]> {
    const { rows } = await this.pool.query<{ id: string; type: string; version: number }>({ name: 'spielwerk_due_games', text: DUE_GAMES_SQL }, [now.toISOString(), limit]);
    return rows;
  }

  /** Running games with a bot at the table, for kicking their bots after a restart. */
  async runningGamesWithBots(): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(RUNNING_WITH_BOTS_SQL);
    return rows.map((r) => r.id);
  }

  /** For the sweeper: running games with bots unchanged for their think time (theirs,
   * else `thinkMs`) and `stallMs` (the database's clock, as updated_at), and games whose
   * deadline passed by `deadlineBefore`. */
  async idleGames(deadlineBefore: Date, stallMs: number, thinkMs: number): Promise<IdleGame[]> {
    const { rows } = await this.pool.query<IdleGame>({ name: 'spielwerk_idle_games', text: IDLE_GAMES_SQL }, [deadlineBefore.toISOString(), stallMs, thinkMs]);
    return rows;
  }

  /** The game moved without an append (its seat went to a bot): the sweeper gives the
   * bot woken for it its time. Outside the transaction that changed the seat: a row lock
   * on the game there would hold up that game's appends, which the transaction may await. */
  async touch(gameId: string): Promise<void> {
    await this.pool.query(`UPDATE game SET updated_at = now() WHERE id = $1::uuid`, [gameId]);
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }
}
