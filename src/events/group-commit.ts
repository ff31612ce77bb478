// Group commit: appends that arrive while a write is under way travel together in one
// statement, so one round trip and one disk flush carry many commands. Each game in
// the batch keeps its own guard (its version must still be the expected one); a game
// whose guard fails is a conflict, the others commit. Several appends of one game
// (commands decided one on top of another, see AppendRequest.chain) go as one block
// that commits or fails whole; a game's next appends wait while one of its statements
// is under way, because a statement on another connection could overtake it.
// Should the batch fail as a whole (a unique key, a deadlock with another instance),
// every append in it is retried on its own, so each gets its own honest outcome.
// Riders (refused race commands, race-refusals.ts) are recorded without a commit of
// their own and without making any append wait. A rider is known from its command's
// decision on (`reserve`), before it is known whether the refusal stands (whether the
// state it was decided on was the game's). Until it has committed, every statement
// with an append of its game carries it: while its standing is open it is written only
// if that append's version guard proves the state it was decided on (the game was at
// the rider's version or before it, and the statement takes it there); once confirmed,
// unconditionally. So it is committed before or together with every append of its game
// decided after it. A confirmed rider that no append of its game has carried within
// RIDER_LINGER_MS goes with the next statement, alone if need be. It rides only with
// its own game's appends until then because two statements under way that carry the
// same rider would wait for each other (its id keeps it once).
// On Citus (distributed: true) a statement holds one game's appends and riders, and goes
// to that game's shard as a call of spielwerk_append_v1 (citus.ts); statements of
// different games go several at once, since one statement can no longer carry many
// games without becoming a transaction across shards. They never notify: every append
// is announced after its commit.
import type pg from 'pg';
import type { AppendOutcome, AppendRequest } from './records.ts';
import { CITUS_APPEND_SQL, type CitusAppended } from './citus.ts';
import { NOTIFY_CHANNEL, NOTIFY_CLOCK_SQL } from './notifier.ts';

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
  -- In key order, so that two statements carrying the same riders cannot deadlock.
  INSERT INTO race_refusal (id, game_id, version, seat, actor, command, code, received_at, ord)
  SELECT r.id, r.game_id, r.version, r.seat, r.actor, r.command, r.code, r.received_at, r.ord
    FROM jsonb_to_recordset($3::jsonb) AS r(id uuid, game_id uuid, version int, seat int, actor text, command jsonb, code text, received_at bigint, ord int, stands boolean)
   WHERE r.stands OR EXISTS (
     SELECT 1 FROM per_game p JOIN bumped b ON b.id = p.game_id
      WHERE p.game_id = r.game_id AND p.expected <= r.version AND r.version <= p.version)
   ORDER BY r.game_id, r.id
  ON CONFLICT (game_id, id) DO NOTHING
  RETURNING id
), notified AS (
  -- Only a statement that goes alone carries its notifications (see store.ts); $4 is the
  -- sending instance, as in the append of one.
  SELECT pg_notify('${NOTIFY_CHANNEL}', b.id::text || ':' || p.version || ':' || $4 || ':' || ${NOTIFY_CLOCK_SQL})
    FROM bumped b JOIN per_game p ON p.game_id = b.id
   WHERE $4::text IS NOT NULL
)
SELECT id::text AS id, false AS rider FROM bumped
UNION ALL SELECT id::text, true FROM raced
UNION ALL SELECT NULL, NULL FROM notified`;

/** Told of every append's latency and every statement's size (the metrics, in app.ts). */
export interface AppendObserver {
  /** An append settled `seconds` after it was asked for: waiting for its batch, its statement and its commit. */
  appended(seconds: number): void;
  /** A statement went out carrying `size` appends. */
  batched(size: number): void;
}

const observeNothing: AppendObserver = { appended: () => {}, batched: () => {} };

/** A row that rides with its game's appends (a race_refusal row). */
export interface RiderRow {
  /** Keeps the row once, whichever of the statements carrying it commits first. */
  readonly id: string;
  readonly game_id: string;
  /** The version of the state it was decided on. */
  readonly version: number;
}

/** A rider, from its decision on. */
export interface Reservation {
  /** Its refusal stands: it is written with its game's next append, or within
   * RIDER_LINGER_MS with any statement; settles once it has committed. */
  confirm(): Promise<void>;
  /** Its refusal does not stand: it is not written, unless it is `recorded` already. */
  cancel(): void;
  /** It has committed: an append's guard proved the state it was decided on, or it was confirmed. */
  recorded(): boolean;
}

class Rider {
  /** `pending`: its standing is open. */
  state: 'pending' | 'confirmed' | 'committed' | 'cancelled' = 'pending';
  resolve: () => void = () => {};
  constructor(readonly row: RiderRow) {}
  get gameId(): string {
    return this.row.game_id;
  }
}

/** How long a confirmed rider waits for an append of its game before it goes with any
 * statement: longer than a race's commands take to follow one another, short beside
 * anything a person does. A crash loses only refusals answered that recently, and
 * none that an append after them shows. */
const RIDER_LINGER_MS = 10;

/** How long riders wait before a statement that failed is tried again. */
const RIDER_RETRY_MS = 200;

/** Statements under way at once: on plain PostgreSQL two batches keep the disk busy; on
 * Citus each holds one game, and games on different shards go in parallel. */
const MAX_IN_FLIGHT = { plain: 2, distributed: 8 };

/** Appends in one statement. */
const MAX_BATCH = 200;

const UNIQUE_VIOLATION = '23505';

/** What a statement reports: the games appended (rider false) and the riders recorded. */
interface Written {
  readonly id: string | null;
  readonly rider: boolean | null;
}

interface Waiting {
  readonly request: AppendRequest;
  resolve(outcome: AppendOutcome): void;
  reject(error: unknown): void;
}

export class GroupCommit {
  private queue: Waiting[] = [];
  /** Confirmed riders past their linger: they go with the next statement. */
  private dueRiders: Rider[] = [];
  private inFlight = 0;
  private pumpScheduled = false;
  /** Games with an append in a statement under way. */
  private readonly writing = new Set<string>();
  /** Riders neither committed nor cancelled, by game: its appends carry them. */
  private readonly uncommitted = new Map<string, Set<Rider>>();

  constructor(
    private readonly pool: pg.Pool,
    /** The append of one request alone, for batches of one and for retries; `alone`
     * when no other statement of this group is under way. */
    private readonly appendOne: (request: AppendRequest, alone: boolean) => Promise<AppendOutcome>,
    /** Tells other instances of an append of a batch, once it has committed. */
    private readonly announce: (request: AppendRequest) => void = () => {},
    /** The instance a statement that goes alone names in its own notifications; null: none. */
    private readonly notifying: string | null = null,
    private readonly observer: AppendObserver = observeNothing,
    /** On Citus: one game a statement, through its shard's function (see above). */
    private readonly distributed = false,
  ) {
    this.maxInFlight = distributed ? MAX_IN_FLIGHT.distributed : MAX_IN_FLIGHT.plain;
  }

  private readonly maxInFlight: number;

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

  /** A rider of `row.game_id`, carried by its game's appends from now on. */
  reserve(row: RiderRow): Reservation {
    const rider = new Rider(row);
    const riders = this.uncommitted.get(row.game_id);
    if (riders === undefined) this.uncommitted.set(row.game_id, new Set([rider]));
    else riders.add(rider);
    return {
      confirm: () =>
        new Promise<void>((resolve) => {
          if (rider.state === 'committed') return resolve();
          rider.resolve = resolve;
          rider.state = 'confirmed';
          // Timers of one duration share one list in Node: one per rider costs little.
          setTimeout(() => this.due(rider), RIDER_LINGER_MS);
        }),
      cancel: () => {
        if (rider.state !== 'pending') return;
        rider.state = 'cancelled';
        this.forget(rider);
      },
      recorded: () => rider.state === 'committed',
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
      const games = batch.map(({ request }) => request.gameId);
      for (const game of games) this.writing.add(game);
      void this.write(batch, riders).finally(() => {
        for (const game of games) this.writing.delete(game);
        this.inFlight--;
        this.pump();
      });
    }
  }

  /** Past its linger, or after a failed statement: with the next statement, unless committed meanwhile. */
  private due(rider: Rider): void {
    if (rider.state !== 'confirmed') return;
    this.dueRiders.push(rider);
    // In a turn: the riders due together go together.
    this.schedule();
  }

  /** A statement with riders failed: the confirmed ones go with a later one. */
  private requeue(riders: readonly Rider[]): void {
    // One may have committed meanwhile, carried by another statement.
    for (const rider of riders) if (rider.state === 'confirmed') setTimeout(() => this.due(rider), RIDER_RETRY_MS).unref();
  }

  /** The next batch, in arrival order: per game, the appends that continue one another
   * and whose game has no statement under way (the others keep their place); every
   * rider of the batch's games that has not committed; and the riders that are due. */
  private take(): { batch: Waiting[]; riders: Rider[] } {
    const batch: Waiting[] = [];
    const kept: Waiting[] = [];
    const reaches = new Map<string, number>();
    const held = new Set<string>();
    for (const waiting of this.queue) {
      const { gameId, expectedVersion, events, chain } = waiting.request;
      if (chain?.broken) {
        waiting.resolve('conflict');
        continue;
      }
      const reached = reaches.get(gameId);
      const fits =
        batch.length < MAX_BATCH &&
        !(this.distributed && batch.length > 0 && batch[0]!.request.gameId !== gameId) &&
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
    // A due rider may have committed meanwhile, carried by an append of its game.
    const due = this.dueRiders.filter((rider) => rider.state === 'confirmed');
    // On Citus only the riders of the statement's game go with it; the others wait for the next.
    const game = this.distributed ? (batch[0]?.request.gameId ?? due[0]?.gameId) : undefined;
    const riders = new Set(game === undefined ? due : due.filter((rider) => rider.gameId === game));
    this.dueRiders = due.filter((rider) => !riders.has(rider));
    for (const game of reaches.keys()) for (const rider of this.uncommitted.get(game) ?? []) riders.add(rider);
    return { batch, riders: [...riders] };
  }

  private async write(batch: Waiting[], riders: readonly Rider[]): Promise<void> {
    if (batch.length > 0) this.observer.batched(batch.length);
    if (batch.length === 1 && riders.length === 0) return settle(batch[0]!, this.alone(batch[0]!.request, this.inFlight === 1));
    // Whether each rider goes unconditionally is fixed now: it may be confirmed meanwhile.
    const standing = new Set(riders.filter((rider) => rider.state === 'confirmed'));
    const inline = this.inFlight === 1 && !this.distributed ? this.notifying : null;
    let rows: Written[];
    try {
      rows = await this.send(batch.map(({ request }) => request), riders, standing, inline);
    } catch {
      // The confirmed riders first, alone, so none commits after its game's next append.
      await this.writeRiders([...standing]);
      await Promise.all([...groupBy(batch, (waiting) => waiting.request.gameId).values()].map((appends) => this.oneByOne(appends)));
      return;
    }
    // A standing rider that another statement wrote is not returned, but it has committed too.
    const written = new Set(rows.filter((r) => r.rider === true).map((r) => r.id));
    for (const rider of riders) if (standing.has(rider) || written.has(rider.row.id)) this.committed(rider);
    const committed = new Set(rows.filter((r) => r.rider === false).map((r) => r.id));
    for (const waiting of batch) {
      if (!committed.has(waiting.request.gameId)) {
        refuse(waiting);
        continue;
      }
      if (inline === null) this.announce(waiting.request);
      waiting.resolve('appended');
    }
  }

  /** One statement: on plain PostgreSQL the batch of any games; on Citus one game's, on its shard. */
  private async send(requests: readonly AppendRequest[], riders: readonly Rider[], standing: ReadonlySet<Rider>, inline: string | null): Promise<Written[]> {
    if (!this.distributed) {
      const { rows } = await this.pool.query<Written>({ name: 'spielwerk_append_batch', text: BATCH_SQL }, [
        JSON.stringify(requests.map(row)),
        [...new Set(requests.map((request) => request.gameId))],
        ridersJson(riders, standing),
        inline,
      ]);
      return rows;
    }
    const game = requests[0]?.gameId ?? riders[0]!.gameId;
    const { rows } = await this.pool.query<{ written: CitusAppended }>({ name: 'spielwerk_append_citus', text: CITUS_APPEND_SQL }, [
      game,
      JSON.stringify(requests.map(row)),
      ridersJson(riders, standing),
    ]);
    const { appended, riders: recorded } = rows[0]!.written;
    return [...(appended ? [{ id: game, rider: false }] : []), ...recorded.map((id) => ({ id, rider: true }))];
  }

  /** An append in a statement of its own; `alone`: no other statement of this group is under way. */
  private alone(request: AppendRequest, alone: boolean): Promise<AppendOutcome> {
    return this.distributed ? this.aloneOnShard(request) : this.appendOne(request, alone);
  }

  private async aloneOnShard(request: AppendRequest): Promise<AppendOutcome> {
    try {
      const written = await this.send([request], [], new Set(), null);
      if (written.length === 0) return 'conflict';
      this.announce(request);
      return 'appended';
    } catch (error) {
      // The same idempotency key stored by a command that got there first.
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) return 'conflict';
      throw error;
    }
  }

  private async writeRiders(riders: readonly Rider[]): Promise<void> {
    if (riders.length === 0) return;
    // On Citus a statement holds one game's riders.
    const groups = this.distributed ? [...groupBy(riders, (rider) => rider.gameId).values()] : [riders];
    await Promise.all(
      groups.map(async (group) => {
        try {
          await this.send([], group, new Set(group), null);
          for (const rider of group) this.committed(rider);
        } catch {
          this.requeue(group);
        }
      }),
    );
  }

  private committed(rider: Rider): void {
    rider.state = 'committed';
    this.forget(rider);
    rider.resolve();
  }

  private forget(rider: Rider): void {
    const riders = this.uncommitted.get(rider.gameId);
    riders?.delete(rider);
    if (riders?.size === 0) this.uncommitted.delete(rider.gameId);
  }

  /** One game's appends, alone and in order; after a failure the rest of the chain is refused. */
  private async oneByOne(appends: Waiting[]): Promise<void> {
    for (const waiting of appends) {
      if (waiting.request.chain?.broken) refuse(waiting);
      else await settle(waiting, this.alone(waiting.request, false));
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

/** Riders whose standing is open are written only if an append of their game proves it. */
const ridersJson = (riders: readonly Rider[], standing: ReadonlySet<Rider>) =>
  JSON.stringify(riders.map((rider) => ({ ...rider.row, stands: standing.has(rider) })));

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group === undefined) groups.set(key(item), [item]);
    else group.push(item);
  }
  return groups;
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
