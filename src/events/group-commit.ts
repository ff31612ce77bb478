// Group commit: appends that arrive while a write is under way travel together in one
// statement, so one round trip and one disk flush carry many commands. Each game in
// the batch keeps its own guard (its version must still be the expected one); a game
// whose guard fails is a conflict, the others commit. Several appends of one game
// (commands decided one on top of another, see AppendRequest.chain) go as one block
// that commits or fails whole; a game's next appends wait while one of its statements
// is under way, because a statement on another connection could overtake it.
// Should the batch fail as a whole (a unique key, a deadlock with another instance),
// every append in it is retried on its own, so each gets its own honest outcome.
// Riders (refused race commands, race-refusals.ts) travel in the next statement
// whatever games it carries, or alone when no append is waiting. A rider takes its
// place in its game's queue when its command is decided (`reserve`), before it is known
// whether the refusal stands: the game's appends decided after it wait behind it until
// it is confirmed (it rides) or cancelled (dropped), so it is committed before or
// together with every append of its game decided after it.
import type pg from 'pg';
import type { AppendOutcome, AppendRequest } from './records.ts';

const BATCH_SQL = `
WITH input AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(
    game_id uuid, expected int, n int, status text, deadline timestamptz, actor text,
    at timestamptz, command_id text, events jsonb, idem_key text, idem_hash text, idem_response jsonb)
), per_game AS (
  -- A game's appends form a chain; the game ends where the last one leaves it.
  SELECT game_id, min(expected) AS expected, max(expected + n) AS version,
         (array_agg(status ORDER BY expected DESC))[1] AS status,
         (array_agg(deadline ORDER BY expected DESC))[1] AS deadline
    FROM input GROUP BY game_id
), bumped AS (
  UPDATE game g
     SET version = p.version, status = p.status, deadline = p.deadline, updated_at = now(),
         finished_at = CASE WHEN p.status = 'finished' THEN now() ELSE g.finished_at END
    FROM per_game p
   -- The id list lets the planner look the games up by key instead of scanning.
   WHERE g.id = ANY($2::uuid[]) AND g.id = p.game_id AND g.version = p.expected
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
), raced AS (
  INSERT INTO race_refusal (game_id, version, seat, actor, command, code, received_at, ord)
  SELECT game_id, version, seat, actor, command, code, received_at, ord
    FROM jsonb_to_recordset($3::jsonb) AS r(game_id uuid, version int, seat int, actor text, command jsonb, code text, received_at bigint, ord int)
  RETURNING game_id
)
SELECT id::text AS id FROM bumped`;

/** Told of every append's latency and every statement's size (the metrics, in app.ts). */
export interface AppendObserver {
  /** An append settled `seconds` after it was asked for: waiting for its batch, its statement and its commit. */
  appended(seconds: number): void;
  /** A statement went out carrying `size` appends. */
  batched(size: number): void;
}

const observeNothing: AppendObserver = { appended: () => {}, batched: () => {} };

/** A row that rides with the next statement (a race_refusal row, with its game). */
export interface Rider {
  readonly game_id: string;
}

/** A rider's place in its game's queue, from its decision on. */
export interface Reservation {
  /** It rides with the next statement; settles once it has committed. */
  confirm(rider: Rider): Promise<void>;
  /** Nothing rides: the game's later appends go on. */
  cancel(): void;
}

class Reserved {
  state: 'pending' | 'confirmed' | 'cancelled' = 'pending';
  rider: Rider | null = null;
  resolve: () => void = () => {};
  constructor(readonly gameId: string) {}
}

/** How long riders wait before a statement that failed is tried again. */
const RIDER_RETRY_MS = 200;

interface Waiting {
  readonly request: AppendRequest;
  resolve(outcome: AppendOutcome): void;
  reject(error: unknown): void;
}

export class GroupCommit {
  private queue: (Waiting | Reserved)[] = [];
  private inFlight = 0;
  private pumpScheduled = false;
  /** Games with an append in a statement under way. */
  private readonly writing = new Set<string>();

  constructor(
    private readonly pool: pg.Pool,
    /** The append of one request alone, for batches of one and for retries; `alone`
     * when no other statement of this group is under way. */
    private readonly appendOne: (request: AppendRequest, alone: boolean) => Promise<AppendOutcome>,
    /** Tells other instances of an append of a batch, once it has committed. */
    private readonly announce: (request: AppendRequest) => void = () => {},
    private readonly observer: AppendObserver = observeNothing,
    private readonly maxInFlight = 2,
    private readonly maxBatch = 200,
  ) {}

  append(request: AppendRequest): Promise<AppendOutcome> {
    const asked = performance.now();
    const appended = new Promise<AppendOutcome>((resolve, reject) => {
      this.queue.push({ request, resolve, reject });
      this.schedule();
    });
    const observe = () => this.observer.appended((performance.now() - asked) / 1000);
    appended.then(observe, observe);
    return appended;
  }

  /** A place for a rider of `gameId`, in order with the game's appends. */
  reserve(gameId: string): Reservation {
    const reserved = new Reserved(gameId);
    this.queue.push(reserved);
    return {
      confirm: (rider) =>
        new Promise<void>((resolve) => {
          reserved.state = 'confirmed';
          reserved.rider = rider;
          reserved.resolve = resolve;
          // At once: appends of its game may be waiting behind it.
          this.pump();
        }),
      cancel: () => {
        reserved.state = 'cancelled';
        this.pump();
      },
    };
  }

  /** Waits one turn of the event loop so that commands decided together go together. */
  private schedule(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight) {
      const { batch, riders } = this.take();
      if (batch.length === 0 && riders.length === 0) return;
      this.inFlight++;
      const games = [...batch.map(({ request }) => request.gameId), ...riders.map((r) => r.gameId)];
      for (const game of games) this.writing.add(game);
      void this.write(batch, riders).finally(() => {
        for (const game of games) this.writing.delete(game);
        this.inFlight--;
        this.pump();
      });
    }
  }

  /** A statement with riders failed: they go first in the next one. */
  private requeue(riders: readonly Reserved[]): void {
    if (riders.length === 0) return;
    this.queue = [...riders, ...this.queue];
    setTimeout(() => this.schedule(), RIDER_RETRY_MS).unref();
  }

  /** The next batch, in arrival order: per game, the appends that continue one another
   * and whose game has no statement under way. The others keep their place. */
  private take(): { batch: Waiting[]; riders: Reserved[] } {
    const batch: Waiting[] = [];
    const riders: Reserved[] = [];
    const kept: (Waiting | Reserved)[] = [];
    const reaches = new Map<string, number>();
    const held = new Set<string>();
    for (const waiting of this.queue) {
      if (waiting instanceof Reserved) {
        if (waiting.state === 'cancelled') continue;
        // A rider not yet confirmed, or whose game is being written, holds the game's later appends.
        if (waiting.state === 'confirmed' && !held.has(waiting.gameId) && !this.writing.has(waiting.gameId)) riders.push(waiting);
        else {
          kept.push(waiting);
          held.add(waiting.gameId);
        }
        continue;
      }
      const { gameId, expectedVersion, events, chain } = waiting.request;
      if (chain?.broken) {
        waiting.resolve('conflict');
        continue;
      }
      const reached = reaches.get(gameId);
      const fits =
        batch.length < this.maxBatch &&
        !held.has(gameId) &&
        !this.writing.has(gameId) &&
        (reached === undefined || reached === expectedVersion);
      if (fits) {
        batch.push(waiting);
        reaches.set(gameId, expectedVersion + events.length);
      } else {
        kept.push(waiting);
        held.add(gameId);
      }
    }
    this.queue = kept;
    return { batch, riders };
  }

  private async write(batch: Waiting[], riders: readonly Reserved[]): Promise<void> {
    if (batch.length > 0) this.observer.batched(batch.length);
    if (batch.length === 1 && riders.length === 0) return settle(batch[0]!, this.appendOne(batch[0]!.request, this.inFlight === 1));
    let committed: Set<string>;
    try {
      const { rows } = await this.pool.query<{ id: string }>({ name: 'spielwerk_append_batch', text: BATCH_SQL }, [
        JSON.stringify(batch.map(({ request }) => row(request))),
        [...new Set(batch.map(({ request }) => request.gameId))],
        JSON.stringify(riders.map((r) => r.rider)),
      ]);
      committed = new Set(rows.map((r) => r.id));
    } catch {
      // The riders first, alone, so none commits after its game's next append.
      if (riders.length > 0) await this.writeRiders(riders);
      await Promise.all([...byGame(batch).values()].map((appends) => this.oneByOne(appends)));
      return;
    }
    for (const { resolve } of riders) resolve();
    for (const waiting of batch) {
      if (!committed.has(waiting.request.gameId)) {
        refuse(waiting);
        continue;
      }
      this.announce(waiting.request);
      waiting.resolve('appended');
    }
  }

  private async writeRiders(riders: readonly Reserved[]): Promise<void> {
    try {
      await this.pool.query({ name: 'spielwerk_append_batch', text: BATCH_SQL }, ['[]', [], JSON.stringify(riders.map((r) => r.rider))]);
      for (const { resolve } of riders) resolve();
    } catch {
      this.requeue(riders);
    }
  }

  /** One game's appends, alone and in order; after a failure the rest of the chain is refused. */
  private async oneByOne(appends: Waiting[]): Promise<void> {
    for (const waiting of appends) {
      if (waiting.request.chain?.broken) refuse(waiting);
      else await settle(waiting, this.appendOne(waiting.request, false));
    }
  }
}

function refuse(waiting: Waiting): void {
  waiting.request.chain?.break();
  waiting.resolve('conflict');
}

/** Breaks the chain before anyone hears of the failure, so nothing is decided on top of it. */
async function settle(waiting: Waiting, outcome: Promise<AppendOutcome>): Promise<void> {
  try {
    const result = await outcome;
    if (result === 'appended') waiting.resolve(result);
    else refuse(waiting);
  } catch (error) {
    waiting.request.chain?.break();
    waiting.reject(error);
  }
}

function byGame(batch: readonly Waiting[]): Map<string, Waiting[]> {
  const games = new Map<string, Waiting[]>();
  for (const waiting of batch) {
    const appends = games.get(waiting.request.gameId);
    if (appends === undefined) games.set(waiting.request.gameId, [waiting]);
    else appends.push(waiting);
  }
  return games;
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
