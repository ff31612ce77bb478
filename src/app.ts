// The application as a function of its dependencies: a database client, optionally a
// URL to listen for other instances' commits, and a clock. server.ts adds the process
// concerns (port, embedded database, signals); tests build it with app.inject().
import { defaultMcpLimits, mcpRoutes, type McpLimits } from './mcp/route.ts';
import fastifyCompress from '@fastify/compress';
import fastifyCors from '@fastify/cors';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type pg from 'pg';
import { z } from 'zod';
import type { PrismaClient } from './generated/prisma/client.ts';
import { BotSeats } from './jobs/bot-seats.ts';
import { CommandHandler, type CommandHooks } from './commands/command-handler.ts';
import { GameSetup } from './commands/game-setup.ts';
import { GameReads } from './reads/game-reads.ts';
import { LiveHub } from './live/live-hub.ts';
import { LatestStates } from './state/latest-states.ts';
import { StateSnapshots } from './state/state-snapshots.ts';
import { Notifier, type NotifierListener, type NotifierOptions } from './events/notifier.ts';
import { PastStates } from './state/past-states.ts';
import { DeadlineScheduler, type SchedulerOptions } from './jobs/deadline-scheduler.ts';
import { defaultSweeperOptions, StalledGames, type SweeperOptions } from './jobs/stalled-games.ts';
import { EventStore } from './events/store.ts';
import { databaseUnavailable } from './events/unavailable.ts';
import { packageVersion } from './lib/package-version.ts';
import { generateAsyncApi } from './asyncapi.ts';
import { Metrics } from './observability/metrics.ts';
import { RequestLog } from './observability/request-log.ts';
import { catalogRoutes } from './routes/catalog.ts';
import { gameRoutes } from './routes/games.ts';
import { raceLogRoutes } from './routes/race-log.ts';
import { Organizers } from './organizers/organizers.ts';
import { bareRouteFailures, healthRoutes } from './routes/health.ts';
import { webPages } from './routes/pages.ts';
import { LiveSockets, until } from './live/live-sockets.ts';
import { liveRoutes, refuseOtherUpgrades } from './routes/live.ts';
import { defaultLiveLimits, type LiveLimits } from './live/socket-limits.ts';
import { defaultConnectionLimits, limitConnections, timeoutOptions, type ConnectionLimits } from './routes/connection-limits.ts';
import { metricsRoutes } from './routes/metrics.ts';
import { methodsByPath } from './routes/method-not-allowed.ts';
import { refuseNul } from './routes/nul.ts';
import { tidyOpenApi } from './routes/openapi-tidy.ts';
import { registerRateLimits, type RateLimits } from './routes/rate-limits.ts';
import { clientErrorHandler, errorHandler, frameworkErrorHandler, httpCodes, problem, retryAfterSeconds, sendProblem, shuttingDown } from './routes/problem.ts';
import { organizerKeyPlugin } from './routes/organizer-key.ts';
import { organizerRoutes } from './routes/organizers.ts';
import { tournamentAdminRoutes } from './routes/tournament-admin.ts';
import { tournamentJoinRoutes } from './routes/tournament-join.ts';
import { tournamentLiveRoutes } from './routes/tournament-live.ts';
import { tournamentRoutes } from './routes/tournaments.ts';
import { Adjudications } from './tournaments/adjudication.ts';
import { TournamentArchives } from './tournaments/archive.ts';
import { CheckIns } from './tournaments/check-in.ts';
import { RegistrationStore } from './tournaments/registration-store.ts';
import { Registrations } from './tournaments/registration.ts';
import { TournamentFeed } from './tournaments/feed.ts';
import { TournamentStore } from './tournaments/tournament-store.ts';
import { Tournaments } from './tournaments/tournaments.ts';
import { defaultDispatcherOptions, WebhookDispatcher, type DispatcherOptions } from './webhooks/dispatcher.ts';
import { WebhookStore } from './webhooks/webhook-store.ts';
import { Webhooks } from './webhooks/webhooks.ts';
import { webhookRoutes } from './routes/webhooks.ts';

export interface AppOptions {
  readonly prisma: PrismaClient;
  /** The pg pool behind `prisma` (see db/client.ts). */
  readonly pool: pg.Pool;
  /** Where to LISTEN for other instances' commits; without it only this instance's
   * own commits reach its WebSocket watchers. */
  readonly notifyUrl?: string;
  /** The database is a Citus coordinator in the distributed layout (docs/scaling.md):
   * the event store writes through functions on each game's shard. */
  readonly distributed?: boolean;
  readonly clock?: () => number;
  /** A pino logger; silent when absent. */
  readonly logger?: FastifyBaseLogger;
  /** One successful probe answer (GET /health, /ready, /metrics) in this many gets a
   * log line; 0: none (default 1: every one, as every other request). */
  readonly logProbeSample?: number;
  readonly scheduler?: Partial<SchedulerOptions>;
  /** The sweeper of stalled games (STALL_SECONDS): how long a game may wait on a bot or a
   * passed deadline before it is moved on, and how often it looks. */
  readonly sweeper?: Partial<SweeperOptions>;
  /** BOT_THINK_MS: how long a server bot waits before each move, so that a table of bots
   * can be watched; 0 (the default here, and in tests and benchmarks): at once. */
  readonly botThinkMs?: number;
  /** Start listening, deadlines and bots when ready (default); off for a document-only app. */
  readonly background?: boolean;
  /** How often watched games are checked for versions missed by notifications. */
  readonly resyncMs?: number;
  /** How long a notifier query may take, and how soon it reconnects (events/notifier.ts). */
  readonly notifier?: NotifierOptions;
  /** Limits for request bodies and WebSocket messages, in bytes. */
  readonly bodyLimit?: number;
  /** Origins whose browser pages may call the API (CORS): a list, or '*' for any.
   * None by default: a browser on another origin is refused. */
  readonly corsOrigins?: readonly string[] | '*';
  /** Events between two state snapshots of a game (state/state-snapshots.ts). */
  readonly snapshotEvery?: number;
  /** Per-client limits on creating games and sending commands; none when absent. */
  readonly rateLimits?: RateLimits;
  /** How long close() may take: commands still running and sockets that have not
   * completed their close handshake by then are cut off. */
  readonly closeTimeoutMs?: number;
  /** What one live socket may cost: its send buffer, its message rate, catch-up parts. */
  readonly live?: Partial<LiveLimits>;
  /** Connections per address and in all, and the timeouts for slow requests. */
  readonly connections?: Partial<ConnectionLimits>;
  /** MCP sessions at /mcp: in all, per client, and how long an idle one lives. */
  readonly mcp?: Partial<McpLimits>;
  /** SPIELWERK_ADMIN_KEY: the key that creates organizers (see docs/tournaments.md). */
  readonly adminKey?: string;
  /** How often tournaments are checked for work left behind (finished tables, due
   * rounds, no-shows); 0: never by itself (tests call attend()). */
  readonly tournamentPollMs?: number;
  /** OPEN_GAME_TTL_SECONDS in ms: how long a game waits for its open seats before the
   * scheduler expires it; 0 or absent: never. */
  readonly openGameTtlMs?: number;
  /** Webhook delivery: private addresses (WEBHOOK_ALLOW_PRIVATE), poll, lease, timeout, attempts, backoff. */
  readonly webhooks?: Partial<DispatcherOptions>;
}

/** Where the app is in its life: `draining` turns /ready to 503 so that load balancers
 * stop sending traffic while it is still served; `closing` refuses new requests. */
export interface Lifecycle {
  draining: boolean;
  closing: boolean;
}

/** CORS_ORIGINS: comma-separated origins (`https://play.example.org,http://localhost:5173`),
 * or `*` for any; unset or empty: none. */
export function parseCorsOrigins(value: string | undefined): readonly string[] | '*' | undefined {
  if (value?.trim() === '*') return '*';
  const origins = (value ?? '').split(',').map((o) => o.trim()).filter((o) => o !== '');
  return origins.length === 0 ? undefined : origins;
}

export interface Services {
  readonly store: EventStore;
  /** Null without notifyUrl. */
  readonly notifier: Notifier | null;
  readonly setup: GameSetup;
  readonly reads: GameReads;
  readonly commands: CommandHandler;
  readonly hub: LiveHub;
  readonly scheduler: DeadlineScheduler;
  readonly bots: BotSeats;
  readonly sweeper: StalledGames;
  readonly sockets: LiveSockets;
  readonly metrics: Metrics;
  readonly organizers: Organizers;
  readonly tournaments: Tournaments;
  readonly tournamentStore: TournamentStore;
  readonly feed: TournamentFeed;
  readonly archives: TournamentArchives;
  readonly registrations: Registrations;
  readonly checkIns: CheckIns;
  readonly adjudications: Adjudications;
  readonly webhooks: Webhooks;
  readonly dispatcher: WebhookDispatcher;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    lifecycle: Lifecycle;
    rateLimits: RateLimits;
  }
}

export async function buildApp(options: AppOptions) {
  const bodyLimit = options.bodyLimit ?? 64 * 1024;
  const liveLimits: LiveLimits = { ...defaultLiveLimits, ...options.live };
  const connectionLimits: ConnectionLimits = { ...defaultConnectionLimits, ...options.connections };
  const app = Fastify({
    ...timeoutOptions(connectionLimits),
    ...(options.logger === undefined ? { logger: false } : { loggerInstance: options.logger }),
    bodyLimit,
    // Behind a load balancer the request id comes from there when present.
    requestIdHeader: 'x-request-id',
    logController: new RequestLog(options.logProbeSample),
    // Closing, requests are refused with our problem document (below), not Fastify's JSON.
    return503OnClosing: false,
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  // Responses are built by typed code from the same schemas; re-validating every
  // answer (views, legal commands, events) on the hot path would cost more than the
  // command itself. The schemas still document the responses in OpenAPI.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.setErrorHandler(errorHandler);
  // The API speaks JSON only; a text body is a client mistake (415), not a string command.
  app.removeContentTypeParser('text/plain');
  const methodsOf = methodsByPath(app);
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?', 1)[0]!;
    const allowed = methodsOf(path);
    // A route that has the method and still found nothing (a static asset's
    // callNotFound) is a plain 404, not a wrong method.
    if (allowed.length === 0 || allowed.includes(request.method)) return sendProblem(reply, problem(404, httpCodes.noRoute, `no route ${request.method} ${path}`));
    return sendProblem(reply.header('allow', allowed.join(', ')), problem(405, httpCodes.methodNotAllowed, `${path} takes ${allowed.join(', ')}, not ${request.method}`));
  });
  limitConnections(app, connectionLimits);

  const clock = options.clock ?? Date.now;
  // Other instances hear of every commit through the store; the hub, declared below,
  // hears of theirs.
  const resync = () => hub.resync().catch((error: unknown) => app.log.warn({ err: error }, 'catching up watched games failed'));
  // Another instance's commit: its watchers here are pushed, and the delay from its
  // announcement (the database's clock) to the push here is measured.
  const moved = (id: string, version: number, sentAt: number | null) => {
    const pushed = hub.moved(id, version);
    if (pushed !== undefined && sentAt !== null) pushed.then(() => metrics.pushedAcross((Date.now() - sentAt) / 1000), () => undefined);
  };
  // Seats another instance changed, and any change missed while the connection was
  // lost, make this instance's copies of those games stale, and its sockets check
  // that their tokens still hold their seats.
  const checkingSeatsFailed = (error: unknown) => app.log.warn({ err: error }, "checking live sockets against a game's new seats failed");
  const listener: NotifierListener = {
    moved,
    seatsChanged: (id) => {
      latest.forget(id);
      void hub.seatsChanged(id).catch(checkingSeatsFailed);
    },
    reconnected: () => {
      latest.forgetAll();
      void hub.allSeatsChanged().catch(checkingSeatsFailed);
      void resync();
    },
  };
  const notifier = options.notifyUrl === undefined ? null : new Notifier(options.notifyUrl, listener, app.log, options.notifier);
  const sockets = new LiveSockets(liveLimits);
  const metrics = new Metrics({ pool: options.pool, openSockets: () => sockets.open });
  const store = new EventStore(options.prisma, options.pool, notifier, metrics, options.distributed ?? false);
  const snapshots = new StateSnapshots(store, (error) => app.log.warn({ err: error }, 'saving a state snapshot failed'), options.snapshotEvery);
  const latest = new LatestStates(store, snapshots);
  // Views of the past, event-log pages and live catch-ups share the states folded so far.
  const past = new PastStates(store);
  const hub = new LiveHub(store, latest, past, liveLimits.catchUpEvents);
  const resyncTimer = notifier === null ? null : setInterval(resync, options.resyncMs ?? 5000);
  resyncTimer?.unref();
  let tournamentTimer: NodeJS.Timeout | null = null;
  // The scheduler and the bots send commands themselves, so they exist only once the
  // command handler does, which in turn reports its commits to them.
  let scheduler: DeadlineScheduler;
  let bots: BotSeats;
  const hooks: CommandHooks = {
    committed: (before, events, after) => {
      hub.committed(before, events, after);
      snapshots.committed(before, after);
      metrics.committed(after.record.type, events.length);
      scheduler.track(after.record.id, after.record.type, after.version, after.record.deadline);
      bots.committed(after);
      tournaments.gameFinished(after.record);
    },
  };
  const commands = new CommandHandler(store, latest, clock, hooks);
  scheduler = new DeadlineScheduler(store, commands, clock, app.log, { timers: true, pollMs: 1000, ...options.scheduler }, (game, outcome) => metrics.deadlineFired(game, outcome));
  const botThinkMs = options.botThinkMs ?? 0;
  bots = new BotSeats(store, commands, latest, clock, app.log, (game, outcome) => metrics.botCommand(game, outcome), undefined, botThinkMs);
  const sweeper = new StalledGames(store, bots, scheduler, clock, app.log, { ...defaultSweeperOptions, thinkMs: botThinkMs, ...options.sweeper }, (game, reason) => metrics.stalled(game, reason));
  const organizers = new Organizers(options.prisma, clock, options.adminKey);
  const webhookOptions: DispatcherOptions = { ...defaultDispatcherOptions, ...options.webhooks };
  const webhookStore = new WebhookStore(options.pool);
  const dispatcher = new WebhookDispatcher(webhookStore, clock, app.log, webhookOptions);
  const tournamentStore = new TournamentStore(options.pool, notifier?.instance ?? null, (client, id, firstSeq, events, at) => webhookStore.enqueue(client, id, firstSeq, events, at));
  const feed = new TournamentFeed();
  const setup = new GameSetup(store, latest, clock, hooks, options.openGameTtlMs ?? 0);
  const tournaments = new Tournaments(tournamentStore, store, setup, latest, clock, {
    appended: (id, firstSeq, events) => {
      feed.appended(id, firstSeq, events);
      dispatcher.wake();
    },
    botSeated: (gameId) => {
      void hub.seatsChanged(gameId).catch(checkingSeatsFailed);
      // For the sweeper the game has just moved: the bot is woken now.
      void store.touch(gameId).catch((error: unknown) => app.log.warn({ err: error, gameId }, 'marking a game whose seat went to a bot as moved failed'));
      bots.kick(gameId);
    },
    failed: (error) => app.log.warn({ err: error }, 'a tournament step the server took by itself failed'),
  });
  const services: Services = {
    store,
    notifier,
    setup,
    reads: new GameReads(store, latest, past),
    commands,
    hub,
    scheduler,
    bots,
    sweeper,
    sockets,
    metrics,
    organizers,
    tournaments,
    tournamentStore,
    feed,
    archives: new TournamentArchives(tournamentStore, store),
    registrations: new Registrations(tournaments, new RegistrationStore(options.pool)),
    checkIns: new CheckIns(tournaments),
    adjudications: new Adjudications(tournaments, commands, latest),
    webhooks: new Webhooks(webhookStore, clock, webhookOptions.allowPrivate),
    dispatcher,
  };
  app.decorate('services', services);
  const lifecycle: Lifecycle = { draining: false, closing: false };
  app.decorate('lifecycle', lifecycle);

  // Closing is bounded: past the deadline, HTTP connections still open (a slow client,
  // a request stuck on the database) are cut so that close() always finishes.
  const closeTimeoutMs = options.closeTimeoutMs ?? 5000;
  let closeDeadline = 0;
  let cutConnections: NodeJS.Timeout | undefined;
  app.addHook('preClose', (done) => {
    lifecycle.draining = lifecycle.closing = true;
    closeDeadline = Date.now() + closeTimeoutMs;
    cutConnections = setTimeout(() => app.server.closeAllConnections(), closeTimeoutMs);
    cutConnections.unref();
    done();
  });
  // Requests that still arrive on open keep-alive connections while closing.
  app.addHook('onRequest', async (_request, reply) => {
    if (lifecycle.closing) return sendProblem(reply.header('retry-after', String(retryAfterSeconds)), shuttingDown());
  });
  app.addHook('onSend', async (request, reply) => {
    // A client's (or load balancer's) request id comes back, so both logs can be matched.
    reply.header('x-request-id', request.id);
    if (lifecycle.closing) reply.header('connection', 'close');
  });
  app.addHook('onResponse', async (request, reply) => {
    metrics.request(request.routeOptions.url ?? 'unmatched', request.method, reply.statusCode, reply.elapsedTime / 1000);
  });
  app.addHook('preValidation', async (request) => {
    refuseNul(request.query, 'query');
    refuseNul(request.body, 'body');
    refuseNul(request.headers['idempotency-key'], 'headers.idempotency-key');
  });

  // Tokens travel in the Authorization header, never in cookies, so no credentials mode.
  if (options.corsOrigins !== undefined) {
    await app.register(fastifyCors, {
      origin: options.corsOrigins === '*' ? '*' : [...options.corsOrigins],
      methods: ['GET', 'POST', 'OPTIONS'],
      allowedHeaders: ['authorization', 'content-type', 'idempotency-key', 'x-request-id'],
      // What a client is told to read: where a created thing is, when to retry (429,
      // 503), a finished game's tag for If-None-Match, the request's id.
      exposedHeaders: ['location', 'retry-after', 'etag', 'x-request-id'],
      maxAge: 600,
    });
  }
  // Answers of 1 KiB or more are compressed when the client accepts it (brotli at
  // quality 4, gzip, deflate), streamed ones too (the NDJSON replay); a long replay
  // shrinks about twentyfold. Server-sent events would stay uncompressed (none yet).
  await app.register(fastifyCompress, { encodings: ['br', 'gzip', 'deflate'], customTypes: /^text\/(?!event-stream)|[+/](?:x-nd)?json(?:;|$)|[+/](?:text|xml)(?:;|$)/ });
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Spielwerk',
        version: packageVersion,
        license: { name: 'UNLICENSED', identifier: 'UNLICENSED' },
        contact: { name: 'Spielwerk maintainers' },
        description: [
          'Game-as-a-service for Pechvogel, Fackel+Keule, Mistkäfer and Porca Miseria.',
          '',
          'Errors are RFC 9457 problem documents (`application/problem+json`) with a stable `code`, e.g. `command/stale-version` or a rule code such as `pechvogel/not-your-turn`.',
          '',
          '**Live updates.** `GET /games/{id}/live` upgrades to a WebSocket that pushes every move and accepts commands. OpenAPI cannot describe a socket; its protocol (messages, close codes) is the AsyncAPI 3.0 document [/asyncapi.json](/asyncapi.json), generated from the same schemas.',
        ].join('\n'),
      },
      servers: [{ url: '/', description: 'The server this document is served from (`npm start`: http://localhost:3000)' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'A seat or referee token from game creation or joining, or a player\'s tournament token' },
          apiKey: { type: 'http', scheme: 'bearer', description: 'An organizer\'s API key, sw_<id>_<secret>' },
        },
      },
      tags: [
        { name: 'catalog', description: 'Game types, options and edition data' },
        { name: 'games', description: 'Creating, playing and reading games' },
        { name: 'operations', description: 'Health, readiness, metrics and the socket protocol' },
        { name: 'organizers', description: 'Organizers and their API keys' },
        { name: 'tournaments', description: 'Tournaments: players, rounds, standings, exports' },
        { name: 'webhooks', description: "Signed deliveries of an organizer's tournament events to their URLs" },
      ],
    },
    transform: jsonSchemaTransform,
    transformObject: (document) => tidyOpenApi(jsonSchemaTransformObject(document) as Parameters<typeof tidyOpenApi>[0]),
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs' });
  // Shutdown order: stop firing deadlines, refuse new socket commands and answer the
  // accepted ones, stop the bots, let queued commands finish (their pushes go out), then
  // say goodbye to every socket with 1001 — each step only until the close deadline.
  await app.register(fastifyWebsocket, {
    options: { maxPayload: bodyLimit },
    preClose: async () => {
      if (tournamentTimer !== null) clearInterval(tournamentTimer);
      scheduler.stop();
      await until(sweeper.stop(), closeDeadline);
      await until(dispatcher.stop(), closeDeadline);
      await sockets.stopCommands(closeDeadline);
      await until(bots.stop(), closeDeadline);
      await until(commands.drain(), closeDeadline);
      const { terminated } = await sockets.closeAll(closeDeadline);
      if (terminated > 0) app.log.warn({ terminated }, 'live sockets that did not complete the close handshake in time were cut');
      app.websocketServer.close();
    },
  });

  refuseOtherUpgrades(app);
  await app.register(organizerKeyPlugin, { organizers });
  await registerRateLimits(app);
  app.decorate('rateLimits', options.rateLimits ?? { gamesPerMinute: 0, commandsPerSecond: 0 });
  await app.register(healthRoutes);
  // The socket protocol, for client authors without the repository: built from the
  // registered schemas at the first request, the same document `npm run openapi` writes.
  let asyncApi: Record<string, unknown> | undefined;
  app.get('/asyncapi.json', {
    schema: { operationId: 'getAsyncApi', tags: ['operations'], summary: 'The AsyncAPI 3.0 document of the live sockets', description: 'Messages and close codes of `GET /games/{id}/live` and `GET /tournaments/{id}/live`, generated from the schemas the sockets use (asyncapi/asyncapi.json in the repository).', security: [], response: { 200: z.record(z.string(), z.unknown()), ...bareRouteFailures } },
    handler: async () => (asyncApi ??= JSON.parse(generateAsyncApi()) as Record<string, unknown>),
  });
  await app.register(metricsRoutes);
  await app.register(catalogRoutes);
  await app.register(gameRoutes);
  await app.register(raceLogRoutes);
  await app.register(liveRoutes);
  await app.register(webPages);
  await app.register(organizerRoutes);
  await app.register(tournamentRoutes);
  await app.register(tournamentAdminRoutes);
  await app.register(tournamentJoinRoutes);
  await app.register(webhookRoutes);
  await app.register(tournamentLiveRoutes);
  await mcpRoutes(app, { ...defaultMcpLimits, ...options.mcp });

  app.addHook('onReady', async () => {
    if (options.background === false) return;
    await notifier?.start();
    scheduler.start();
    await bots.start();
    sweeper.start();
    dispatcher.start();
    const pollMs = options.tournamentPollMs ?? 1000;
    if (pollMs > 0) {
      // A database failing over is no fault of ours: warned, and tried again at the next poll.
      const attend = () => tournaments.attend().catch((error: unknown) => app.log[databaseUnavailable(error) ? 'warn' : 'error']({ err: error }, 'attending to tournaments failed'));
      await attend();
      tournamentTimer = setInterval(attend, pollMs);
      tournamentTimer.unref();
    }
  });
  app.addHook('onClose', async () => {
    clearTimeout(cutConnections);
    if (resyncTimer !== null) clearInterval(resyncTimer);
    await notifier?.stop();
    await snapshots.drain();
  });
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
