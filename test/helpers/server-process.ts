// The real server as its own process (src/server.ts on a given database), for the tests
// that stop it with a signal or kill -9 and start another one on the same data.
import { spawn, type ChildProcess } from 'node:child_process';

export interface ServerProcess {
  process: ChildProcess;
  url: string;
  /** Everything it printed so far, stdout and stderr. */
  output: () => string;
}

export async function startServerProcess(databaseUrl: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', BOT_THINK_MS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const started = Date.now();
  for (;;) {
    const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
    if (match) return { process: child, url: match[1]!, output: () => output };
    if (child.exitCode !== null || Date.now() - started > 60_000) throw new Error(`the server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
