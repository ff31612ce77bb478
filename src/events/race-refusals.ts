// Refused race commands (the losers of a grab or a slap, see src/domain/races.ts),
// kept so that a race can be shown afterwards. The winner's event is in the log; a
// refusal is written here, batched: the refusals of one turn of the event loop (of any
// games) go in one INSERT, with one statement under way at a time, so a burst of
// losers costs a few commits however many they are, and the winners' appends never
// wait for them. The command handler answers a refusal only once its record has
// committed (docs/realtime.md, "Disputes"): a refusal someone heard of is never lost.
import type pg from 'pg';

export interface RaceRefusal {
  readonly gameId: string;
  /** The version it was decided on. */
  readonly version: number;
  readonly seat: number;
  readonly actor: string;
  readonly command: unknown;
  readonly code: string;
  readonly receivedAt: number;
  /** Orders refusals one instance decided in the same millisecond. */
  readonly ord: number;
}

const INSERT_SQL = `
INSERT INTO race_refusal (game_id, version, seat, actor, command, code, received_at, ord)
SELECT game_id, version, seat, actor, command, code, received_at, ord
  FROM jsonb_to_recordset($1::jsonb) AS r(game_id uuid, version int, seat int, actor text, command jsonb, code text, received_at bigint, ord int)`;

const LIST_SQL = `
SELECT version, seat, actor, command, code, received_at::float8 AS "receivedAt", ord FROM race_refusal
 WHERE game_id = $1::uuid
 ORDER BY version, received_at, ord, id`;

interface Waiting {
  readonly refusal: RaceRefusal;
  resolve(): void;
  reject(error: unknown): void;
}

export class RaceRefusals {
  private queue: Waiting[] = [];
  private scheduled = false;
  private writing = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly maxBatch = 500,
  ) {}

  /** Settles once `refusal` has committed. */
  record(refusal: RaceRefusal): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ refusal, resolve, reject });
      this.schedule();
    });
  }

  /** A game's refusals in the order they were decided. */
  async list(gameId: string): Promise<Omit<RaceRefusal, 'gameId'>[]> {
    const { rows } = await this.pool.query<Omit<RaceRefusal, 'gameId'>>({ name: 'spielwerk_race_refusals', text: LIST_SQL }, [gameId]);
    return rows;
  }

  private schedule(): void {
    if (this.scheduled || this.writing) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.write();
    });
  }

  private async write(): Promise<void> {
    const batch = this.queue.splice(0, this.maxBatch);
    if (batch.length === 0) return;
    this.writing = true;
    try {
      await this.pool.query({ name: 'spielwerk_race_refusals_insert', text: INSERT_SQL }, [JSON.stringify(batch.map(({ refusal }) => row(refusal)))]);
      for (const waiting of batch) waiting.resolve();
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    } finally {
      this.writing = false;
      if (this.queue.length > 0) this.schedule();
    }
  }
}

const row = (r: RaceRefusal) => ({
  game_id: r.gameId,
  version: r.version,
  seat: r.seat,
  actor: r.actor,
  command: r.command,
  code: r.code,
  received_at: r.receivedAt,
  ord: r.ord,
});
