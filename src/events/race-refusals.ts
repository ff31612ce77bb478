// Refused race commands (the losers of a grab or a slap, see src/domain/races.ts),
// kept so that a race can be shown afterwards. The winner's event is in the log; a
// refusal rides with the group commit's next statement (group-commit.ts, whatever
// games it carries, or alone when nothing else is being written), so losers cost no
// commit of their own. It is committed before or together with every append of its
// game decided after it (docs/realtime.md, "Disputes").
import type pg from 'pg';
import type { GroupCommit } from './group-commit.ts';

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

  /** A place for a refusal of `gameId`, taken when the command is decided: the
   * game's appends decided after it wait until it is confirmed or cancelled. */
  reserve(gameId: string): { confirm(refusal: RaceRefusal): Promise<void>; cancel(): void } {
    const reservation = this.group.reserve(gameId);
    return { confirm: (refusal) => reservation.confirm(row(refusal)), cancel: () => reservation.cancel() };
  }

  /** A game's refusals in the order they were decided. */
  async list(gameId: string): Promise<Omit<RaceRefusal, 'gameId'>[]> {
    const { rows } = await this.pool.query<Omit<RaceRefusal, 'gameId'>>({ name: 'spielwerk_race_refusals', text: LIST_SQL }, [gameId]);
    return rows;
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
