// `npm run test:citus [-- tap files and args]`: the suite's API, live and tournament tests
// against a Citus coordinator ($CITUS_URL, its maintenance database, e.g.
// postgresql://postgres@127.0.0.1:55500/postgres, with its workers registered there),
// each test database distributed over the workers (test/helpers/citus.ts); the checks
// of test/citus/ (every hot statement planned for one shard, a round's games all or
// nothing); then `npm run bench` against a server on one node and on Citus (BENCH=0
// skips it; BENCH_ROUNDS=N repeats the pair). The one node is a plain database on the
// coordinator's own PostgreSQL, without the extension: same server, same settings; the
// Citus database is spread over the workers in 32 shards by the server's own start.
// Without CITUS_URL it runs nothing and says so: CI has no Citus. docs/scaling.md says
// how to build and start one here.
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { applyMigrations } from '../src/db/migrate.ts';
import { databaseUrl, runTap, startTestServer, withAdmin } from '../test/helpers/test-server.ts';
import { CITUS_TEST_ENV, dropOnWorkers, createOnEveryNode } from '../test/helpers/citus.ts';
import { build, startServer } from './server-process.ts';

const citusUrl = process.env.CITUS_URL;
if (!citusUrl) {
  console.log('# test:citus skipped: CITUS_URL is not set (a Citus coordinator\'s maintenance database, e.g. postgresql://postgres@127.0.0.1:55500/postgres; see docs/scaling.md)');
  process.exit(0);
}
process.env[CITUS_TEST_ENV] = '1';

/** Test files of test/routes/ that are not about the database: a browser page, the
 * embedded Postgres, documents generated from the routes. */
const notOnCitus = new Set(['embedded.test.ts', 'pages.test.ts', 'openapi.test.ts', 'openapi-types.test.ts', 'documented-shapes.test.ts', 'readme.test.ts', 'cors.test.ts', 'connection-limits.test.ts']);
const root = fileURLToPath(new URL('..', import.meta.url));
const files = [
  ...readdirSync(`${root}test/routes`).filter((f) => f.endsWith('.test.ts') && !notOnCitus.has(f)).map((f) => `test/routes/${f}`),
  ...readdirSync(`${root}test/citus`).filter((f) => f.endsWith('.citus.ts')).map((f) => `test/citus/${f}`),
];
const args = process.argv.slice(2);

const started = performance.now();
const server = await startTestServer();
console.log(`# Citus test template ready in ${Math.round(performance.now() - started)} ms on ${new URL(citusUrl).host}`);
let code = 1;
try {
  // Every statement crosses one more connection, and three clusters share the cores:
  // the files take two to four times as long as on one server (openapi-fuzz up to 5 minutes).
  code = await runTap(server, ['--timeout=600', ...(args.length > 0 ? args : files)]);
  if (process.env.BENCH !== '0' && args.length === 0) await benchmark(server.adminUrl, server.prefix);
} finally {
  await server.stop();
}
process.exit(code);

/** `npm run bench` against a server on one node, then on Citus, BENCH_ROUNDS times; one JSON line each. */
async function benchmark(adminUrl: string, prefix: string): Promise<void> {
  build();
  // One address sends every request of the benchmark.
  Object.assign(process.env, { RATE_LIMIT_GAMES_PER_MINUTE: '0', RATE_LIMIT_COMMANDS_PER_SECOND: '0' });
  const rounds = Number(process.env.BENCH_ROUNDS) || 1;
  const results: { node: string; commandsPerSecond: number }[] = [];
  for (let round = 1; round <= rounds; round++) {
    for (const citus of [false, true]) {
      const name = `${prefix}bench_${citus ? 'citus' : 'one'}`;
      await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`));
      try {
        // On Citus the server migrates and distributes by itself at start.
        if (citus) await createOnEveryNode(adminUrl, name);
        else await applyMigrations(databaseUrl(adminUrl, name));
        const running = await startServer(databaseUrl(adminUrl, name));
        try {
          const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/bench.ts', '--url', running.base], { cwd: root, maxBuffer: 1 << 24 });
          const line = stdout.trim().split('\n').at(-1)!;
          const node = citus ? 'citus (coordinator + 2 workers)' : 'one node';
          console.log(`# bench ${round}/${rounds}, ${node}: ${line}`);
          results.push({ node, commandsPerSecond: (JSON.parse(line) as { commandsPerSecond: number }).commandsPerSecond });
        } finally {
          await running.stop();
        }
      } finally {
        await withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`));
        if (citus) await dropOnWorkers(adminUrl, [name]);
      }
    }
  }
  const of = (node: string) => results.filter((r) => r.node === node).map((r) => r.commandsPerSecond);
  const [one, citus] = [of('one node'), of('citus (coordinator + 2 workers)')];
  console.log(`# bench commands/s: one node ${one.join(', ')}; Citus ${citus.join(', ')} (Citus at ${citus.map((c, i) => `${Math.round((100 * c) / one[i]!)}%`).join(', ')} of one node)`);
}
