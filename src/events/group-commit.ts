// Group commit: appends of different games that arrive while a write is under way
// travel together in one statement, so one round trip and one disk flush carry many
// commands. Each game in the batch keeps its own guard (its version must still be
// the expected one); a game whose guard fails is a conflict, the others commit.
// Should the batch fail as a whole (a unique key, a deadlock with another instance),
// every append in it is retried on its own, so each gets its own honest outcome.
import type pg from 'pg';
import type { AppendOutcome, AppendRequest } from './store.ts';

const BATCH_SQL = `
WITH input AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(
    game_id uuid, expected int, n int, status text, deadline timestamptz, actor text,
    at timestamptz, command_id text, events jsonb, idem_key text, idem_hash text, idem_response jsonb)
), bumped AS (
  UPDATE game g
     SET version = i.expected + i.n, status = i.status, deadline = i.deadline, updated_at = now(),
         finished_at = CASE WHEN i.status = 'finished' THEN now() ELSE g.finished_at END
    FROM input i
   -- The id list lets the planner look the games up by key instead of scanning.
   WHERE g.id = ANY($2::uuid[]) AND g.id = i.game_id AND g.version = i.expected
  RETURNING g.id
), inserted AS (
  INSERT INTO event (game_id, seq, type, data, actor, at, command_id)
  SELECT i.game_id, i.expected + e.ord::int, e.ev->>'type', e.ev, i.actor, i.at, i.command_id
    FROM input i JOIN bumped b ON b.id = i.game_id, jsonb_array_elements(i.events) WITH ORDINALITY AS e(ev, ord)
  RETURNING game_id
), recorded AS (
  INSERT INTO command_record (game_id, key, request_hash, response)
  SELECT i.game_id, i.idem_key, i.idem_hash, i.idem_response
    FROM input i JOIN bumped b ON b.id = i.game_id
   WHERE i.idem_key IS NOT NULL
  RETURNING game_id
)
SELECT id::text AS id FROM bumped`;

interface Waiting {
  readonly request: AppendRequest;
  resolve(outcome: AppendOutcome): void;
  reject(error: unknown): void;
}

export class GroupCommit {
  private queue: Waiting[] = [];
  private inFlight = 0;

  constructor(
    private readonly pool: pg.Pool,
    /** The append of one request alone, for batches of one and for retries. */
    private readonly appendOne: (request: AppendRequest) => Promise<AppendOutcome>,
    private readonly maxInFlight = 2,
    private readonly maxBatch = 200,
  ) {}

  append(request: AppendRequest): Promise<AppendOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ request, resolve, reject });
      // Wait one turn of the event loop so that commands decided together go together.
      if (this.queue.length === 1) setImmediate(() => this.pump());
    });
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.inFlight++;
      void this.write(batch).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async write(batch: Waiting[]): Promise<void> {
    if (batch.length === 1) return settle(batch[0]!, this.appendOne(batch[0]!.request));
    let committed: Set<string>;
    try {
      const { rows } = await this.pool.query<{ id: string }>(BATCH_SQL, [
        JSON.stringify(batch.map(({ request }) => row(request))),
        batch.map(({ request }) => request.gameId),
      ]);
      committed = new Set(rows.map((r) => r.id));
    } catch {
      await Promise.all(batch.map((waiting) => settle(waiting, this.appendOne(waiting.request))));
      return;
    }
    for (const { request, resolve } of batch) resolve(committed.has(request.gameId) ? 'appended' : 'conflict');
  }
}

async function settle(waiting: Waiting, outcome: Promise<AppendOutcome>): Promise<void> {
  try {
    waiting.resolve(await outcome);
  } catch (error) {
    waiting.reject(error);
  }
}

const row = (request: AppendRequest) => ({
  game_id: request.gameId,
  expected: request.expectedVersion,
  n: request.events.length,
  status: request.status,
  deadline: request.deadline?.toISOString() ?? null,
  actor: request.actor,
  at: request.at.toISOString(),
  command_id: request.commandId,
  events: request.events,
  idem_key: request.idempotency?.key ?? null,
  idem_hash: request.idempotency?.requestHash ?? null,
  idem_response: request.idempotency?.response ?? null,
});
