import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The schema engine is WebAssembly that, once instantiated, stays in the process for
// good (its module keeps the instance): about 30 MiB of a server that otherwise idles
// near 100. The server therefore migrates in a short-lived child process
// (migrate-process.ts), and never loads the engine itself.
const here = fileURLToPath(import.meta.url);
const childScript = path.join(path.dirname(here), `migrate-process${path.extname(here)}`);
/** Flags the child must not inherit: a second inspector or profiler of the migration. */
const parentOnly = /^--(inspect|cpu-prof|heap-prof|prof)/;

/** applyMigrations in a child process: the same node flags (a TypeScript loader
 * included), the URL in its environment rather than on its command line. */
export function applyMigrationsInChild(databaseUrl: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv.filter((flag) => !parentOnly.test(flag)), childScript], {
      env: { ...process.env, SPIELWERK_MIGRATE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) return resolve(JSON.parse(stdout.trim().split('\n').at(-1)!) as string[]);
      reject(new Error(`migrations failed (exit ${code ?? signal}): ${stderr.trim()}`));
    });
  });
}
