// `npm run test:citus [-- tap files and args]`: the suite's API, live and tournament tests
// against a Citus coordinator ($CITUS_URL, its maintenance database, e.g.
// postgresql://postgres@127.0.0.1:55500/postgres, with its workers registered there),
// each test database distributed over the workers (test/helpers/citus.ts); the checks
// of test/citus/ (every hot statement planned for one shard, a round's games all or
// nothing); then `npm run bench` against a server on one node and on Citus (skip it
// with BENCH=0). Without CITUS_URL it runs nothing and says so: CI has no Citus.
// docs/scaling.md says how to build and start one here.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ADMIN_URL_ENV, PREFIX_ENV, TEMPLATE_ENV, startTestServer } from '../test/helpers/test-server.ts';
import { CITUS_TEST_ENV } from '../test/helpers/citus.ts';

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
  const tapBin = fileURLToPath(new URL('../node_modules/.bin/tap', import.meta.url));
  const child = spawn(tapBin, args.length > 0 ? args : files, {
    stdio: 'inherit',
    env: { ...process.env, [ADMIN_URL_ENV]: server.adminUrl, [TEMPLATE_ENV]: server.template, [PREFIX_ENV]: server.prefix },
  });
  process.on('SIGINT', () => {});
  process.on('SIGTERM', (signal) => child.kill(signal));
  code = await new Promise<number>((resolve) => {
    child.on('error', () => resolve(1));
    child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 128 : 1)));
  });
} finally {
  await server.stop();
}
process.exit(code);
