// What the browser tests share: the real app listening on a port (its own fresh
// database, real timers for deadlines and bots), Debian's Chromium driven by
// playwright-core, games made and played through the public API, and screenshots in
// a git-ignored folder (test/web/screenshots/).
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildApp, type AppOptions } from '../../src/app.ts';
import { closeAtTeardown, cutSockets, listening, testAdminKey } from '../helpers/app.ts';
import { testDatabase, type TestLike } from '../helpers/database.ts';

export const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
// The flags the machine's notes give: headless as root, and no calls home (the
// closed network refuses them, many at a time).
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface Served {
  readonly url: string;
  /** Cuts every live connection, as a network drop would. */
  dropSockets(): void;
  api<T = any>(method: string, route: string, body?: unknown, token?: string | null): Promise<T>;
}

/** The app on 127.0.0.1 at a free port, closed at teardown; the test admin key
 * (testAdminKey) creates organizers. */
export async function serve(t: TestLike, options: Pick<AppOptions, 'webhooks' | 'rateLimits'> = {}): Promise<Served> {
  const database = await testDatabase(t);
  const app = await buildApp({ prisma: database.prisma, pool: database.pool, notifyUrl: database.url, adminKey: testAdminKey, ...options });
  const url = await listening(app);
  closeAtTeardown(t, app);
  return {
    url,
    dropSockets: () => cutSockets(app),
    async api(method, route, body, token) {
      const headers: Record<string, string> = {};
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (token) headers.authorization = `Bearer ${token}`;
      const response = await fetch(`${url}${route}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const json = await response.json();
      if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(json)}`);
      return json as never;
    },
  };
}

/** A fresh Chromium, closed at teardown. playwright gives each launch a new empty
 * profile of its own (and refuses a --user-data-dir flag). */
export async function browser(t: TestLike): Promise<Browser> {
  const launched = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  t.teardown(() => launched.close());
  const newContext = launched.newContext.bind(launched);
  launched.newContext = async (options) => {
    const context = await newContext(options);
    await context.addInitScript(KEEP_NAMES);
    return context;
  };
  // As playwright's own newPage: a context of its own, closed with the page.
  launched.newPage = async (options) => {
    const context = await launched.newContext(options);
    const page = await context.newPage();
    // Closing the browser closes its pages too, and then this context is gone already.
    page.once('close', () => void context.close().catch(() => undefined));
    return page;
  };
  return launched;
}

// tap loads the tests through tsx, whose esbuild keeps function names by wrapping
// functions in `__name(fn, "name")`; a function handed to page.evaluate carries those
// calls into the page, which has no such helper. Every page gets one that does nothing.
const KEEP_NAMES = 'globalThis.__name ??= (fn) => fn;';

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(screenshots, { recursive: true });
  const file = path.join(screenshots, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Every game type with bots for every seat and options that keep it short. */
export const botTables = {
  pechvogel: { seats: 3, options: { reactionSeconds: 2 } },
  'fackel-und-keule': { seats: 3, options: {} },
  mistkaefer: { seats: 2, options: {} },
  'porca-miseria': { seats: 3, options: { revealMs: 500, windowMs: 500, maxActions: 8 } },
} as const;
export type GameType = keyof typeof botTables;
export const gameTypes = Object.keys(botTables) as GameType[];

const names = ['Thea', 'Umberto', 'Kelly', 'Ada', 'Bruno'];

/** Polls until the game is finished (bots and deadlines play it), bounded. */
export async function finished(served: Served, id: string, limitMs = 120_000): Promise<any> {
  const started = Date.now();
  for (;;) {
    const game = await served.api('GET', `/games/${id}`);
    if (game.status === 'finished') return game;
    if (Date.now() - started > limitMs) throw new Error(`game ${id} not finished after ${limitMs} ms (version ${game.version})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A game of bots only, played to its end. */
export async function botGame(served: Served, type: GameType, seed: string): Promise<string> {
  const { seats, options } = botTables[type];
  const created = await served.api('POST', '/games', {
    type,
    seed,
    options,
    seats: Array.from({ length: seats }, (_, i) => ({ name: names[i], bot: i % 2 === 0 ? 'greedy' : 'random' })),
  });
  await finished(served, created.game.id);
  return created.game.id;
}

/** A small seeded generator for the test's own choices. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = s;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** Plays a seat through the API like a client of its own: a random legal command
 * whenever it has one, until the game is over. Refusals of a race lost are expected. */
export async function playSeat(served: Served, id: string, token: string, seed: number): Promise<void> {
  const random = rng(seed);
  const started = Date.now();
  for (;;) {
    const game = await served.api('GET', `/games/${id}`, undefined, token);
    if (game.status === 'finished') return;
    if (Date.now() - started > 120_000) throw new Error(`game ${id} not over after 120 s`);
    const legal: unknown[] = game.legalCommands;
    if (legal.length > 0) {
      const command = legal[Math.floor(random() * legal.length)];
      await served.api('POST', `/games/${id}/commands`, { command, expectedVersion: game.version }, token).catch(() => {});
    }
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
}
