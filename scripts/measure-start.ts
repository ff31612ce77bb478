// Usage: npm run measure:start [-- --runs 3]
// How long the service takes to come up, printed as one JSON line:
//   start    `npm start` on an unchanged checkout (built already, so nothing is built)
//            with its embedded database (a scratch data directory, initialised by a
//            first start that is not counted): from the spawn to the first 200 of /health
//   restart  the server on an external database ($DATABASE_URL, else a scratch database
//            on an embedded Postgres) killed with SIGKILL and started again as the
//            Dockerfile starts it: from the new spawn to the first 200 of /ready, and
//            the CPU the new process used until then
// with the machine's load average, which stretches every figure on a shared machine.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort, root, scratchDatabase } from './server-process.ts';
import { parseOptions } from './lib.ts';

const options = parseOptions(import.meta.url, { runs: { type: 'string', default: '3' } }, ['runs']);

/** Milliseconds from `started` until `path` answers 200, or the process exits. */
async function until(child: ChildProcess, base: string, path: string, started: number): Promise<number> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const up = await fetch(`${base}${path}`).then((r) => r.ok, () => false);
    if (up) return Math.round(performance.now() - started);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** CPU seconds a process has used so far (user + system), in ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Math.round(((Number(fields[11]) + Number(fields[12])) / 100) * 1000);
}

async function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  const exited = once(child, 'exit');
  child.kill(signal);
  await exited;
}

const env = (port: number, extra: Record<string, string>): NodeJS.ProcessEnv => ({ ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...extra });

async function npmStarts(runs: number): Promise<number[]> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'spielwerk-start-'));
  const times: number[] = [];
  try {
    for (let run = 0; run <= runs; run++) {
      const port = await freePort();
      const started = performance.now();
      // The embedded database, whatever this shell has in DATABASE_URL.
      const { DATABASE_URL: _external, ...embedded } = env(port, { EMBEDDED_PG_DATA_DIR: dataDir });
      const child = spawn('npm', ['start', '--silent'], { cwd: root, env: embedded, stdio: ['ignore', 'ignore', 'inherit'] });
      const ms = await until(child, `http://127.0.0.1:${port}`, '/health', started);
      // The first start initialises the data directory: not what a restart costs.
      if (run > 0) times.push(ms);
      await stop(child, 'SIGTERM');
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  return times;
}

async function restarts(runs: number): Promise<{ ms: number; cpuMs: number }[]> {
  const database = await scratchDatabase(process.env.DATABASE_URL);
  const figures: { ms: number; cpuMs: number }[] = [];
  try {
    const port = await freePort();
    const start = () => spawn(process.execPath, ['--max-semi-space-size=8', '--heap-growing-percent=50', 'dist/server.js'], { cwd: root, env: env(port, { DATABASE_URL: database.url }), stdio: ['ignore', 'ignore', 'inherit'] });
    let child = start();
    await until(child, `http://127.0.0.1:${port}`, '/ready', performance.now());
    for (let run = 0; run < runs; run++) {
      await stop(child, 'SIGKILL');
      const started = performance.now();
      child = start();
      const ms = await until(child, `http://127.0.0.1:${port}`, '/ready', started);
      figures.push({ ms, cpuMs: cpuMs(child.pid!) });
    }
    await stop(child, 'SIGTERM');
  } finally {
    await database.drop();
  }
  return figures;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const loadBefore = os.loadavg()[0]!;
const start = await npmStarts(options.runs);
const restart = await restarts(options.runs);
console.log(
  JSON.stringify({
    startToHealthMs: { runs: start, median: median(start) },
    restartToReadyMs: { runs: restart.map((r) => r.ms), median: median(restart.map((r) => r.ms)), cpuMs: restart.map((r) => r.cpuMs) },
    loadAverage1m: { before: Math.round(loadBefore * 10) / 10, after: Math.round(os.loadavg()[0]! * 10) / 10 },
    cores: os.availableParallelism(),
  }),
);
