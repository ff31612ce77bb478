// Current versions of games, read in batches. A command is refused only after its game's
// version is checked (see CommandHandler.refusalStands), and lost races come in bursts:
// every check asked for in one turn of the event loop shares one query, and checks of
// the same game share one answer.
import type pg from 'pg';

const VERSIONS_SQL = 'SELECT id::text AS id, version FROM game WHERE id = ANY($1::uuid[])';

interface Caller {
  resolve(version: number | null): void;
  reject(error: unknown): void;
}

export class VersionProbe {
  private waiting = new Map<string, Caller[]>();

  constructor(private readonly pool: pg.Pool) {}

  /** The game's committed version, or null when there is no such game. */
  version(gameId: string): Promise<number | null> {
    return new Promise((resolve, reject) => {
      const callers = this.waiting.get(gameId);
      if (callers !== undefined) {
        callers.push({ resolve, reject });
        return;
      }
      if (this.waiting.size === 0) setImmediate(() => void this.read());
      this.waiting.set(gameId, [{ resolve, reject }]);
    });
  }

  private async read(): Promise<void> {
    const batch = this.waiting;
    this.waiting = new Map();
    try {
      const { rows } = await this.pool.query<{ id: string; version: number }>({ name: 'spielwerk_versions', text: VERSIONS_SQL }, [[...batch.keys()]]);
      const versions = new Map(rows.map((row) => [row.id, row.version]));
      for (const [gameId, callers] of batch) for (const { resolve } of callers) resolve(versions.get(gameId) ?? null);
    } catch (error) {
      for (const callers of batch.values()) for (const { reject } of callers) reject(error);
    }
  }
}
