// Starting the process: a database it cannot use is told in one log line that says
// what is wrong, and the process exits 1; an embedded Postgres that dies under a
// running service makes it exit non-zero, for its supervisor to restart it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { testDatabase } from '../helpers/database.ts';

function startServer(env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'close').then(([code]) => code as number);
  return { child, output: () => output, exited };
}

async function refusedPort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  return port;
}

t.test('a database the service cannot use: one clear log line, exit 1', async (t) => {
  const migrated = await testDatabase(t);
  const foreign = await testDatabase(t);
  // Tables that no migration of this service's records: someone else's schema.
  await foreign.pool.query('DROP TABLE _prisma_migrations');
  const wrongPassword = new URL(migrated.url);
  wrongPassword.password = 'not-the-password';
  const cases: [string, string, RegExp][] = [
    ['not a URL', 'not a url', /DATABASE_URL is not a URL/],
    ['nothing listening', `postgresql://postgres@127.0.0.1:${await refusedPort()}/x`, /no database server accepts connections at 127\.0\.0\.1:\d+/],
    ['a foreign schema', foreign.url, /holds tables that this service's migrations did not create/],
    ['no such database', Object.assign(new URL(migrated.url), { pathname: '/no_such_database' }).toString(), /there is no database no_such_database/],
  ];
  // The suite's own embedded Postgres checks passwords; a DATABASE_URL server may trust anyone.
  if (!process.env.DATABASE_URL) cases.push(['wrong credentials', wrongPassword.toString(), /refused the credentials of user postgres/]);
  await Promise.all(
    cases.map(async ([what, url, said]) => {
      const server = startServer({ DATABASE_URL: url });
      t.equal(await server.exited, 1, `${what}: exit 1`);
      const lines = server.output().trim().split('\n');
      t.equal(lines.length, 1, `${what}: one line (${server.output().slice(0, 300)})`);
      const line = JSON.parse(lines[0]!) as { level: number; msg: string };
      t.equal(line.level, 50, `${what}: at error level`);
      t.match(line.msg, said, `${what}: ${line.msg}`);
      t.notMatch(line.msg, /not-the-password/, `${what}: no password in the log`);
    }),
  );
});

t.test('the start is logged: where the database runs, which migrations were applied', async (t) => {
  const database = await testDatabase(t);
  const server = startServer({ DATABASE_URL: database.url });
  t.teardown(() => server.child.kill('SIGKILL'));
  while (!server.output().includes('Server listening')) {
    if (server.child.exitCode !== null) throw new Error(server.output());
    await new Promise((r) => setTimeout(r, 50));
  }
  const lines = server.output().trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  const ready = lines.find((line) => line.msg === 'database ready');
  t.match(ready, { level: 30, database: new RegExp(`^${new URL(database.url).pathname.slice(1)} at 127\\.0\\.0\\.1:\\d+$`), embedded: false });
  t.match(lines.find((line) => line.msg === 'the database schema is up to date'), { level: 30, applied: [] }, 'a migrated database: nothing applied');
  t.notMatch(server.output(), new RegExp(new URL(database.url).password || 'never-matches'), 'no password in the log');
});

t.test('an embedded Postgres that dies makes the service exit non-zero', async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'spielwerk-dies-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const server = startServer({ EMBEDDED_PG_DATA_DIR: dataDir, DATABASE_URL: '' });
  t.teardown(() => server.child.kill('SIGKILL'));
  while (!server.output().includes('Server listening')) {
    if (server.child.exitCode !== null) throw new Error(server.output());
    await new Promise((r) => setTimeout(r, 50));
  }
  t.match(server.output(), /"embedded":true/, 'the log says the database is embedded');
  t.match(server.output(), /applied \d+ migrations/, 'and which migrations a new database got');
  const postmaster = Number((await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  process.kill(postmaster, 'SIGKILL');
  const started = Date.now();
  const code = await server.exited;
  t.not(code, 0, `the service exits with ${code}`);
  t.ok(Date.now() - started < 15_000, 'within the bounded shutdown');
  t.match(server.output(), /the embedded Postgres exited unexpectedly/);
});
