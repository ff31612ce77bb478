// Refused race commands (the losers of a grab or a slap, see src/domain/races.ts),
// kept so that a race can be shown afterwards. The winner's event is in the log; a
// refusal rides with its game's appends and the group commit's next statement
// (group-commit.ts), so losers cost no commit of their own and no append waits for
// them. It is committed before or together with every append of its game decided
// after it (docs/realtime.md, "Disputes").
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { GroupCommit, Reservation } from './group-commit.ts';

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

const LIST_SQL = `
SELECT version, seat, actor, command, code, received_at::float8 AS "receivedAt", ord FROM race_refusal
 WHERE game_id = $1::uuid
 ORDER BY version, received_at, ord, id`;

export class RaceRefusals {
  constructor(
    private readonly pool: pg.Pool,
    private readonly group: GroupCommit,
  ) {}

  /** The record of a race command refused now, carried by its game's appends from now
   * on; it is confirmed once the refusal stands, or cancelled. */
  reserve(refusal: RaceRefusal): Reservation {
    return this.group.reserve(row(refusal));
  }

  /** A game's refusals in the order they were decided. */
  async list(gameId: string): Promise<Omit<RaceRefusal, 'gameId'>[]> {
    const { rows } = await this.pool.query<Omit<RaceRefusal, 'gameId'>>({ name: 'spielwerk_race_refusals', text: LIST_SQL }, [gameId]);
    return rows;
  }
}

const row = (r: RaceRefusal) => ({
  id: randomUUID(),
  game_id: r.gameId,
  version: r.version,
  seat: r.seat,
  actor: r.actor,
  command: r.command,
  code: r.code,
  received_at: r.receivedAt,
  ord: r.ord,
});
