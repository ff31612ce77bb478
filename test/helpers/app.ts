// An app on its own fresh database, driven through app.inject(); closed at teardown.
import type { AddressInfo } from 'node:net';
import { buildApp, type App, type AppOptions } from '../../src/app.ts';
import { testDatabase, type TestDatabase, type TestLike } from './database.ts';
import { onCitus } from './citus.ts';

export interface TestClock {
  now: number;
  (): number;
}

/** A clock the test moves by hand. */
export function testClock(start = Date.UTC(2026, 10, 29, 12)): TestClock {
  const clock = (() => clock.now) as TestClock;
  clock.now = start;
  return clock;
}

/** The admin key every test app accepts (SPIELWERK_ADMIN_KEY in production). */
export const testAdminKey = 'sw_admin_test_key_0123456789abcdefghijklmnop';

export async function testApp(
  t: TestLike,
  options: { clock?: () => number; database?: TestDatabase } & Pick<AppOptions, 'live' | 'connections' | 'mcp' | 'openGameTtlMs' | 'notifier' | 'rateLimits' | 'webhooks' | 'sweeper' | 'logger' | 'botThinkMs'> = {},
): Promise<App & { databaseUrl: string }> {
  const database = options.database ?? (await testDatabase(t));
  const app = await buildApp({
    prisma: database.prisma,
    pool: database.pool,
    notifyUrl: database.url,
    distributed: onCitus(),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    scheduler: { timers: false },
    // Pushes across instances must come from notifications, not the safety check.
    resyncMs: 60_000,
    adminKey: testAdminKey,
    tournamentPollMs: 0,
    ...(options.live === undefined ? {} : { live: options.live }),
    ...(options.connections === undefined ? {} : { connections: options.connections }),
    ...(options.mcp === undefined ? {} : { mcp: options.mcp }),
    ...(options.openGameTtlMs === undefined ? {} : { openGameTtlMs: options.openGameTtlMs }),
    ...(options.notifier === undefined ? {} : { notifier: options.notifier }),
    ...(options.rateLimits === undefined ? {} : { rateLimits: options.rateLimits }),
    // Deliveries go out when this app appends, not by a poll every second.
    webhooks: { pollMs: 0, ...options.webhooks },
    // A test sweeps for stalled games itself: on a timer, it would move on the games a
    // test leaves waiting on purpose.
    sweeper: { everyMs: 0, ...options.sweeper },
    // Bots move at once unless a test gives them time to think.
    botThinkMs: options.botThinkMs ?? 0,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });
  await app.ready();
  closeAtTeardown(t, app);
  return Object.assign(app, { databaseUrl: database.url });
}

/** Cuts every live socket of `app` at once, as a network drop would. */
export function cutSockets(app: App): void {
  for (const socket of app.websocketServer.clients) socket.terminate();
}

/** Closes `app` when `t` ends, its live sockets cut first: a socket whose peer never
 * answers the close handshake would keep the test process alive for ws's 30 s close
 * timeout. */
export function closeAtTeardown(t: TestLike, app: App): void {
  t.teardown(async () => {
    cutSockets(app);
    await app.close();
  });
}

export const bearerHeader = (token: string | null | undefined) => (token ? { authorization: `Bearer ${token}` } : {});

/** Creates a game through the API and returns its id and tokens. Its people arrive
 * (each token reads the game once, which starts it: docs/lifecycle.md) unless
 * `arrive` is false; `created.game` is then the game as the last arrival saw it. */
export async function createGame(app: App, body: Record<string, unknown>, { arrive = true }: { arrive?: boolean } = {}) {
  const response = await app.inject({ method: 'POST', url: '/games', payload: body });
  if (response.statusCode !== 201) throw new Error(`create failed: ${response.statusCode} ${response.body}`);
  const created = response.json() as { game: { id: string }; refereeToken: string; seats: { seat: number; token: string | null }[] };
  const tokens = created.seats.map((s) => s.token);
  if (arrive) await arriveAll(app, created.game.id, tokens, created);
  return { id: created.game.id, referee: created.refereeToken, tokens, created };
}

/** Each token's person arrives at the game (one read each); `into.game` becomes the last read's game. */
export async function arriveAll(app: App, id: string, tokens: readonly (string | null)[], into?: { game: unknown }) {
  for (const token of tokens) {
    if (token === null) continue;
    const read = await app.inject({ method: 'GET', url: `/games/${id}`, headers: bearerHeader(token) });
    if (read.statusCode !== 200) throw new Error(`arrival failed: ${read.statusCode} ${read.body}`);
    if (into !== undefined) into.game = (read.json() as { game: unknown }).game;
  }
}

export async function command(app: App, id: string, token: string | null | undefined, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url: `/games/${id}/commands`, payload: body, headers: { ...bearerHeader(token), ...headers } });
}

/** Creates an organizer through the admin key; its first key has `scopes`. */
export async function createOrganizer(app: App, scopes: readonly string[] = ['games:create', 'tournaments:run', 'results:read', 'keys:manage'], name = 'Spielekreis Nord') {
  const response = await app.inject({ method: 'POST', url: '/organizers', headers: bearerHeader(testAdminKey), payload: { name, key: { name: 'first', scopes } } });
  if (response.statusCode !== 201) throw new Error(`organizer failed: ${response.statusCode} ${response.body}`);
  const created = response.json() as { organizer: { id: string }; key: string; keyInfo: { id: string } };
  return { id: created.organizer.id, key: created.key, keyId: created.keyInfo.id };
}

/** Starts `app` on a free port of 127.0.0.1 and returns the port, for what only real
 * TCP shows (raw requests, sockets, processes of their own). */
export async function listeningPort(app: App): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

/** As listeningPort, returning the base URL (http://…). */
export async function listening(app: App): Promise<string> {
  return `http://127.0.0.1:${await listeningPort(app)}`;
}
