// `npm start` without DATABASE_URL: the service runs its own Postgres, and a Ctrl-C in
// the terminal (SIGINT to the whole process group) shuts both down cleanly: the
// database is stopped by the service after the service is done with it, not by the
// terminal's signal underneath it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';

t.test('Ctrl-C stops the service and then its embedded Postgres, cleanly', async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'spielwerk-embedded-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', EMBEDDED_PG_DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  // detached: a process group of its own, as a terminal gives a foreground job.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let postmaster = 0;
  t.teardown(() => {
    // Only after a failure: the service, then its database in its own process group.
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
    if (postmaster !== 0 && existsSync(`/proc/${postmaster}`)) process.kill(postmaster, 'SIGQUIT');
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const started = Date.now();
  let url: string | undefined;
  while (url === undefined) {
    url = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
    if (child.exitCode !== null || Date.now() - started > 90_000) throw new Error(`the server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const created = await fetch(`${url}/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'pechvogel', seats: [{}, {}] }) });
  t.equal(created.status, 201, 'the service works on its own Postgres');
  postmaster = Number((await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);

  process.kill(-child.pid!, 'SIGINT');
  const [exitCode] = await once(child, 'exit');
  t.equal(exitCode, 0, 'the process exits 0');
  t.match(output, /stopped cleanly/);
  t.notMatch(output, /terminating connection|notification connection lost/, 'the database was not pulled away from under the service');
  t.notOk(existsSync(`/proc/${postmaster}`), 'and the embedded Postgres is gone');
});
