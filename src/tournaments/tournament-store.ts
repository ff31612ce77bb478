// The tournaments' tables in PostgreSQL. An append is one transaction: it bumps the
// tournament's version only if it is still the one the command read (so concurrent
// commands on a tournament serialize, across instances too), inserts the events at
// the following sequence numbers, and does whatever else must commit with them —
// a round's games, the player lookup, ratings, the idempotent answer.
import type pg from 'pg';
import { seatsChangedNotice } from '../events/notifier.ts';
import type { TournamentEvent, TournamentStatus } from './log.ts';

export interface TournamentRow {
  readonly id: string;
  readonly organizerId: string;
  readonly name: string;
  readonly gameType: string;
  readonly status: TournamentStatus;
  readonly version: number;
}

export interface StoredTournamentEvent {
  readonly seq: number;
  readonly event: TournamentEvent;
  readonly at: Date;
}

export interface TournamentAppend {
  readonly tournamentId: string;
  readonly expectedVersion: number;
  readonly events: readonly TournamentEvent[];
  readonly at: Date;
  readonly status: TournamentStatus;
  readonly nextRoundAt: Date | null;
  /** Registered players' token hashes, for finding a player by token. */
  readonly players?: readonly { readonly playerId: string; readonly tokenHash: string }[];
  /** The round's tables, for GET /games filters and for finding a game's tournament. */
  readonly tables?: readonly { readonly gameId: string; readonly round: number; readonly players: readonly string[] }[];
  readonly idempotency?: { readonly key: string; readonly requestHash: string; readonly response: unknown };
  /** More writes in the same transaction (the round's games, ratings), after the events. */
  readonly within?: (client: pg.ClientBase) => Promise<void>;
}

export type TournamentAppendOutcome = 'appended' | 'conflict';

export interface StoredRating {
  readonly mu: number;
  readonly sigma: number;
  readonly ordinal: number;
  readonly tables: number;
}

const UNIQUE_VIOLATION = '23505';

/** The tournament's version was no longer the one read: rolls the transaction back. */
class LostRace extends Error {}

/** What else an append writes in its transaction for the events it appends (the
 * webhooks' deliveries, wired in app.ts). */
export type Outbox = (client: pg.ClientBase, tournamentId: string, firstSeq: number, events: readonly TournamentEvent[], at: Date) => Promise<void>;

export class TournamentStore {
  constructor(
    private readonly pool: pg.Pool,
    /** The notifier's instance, which seat changes name; null: no other instance to tell. */
    private readonly instance: string | null = null,
    private readonly outbox: Outbox | null = null,
  ) {}

  /** Runs `work` in one transaction on one connection. */
  async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    // The pool listens for errors only on idle connections. The server may end this one
    // while `work` awaits something else (idle_in_transaction_session_timeout, a
    // restart); unheard, that 'error' event would crash the process. The next query on
    // it fails with the error instead, and the dead connection is not pooled again.
    let lost: Error | undefined;
    const onLost = (error: Error) => {
      lost = error;
    };
    client.on('error', onLost);
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.removeListener('error', onLost);
      client.release(lost);
    }
  }

  /** Creates the tournament row with its first events. */
  async create(row: Omit<TournamentRow, 'version'>, first: Omit<TournamentAppend, 'tournamentId' | 'expectedVersion'>): Promise<void> {
    await this.transaction(async (client) => {
      await this.insertRow(client, { ...row, version: 0 }, first.at);
      await this.appendIn(client, { ...first, tournamentId: row.id, expectedVersion: 0 });
    });
  }

  /** `imported`: the log came from another instance's archive. */
  async insertRow(client: pg.ClientBase, row: TournamentRow, createdAt: Date | string, imported = false): Promise<void> {
    await client.query(`INSERT INTO tournament (id, organizer_id, name, game_type, status, version, created_at, imported) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [
      row.id, row.organizerId, row.name, row.gameType, row.status, row.version, createdAt, imported,
    ]);
  }

  async insertPlayers(client: pg.ClientBase, tournamentId: string, players: readonly { readonly playerId: string; readonly tokenHash: string }[]): Promise<void> {
    if (players.length === 0) return;
    await client.query(
      `INSERT INTO tournament_player (tournament_id, player_id, token_hash) SELECT $1, p.player_id, p.token_hash FROM jsonb_to_recordset($2::jsonb) AS p(player_id text, token_hash text)`,
      [tournamentId, JSON.stringify(players.map((p) => ({ player_id: p.playerId, token_hash: p.tokenHash })))],
    );
  }

  async insertTables(client: pg.ClientBase, tournamentId: string, tables: readonly { readonly gameId: string; readonly round: number; readonly players: readonly string[] }[]): Promise<void> {
    if (tables.length === 0) return;
    await client.query(
      `INSERT INTO tournament_table (game_id, tournament_id, round, players) SELECT t.game_id, $1, t.round, ARRAY(SELECT jsonb_array_elements_text(t.players)) FROM jsonb_to_recordset($2::jsonb) AS t(game_id uuid, round int, players jsonb)`,
      [tournamentId, JSON.stringify(tables.map((t) => ({ game_id: t.gameId, round: t.round, players: t.players })))],
    );
  }

  /** A log copied as it is (an imported archive), each event at its own time. */
  async insertEvents(client: pg.ClientBase, tournamentId: string, events: readonly { readonly seq: number; readonly event: unknown; readonly at: string }[]): Promise<void> {
    await client.query(
      `INSERT INTO tournament_event (tournament_id, seq, type, data, at) SELECT $1, e.seq, e.data->>'type', e.data, e.at FROM jsonb_to_recordset($2::jsonb) AS e(seq int, data jsonb, at timestamptz)`,
      [tournamentId, JSON.stringify(events.map((e) => ({ seq: e.seq, data: e.event, at: e.at })))],
    );
  }

  async append(request: TournamentAppend): Promise<TournamentAppendOutcome> {
    try {
      await this.transaction((client) => this.appendIn(client, request));
      return 'appended';
    } catch (error) {
      // Another writer moved the tournament on, or stored the same idempotency key first.
      if (error instanceof LostRace || ((error as { code?: string }).code === UNIQUE_VIOLATION && request.idempotency !== undefined)) return 'conflict';
      throw error;
    }
  }

  private async appendIn(client: pg.ClientBase, request: TournamentAppend): Promise<void> {
    const bumped = await client.query(
      `UPDATE tournament SET version = $2::int + $3::int, status = $4, next_round_at = $5 WHERE id = $1 AND version = $2::int`,
      [request.tournamentId, request.expectedVersion, request.events.length, request.status, request.nextRoundAt],
    );
    if (bumped.rowCount !== 1) throw new LostRace();
    await client.query(
      `INSERT INTO tournament_event (tournament_id, seq, type, data, at)
       SELECT $1, $2::int + e.ord::int, e.ev->>'type', e.ev, $3 FROM jsonb_array_elements($4::jsonb) WITH ORDINALITY AS e(ev, ord)`,
      [request.tournamentId, request.expectedVersion, request.at, JSON.stringify(request.events)],
    );
    await this.outbox?.(client, request.tournamentId, request.expectedVersion + 1, request.events, request.at);
    await this.insertPlayers(client, request.tournamentId, request.players ?? []);
    await request.within?.(client);
    await this.insertTables(client, request.tournamentId, request.tables ?? []);
    if (request.idempotency !== undefined) {
      await client.query(`INSERT INTO tournament_command (tournament_id, key, request_hash, response) VALUES ($1, $2, $3, $4)`, [
        request.tournamentId, request.idempotency.key, request.idempotency.requestHash, JSON.stringify(request.idempotency.response),
      ]);
    }
  }

  async row(id: string): Promise<TournamentRow | null> {
    const { rows } = await this.pool.query<TournamentRow>(
      `SELECT id::text, organizer_id::text AS "organizerId", name, game_type AS "gameType", status, version FROM tournament WHERE id = $1::uuid`,
      [id],
    );
    return rows[0] ?? null;
  }

  async readEvents(id: string, afterSeq = 0): Promise<StoredTournamentEvent[]> {
    const { rows } = await this.pool.query<{ seq: number; data: TournamentEvent; at: Date }>(
      `SELECT seq, data, at FROM tournament_event WHERE tournament_id = $1::uuid AND seq > $2 ORDER BY seq`,
      [id, afterSeq],
    );
    return rows.map((r) => ({ seq: r.seq, event: r.data, at: r.at }));
  }

  async playerByToken(tokenHash: string): Promise<{ tournamentId: string; playerId: string } | null> {
    const { rows } = await this.pool.query<{ tournamentId: string; playerId: string }>(
      `SELECT tournament_id::text AS "tournamentId", player_id AS "playerId" FROM tournament_player WHERE token_hash = $1`,
      [tokenHash],
    );
    return rows[0] ?? null;
  }

  /** Each registered person's token hash, by player id. */
  async tokenHashes(tournamentId: string): Promise<Map<string, string>> {
    const { rows } = await this.pool.query<{ playerId: string; tokenHash: string }>(
      `SELECT player_id AS "playerId", token_hash AS "tokenHash" FROM tournament_player WHERE tournament_id = $1::uuid`,
      [tournamentId],
    );
    return new Map(rows.map((r) => [r.playerId, r.tokenHash]));
  }

  async findCommand(id: string, key: string): Promise<{ requestHash: string; response: unknown } | null> {
    const { rows } = await this.pool.query<{ requestHash: string; response: unknown }>(
      `SELECT request_hash AS "requestHash", response FROM tournament_command WHERE tournament_id = $1::uuid AND key = $2`,
      [id, key],
    );
    return rows[0] ?? null;
  }

  async list(organizerId: string | null): Promise<TournamentRow[]> {
    const { rows } = await this.pool.query<TournamentRow>(
      `SELECT id::text, organizer_id::text AS "organizerId", name, game_type AS "gameType", status, version FROM tournament
        WHERE $1::uuid IS NULL OR organizer_id = $1::uuid ORDER BY created_at DESC, id DESC LIMIT 200`,
      [organizerId],
    );
    return rows;
  }

  /** Every running tournament (whose tables a no-show rule may hand to bots). */
  async running(): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(`SELECT id::text FROM tournament WHERE status = 'running'`);
    return rows.map((r) => r.id);
  }

  /** Running tournaments with a table whose game is over, or a scheduled round that is due:
   * the work a restart (or a missed hook) leaves behind. */
  async needingAttention(now: Date): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT id::text FROM tournament WHERE status <> 'finished' AND next_round_at <= $1
       UNION
       SELECT DISTINCT t.tournament_id::text FROM tournament_table t JOIN game g ON g.id = t.game_id JOIN tournament tt ON tt.id = t.tournament_id
        WHERE tt.status = 'running' AND g.status = 'finished'`,
      [now],
    );
    return rows.map((r) => r.id);
  }

  /** Running games at a tournament's tables, whose seats a no-show rule may hand to bots. */
  async runningTables(tournamentId: string, round: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT t.game_id::text AS id FROM tournament_table t JOIN game g ON g.id = t.game_id WHERE t.tournament_id = $1::uuid AND t.round = $2 AND g.status = 'running'`,
      [tournamentId, round],
    );
    return rows.map((r) => r.id);
  }

  /** The seats whose person has neither arrived (read the table or opened its live socket
   * with their token) nor sent a command of their own yet, per game: no-shows once
   * the game waits on them (Tournaments.noShows). */
  async silentSeats(gameIds: readonly string[]): Promise<Map<string, number[]>> {
    const { rows } = await this.pool.query<{ gameId: string; seat: number }>(
      `SELECT s.game_id::text AS "gameId", s.seat FROM seat s
        WHERE s.game_id = ANY($1::uuid[]) AND s.bot IS NULL AND s.arrived_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM event e WHERE e.game_id = s.game_id AND e.actor IN ('seat:' || s.seat, 'referee:seat:' || s.seat))`,
      [gameIds],
    );
    const silent = new Map<string, number[]>();
    for (const { gameId, seat } of rows) silent.set(gameId, [...(silent.get(gameId) ?? []), seat]);
    return silent;
  }

  /** Hands a seat to a server-side bot, in the caller's transaction: the player's token
   * no longer holds it (a withdrawn player does not play on, nor does a no-show who
   * arrives late, who would race the bot for every move). Every other instance hears of
   * it at commit and drops its copy of the game, which it would otherwise trust with the
   * old seats while it appended last. The notice is a statement of its own: on Citus the
   * update runs on the game's worker, whose notifications the listeners, connected to
   * the coordinator, would never hear. */
  async seatBot(client: pg.ClientBase, gameId: string, seat: number, bot: string): Promise<void> {
    const { rowCount } = await client.query(`UPDATE seat SET bot = $3, token_hash = NULL WHERE game_id = $1::uuid AND seat = $2`, [gameId, seat, bot]);
    if (rowCount === 1 && this.instance !== null) await client.query(`SELECT ${seatsChangedNotice('$1::text', '$2::text')}`, [gameId, this.instance]);
  }

  /** Serializes rating writes of one organizer and game type until the transaction ends. */
  async lockRatings(client: pg.ClientBase, organizerId: string, gameType: string): Promise<void> {
    await client.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`ratings:${organizerId}:${gameType}`]);
  }

  /** Every table of the organizer's tournaments of `gameType` (not imported ones, never
   * rated here) in the order the tables were recorded. */
  async ratedTables(client: pg.ClientBase, organizerId: string, gameType: string): Promise<{ tournamentId: string; gameId: string }[]> {
    const { rows } = await client.query<{ tournamentId: string; gameId: string }>(
      `SELECT e.tournament_id::text AS "tournamentId", e.data->>'gameId' AS "gameId" FROM tournament_event e JOIN tournament t ON t.id = e.tournament_id
        WHERE t.organizer_id = $1::uuid AND t.game_type = $2 AND NOT t.imported AND e.type = 'TableFinished'
        ORDER BY e.at, e.tournament_id, e.seq`,
      [organizerId, gameType],
    );
    return rows;
  }

  async ratings(client: pg.ClientBase, gameType: string, players: readonly string[]): Promise<Map<string, StoredRating>> {
    const { rows } = await client.query<{ player: string; mu: number; sigma: number; ordinal: number; tables: number }>(
      `SELECT player, mu, sigma, ordinal, tables FROM rating WHERE game_type = $1 AND player = ANY($2::text[]) FOR UPDATE`,
      [gameType, players],
    );
    return new Map(rows.map((r) => [r.player, r]));
  }

  async saveRatings(client: pg.ClientBase, gameType: string, ratings: readonly ({ player: string } & StoredRating)[], at: Date): Promise<void> {
    if (ratings.length === 0) return;
    await client.query(
      `INSERT INTO rating (game_type, player, mu, sigma, ordinal, tables, updated_at)
       SELECT $1, r.player, r.mu, r.sigma, r.ordinal, r.tables, $3 FROM jsonb_to_recordset($2::jsonb) AS r(player text, mu float8, sigma float8, ordinal float8, tables int)
       ON CONFLICT (game_type, player) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal, tables = excluded.tables, updated_at = excluded.updated_at`,
      [gameType, JSON.stringify(ratings), at],
    );
  }

  async readRatings(gameType: string, players: readonly string[]): Promise<Map<string, StoredRating>> {
    const { rows } = await this.pool.query<{ player: string; mu: number; sigma: number; ordinal: number; tables: number }>(
      `SELECT player, mu, sigma, ordinal, tables FROM rating WHERE game_type = $1 AND player = ANY($2::text[])`,
      [gameType, players],
    );
    return new Map(rows.map((r) => [r.player, r]));
  }
}
