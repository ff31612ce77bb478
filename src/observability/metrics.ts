// Prometheus metrics (prom-client), served by GET /metrics. One registry per app, so
// that test apps in one process do not share counters. What each metric means is in
// docs/operations.md.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export interface PoolStats {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

export class Metrics {
  readonly registry = new Registry();

  private readonly requests = new Counter({ name: 'spielwerk_http_requests_total', help: 'HTTP requests by route, method and status', labelNames: ['route', 'method', 'status'], registers: [this.registry] });
  private readonly requestSeconds = new Histogram({
    name: 'spielwerk_http_request_duration_seconds',
    help: 'HTTP request latency by route and method',
    labelNames: ['route', 'method'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  private readonly commits = new Counter({ name: 'spielwerk_commands_committed_total', help: 'Commands committed, by game type (clients, bots and deadlines alike)', labelNames: ['game'], registers: [this.registry] });
  private readonly events = new Counter({ name: 'spielwerk_events_appended_total', help: 'Events appended by this instance, by game type', labelNames: ['game'], registers: [this.registry] });
  private readonly pushes = new Counter({ name: 'spielwerk_live_messages_sent_total', help: 'Messages sent on live sockets (updates, acks, errors)', registers: [this.registry] });
  private readonly appendSeconds = new Histogram({
    name: 'spielwerk_append_duration_seconds',
    help: 'Time from an append being asked for to its outcome: waiting for its batch, the statement and the commit',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  private readonly batchSize = new Histogram({
    name: 'spielwerk_append_batch_size',
    help: 'Appends carried by one group-commit statement',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 200],
    registers: [this.registry],
  });
  private readonly pushDelay = new Histogram({
    name: 'spielwerk_push_delay_seconds',
    help: 'From another instance announcing a commit (the database clock) to this instance having pushed it to its watchers',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly deadlines = new Counter({ name: 'spielwerk_deadlines_fired_total', help: 'Deadlines fired by this instance, by game type and outcome', labelNames: ['game', 'outcome'], registers: [this.registry] });
  private readonly botCommands = new Counter({ name: 'spielwerk_bot_commands_total', help: 'Commands sent by server-side bots, by game type and outcome', labelNames: ['game', 'outcome'], registers: [this.registry] });
  private readonly stalls = new Counter({ name: 'spielwerk_stalled_games_total', help: 'Games the sweeper of this instance moved on after they waited on the server, by game type and reason (bot, deadline)', labelNames: ['game', 'reason'], registers: [this.registry] });

  constructor(sources: { pool: PoolStats; openSockets: () => number }) {
    collectDefaultMetrics({ register: this.registry, prefix: 'spielwerk_' });
    const { pool } = sources;
    new Gauge({ name: 'spielwerk_db_pool_connections', help: 'Connections of the pg pool', registers: [this.registry], collect() { this.set(pool.totalCount); } });
    new Gauge({ name: 'spielwerk_db_pool_idle', help: 'Idle connections of the pg pool', registers: [this.registry], collect() { this.set(pool.idleCount); } });
    new Gauge({ name: 'spielwerk_db_pool_waiting', help: 'Queries waiting for a pool connection', registers: [this.registry], collect() { this.set(pool.waitingCount); } });
    new Gauge({ name: 'spielwerk_live_sockets_open', help: 'Open live WebSockets', registers: [this.registry], collect() { this.set(sources.openSockets()); } });
  }

  /** `route` is the route's pattern (e.g. /games/:id), never the raw URL: bounded labels. */
  request(route: string, method: string, status: number, seconds: number): void {
    this.requests.inc({ route, method, status });
    this.requestSeconds.observe({ route, method }, seconds);
  }

  committed(game: string, events: number): void {
    this.commits.inc({ game });
    this.events.inc({ game }, events);
  }

  pushed(): void {
    this.pushes.inc();
  }

  /** An AppendObserver (events/group-commit.ts). */
  appended(seconds: number): void {
    this.appendSeconds.observe(seconds);
  }

  batched(size: number): void {
    this.batchSize.observe(size);
  }

  /** Clocks of two machines: a negative delay (skew) counts as none. */
  pushedAcross(seconds: number): void {
    this.pushDelay.observe(Math.max(0, seconds));
  }

  deadlineFired(game: string, outcome: string): void {
    this.deadlines.inc({ game, outcome });
  }

  botCommand(game: string, outcome: string): void {
    this.botCommands.inc({ game, outcome });
  }

  stalled(game: string, reason: string): void {
    this.stalls.inc({ game, reason });
  }
}
