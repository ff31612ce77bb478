// What the failover test starts, and how it is all taken down again however the test
// ends (finished, failed, SIGINT, SIGTERM): children that log to files of their own in
// the run's folder, and a teardown that runs every step registered once, the last
// registered first, each on its own so that one failing step leaves the others to run.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export class Teardown {
  private readonly steps: { readonly name: string; readonly run: () => unknown }[] = [];
  private running: Promise<void> | null = null;

  /** `run` is called once at teardown; what it throws is printed, not rethrown. */
  add(name: string, run: () => unknown): void {
    this.steps.push({ name, run });
  }

  run(): Promise<void> {
    this.running ??= (async () => {
      for (let step = this.steps.pop(); step !== undefined; step = this.steps.pop()) {
        try {
          await step.run();
        } catch (error) {
          console.error(`teardown: ${step.name} failed: ${String(error)}`);
        }
      }
    })();
    return this.running;
  }
}

export interface Logged {
  readonly child: ChildProcess;
  readonly logFile: string;
  /** The log's last `lines` lines, for a failure's report. */
  tail(lines?: number): string;
  /** SIGTERM, and SIGKILL if it has not exited after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/** `command` with stdout and stderr appended to `logFile`, stopped at teardown. */
export function spawnLogged(teardown: Teardown, command: string, args: readonly string[], logFile: string, env: NodeJS.ProcessEnv = process.env): Logged {
  const fd = openSync(logFile, 'a');
  const child = spawn(command, args, { stdio: ['ignore', fd, fd], env });
  closeSync(fd);
  // Whatever ends this process, its children do not outlive it.
  const kill = () => child.kill('SIGKILL');
  process.on('exit', kill);
  const stop = async (graceMs = 5000) => {
    process.off('exit', kill);
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    if ((await Promise.race([exited.then(() => true), sleep(graceMs).then(() => false)])) === false) {
      child.kill('SIGKILL');
      await exited;
    }
  };
  teardown.add(`stopping ${command} (pid ${child.pid})`, () => stop());
  return {
    child,
    logFile,
    tail: (lines = 20) => readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n'),
    stop,
  };
}

/** Runs `command` to its end; rejects with its output when it fails. */
export async function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}: ${output.trim()}`);
  return output;
}

/** Polls `probe` every `everyMs` until it returns something other than undefined. */
export async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const found = await probe();
      if (found !== undefined) return found;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms${last === undefined ? '' : ` (last: ${String(last)})`}`);
    await sleep(everyMs);
  }
}
