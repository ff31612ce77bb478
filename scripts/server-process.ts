// What the benchmarks that start the server themselves share (bench:cold,
// bench:audience): a scratch database, migrated, on an embedded Postgres or on a given
// server, and the server as `npm start` runs it (built, then `node dist/server.js`),
// started, found healthy and stopped by its own PID.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Pool } from 'undici';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { applyMigrations } from '../src/db/migrate.ts';

export const root = path.resolve(import.meta.dirname, '..');

/** A migrated database of its own: on an embedded Postgres without `adminUrl`, else
 * created on that server. `drop` removes it (and stops the embedded server). */
export async function scratchDatabase(adminUrl: string | undefined): Promise<{ url: string; drop(): Promise<void> }> {
  let stopEmbedded = async () => {};
  if (adminUrl === undefined) {
    const embedded = await startEmbeddedPostgres({ dataDir: await mkdtemp(path.join(os.tmpdir(), 'spielwerk-bench-')), ephemeral: true });
    adminUrl = embedded.url;
    stopEmbedded = embedded.stop;
  }
  const name = `spielwerk_bench_${randomUUID().slice(0, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).href;
  await applyMigrations(url);
  return {
    url,
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
      await stopEmbedded();
    },
  };
}

/** Builds dist/ when its sources changed, as `npm start` does before it runs the server. */
export function build(): void {
  execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs'), 'server'], { cwd: root, stdio: 'inherit' });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  readonly process: ChildProcess;
  readonly base: string;
  /** From the spawn to the first 200 of /health. */
  readonly startMs: number;
  /** The server's resident memory now, in MiB. */
  rssMib(): number;
  stop(): Promise<void>;
}

export interface ServerOptions {
  /** Default: a free one. */
  readonly port?: number;
  /** More environment for the server (LOG_LEVEL is warn unless given here). */
  readonly env?: Readonly<Record<string, string>>;
  /** Where its log lines (stdout and stderr) go; default: stderr only, to this process's. */
  readonly logFile?: string;
}

/** `node dist/server.js` on 127.0.0.1 against `databaseUrl`, with npm start's V8 flags, once /health answers. */
export async function startServer(databaseUrl: string, options: ServerOptions = {}): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  const started = performance.now();
  const log = options.logFile === undefined ? null : openSync(options.logFile, 'a');
  const child = spawn(process.execPath, ['--max-semi-space-size=8', '--heap-growing-percent=50', path.join(root, 'dist/server.js')], {
    cwd: root,
    // Every socket of a benchmark comes from this one address.
    env: { MAX_CONNECTIONS_PER_ADDRESS: '0', BOT_THINK_MS: '0', ...process.env, LOG_LEVEL: 'warn', ...options.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', log ?? 'ignore', log ?? 'inherit'],
  });
  if (log !== null) closeSync(log);
  // Stopped with this process, whatever ends it.
  const kill = () => child.kill('SIGKILL');
  process.on('exit', kill);
  const base = `http://127.0.0.1:${port}`;
  const probe = new Pool(base, { connections: 1 });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      const up = await probe.request({ path: '/health', method: 'GET' }).then(async (r) => (await r.body.text(), r.statusCode === 200), () => false);
      if (up) break;
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await probe.close();
  }
  return {
    process: child,
    base,
    startMs: Math.round(performance.now() - started),
    rssMib: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 102.4) / 10;
    },
    stop: async () => {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
      process.off('exit', kill);
    },
  };
}
