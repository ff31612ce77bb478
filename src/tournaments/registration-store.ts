// Self-registration's tables: a tournament's join code, and the entries players make
// through it. Entries are kept beside the tournament's log, not in it: the log is
// public, and a pending or refused entry's name is nobody else's business. An approved
// entry becomes a PlayerRegistered event, written in the same transaction.
import type pg from 'pg';

export type EntryStatus = 'pending' | 'approved' | 'refused' | 'removed';

export interface Entry {
  readonly id: string;
  readonly tournamentId: string;
  readonly name: string;
  readonly tokenHash: string;
  readonly status: EntryStatus;
  readonly playerId: string | null;
  readonly keyHash: string | null;
  readonly tokenSalt: string | null;
  readonly createdAt: Date;
  readonly decidedAt: Date | null;
}

const columns = `id::text, tournament_id::text AS "tournamentId", name, token_hash AS "tokenHash", status, player_id AS "playerId",
  key_hash AS "keyHash", token_salt AS "tokenSalt", created_at AS "createdAt", decided_at AS "decidedAt"`;

export class RegistrationStore {
  constructor(private readonly pool: pg.Pool) {}

  async code(tournamentId: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ code: string }>(`SELECT code FROM tournament_registration WHERE tournament_id = $1::uuid`, [tournamentId]);
    return rows[0]?.code ?? null;
  }

  /** Sets the tournament's join code (a new one replaces the old, which stops working). */
  async setCode(client: pg.ClientBase, tournamentId: string, code: string, at: Date): Promise<void> {
    await client.query(
      `INSERT INTO tournament_registration (tournament_id, code, created_at) VALUES ($1, $2, $3)
       ON CONFLICT (tournament_id) DO UPDATE SET code = excluded.code, created_at = excluded.created_at`,
      [tournamentId, code, at],
    );
  }

  async tournamentByCode(code: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ id: string }>(`SELECT tournament_id::text AS id FROM tournament_registration WHERE code = $1`, [code]);
    return rows[0]?.id ?? null;
  }

  /** Takes the tournament's row lock for the caller's transaction: entries of one
   * tournament are decided one after another, on every instance, so that a capacity is
   * never overrun by two at once. */
  async lock(client: pg.ClientBase, tournamentId: string): Promise<void> {
    await client.query(`SELECT 1 FROM tournament WHERE id = $1::uuid FOR UPDATE`, [tournamentId]);
  }

  async pendingCount(client: pg.ClientBase, tournamentId: string): Promise<number> {
    const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM tournament_entry WHERE tournament_id = $1::uuid AND status = 'pending'`, [tournamentId]);
    return rows[0]!.n;
  }

  async insert(client: pg.ClientBase, entry: Entry): Promise<void> {
    await client.query(
      `INSERT INTO tournament_entry (id, tournament_id, name, token_hash, status, player_id, key_hash, token_salt, created_at, decided_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [entry.id, entry.tournamentId, entry.name, entry.tokenHash, entry.status, entry.playerId, entry.keyHash, entry.tokenSalt, entry.createdAt, entry.decidedAt],
    );
  }

  /** Decides a pending (or approved) entry; false when it was no longer in `from`. */
  async decide(client: pg.ClientBase, id: string, from: EntryStatus, to: EntryStatus, playerId: string | null, at: Date): Promise<boolean> {
    const { rowCount } = await client.query(
      `UPDATE tournament_entry SET status = $3, player_id = COALESCE($4, player_id), decided_at = $5 WHERE id = $1::uuid AND status = $2`,
      [id, from, to, playerId, at],
    );
    return rowCount === 1;
  }

  async byKey(tournamentId: string, keyHash: string): Promise<Entry | null> {
    const { rows } = await this.pool.query<Entry>(`SELECT ${columns} FROM tournament_entry WHERE tournament_id = $1::uuid AND key_hash = $2`, [tournamentId, keyHash]);
    return rows[0] ?? null;
  }

  async byToken(tokenHash: string): Promise<Entry | null> {
    const { rows } = await this.pool.query<Entry>(`SELECT ${columns} FROM tournament_entry WHERE token_hash = $1`, [tokenHash]);
    return rows[0] ?? null;
  }

  async entry(tournamentId: string, id: string): Promise<Entry | null> {
    const { rows } = await this.pool.query<Entry>(`SELECT ${columns} FROM tournament_entry WHERE tournament_id = $1::uuid AND id = $2::uuid`, [tournamentId, id]);
    return rows[0] ?? null;
  }

  /** The tournament's entries, oldest first, those in `status` when given. */
  async list(tournamentId: string, status: EntryStatus | undefined): Promise<Entry[]> {
    const { rows } = await this.pool.query<Entry>(
      `SELECT ${columns} FROM tournament_entry WHERE tournament_id = $1::uuid AND ($2::text IS NULL OR status = $2) ORDER BY created_at, id LIMIT 5000`,
      [tournamentId, status ?? null],
    );
    return rows;
  }
}
