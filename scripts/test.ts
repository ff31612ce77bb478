// `npm test [-- tap args]`: one Postgres and one migrated template for the whole run,
// handed to tap's workers through the environment (see test/helpers/test-server.ts and database.ts);
// everything the run made is removed again, whatever the tests did.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ADMIN_URL_ENV, PREFIX_ENV, TEMPLATE_ENV, startTestServer } from '../test/helpers/test-server.ts';

const started = performance.now();
const server = await startTestServer();
const setupMs = Math.round(performance.now() - started);
console.log(`# test database ready in ${setupMs} ms (${process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded Postgres'})`);

let code = 1;
try {
  const tapBin = fileURLToPath(new URL('../node_modules/.bin/tap', import.meta.url));
  const child = spawn(tapBin, process.argv.slice(2), {
    stdio: 'inherit',
    env: {
      ...process.env,
      [ADMIN_URL_ENV]: server.adminUrl,
      [TEMPLATE_ENV]: server.template,
      [PREFIX_ENV]: server.prefix,
    },
  });
  // A Ctrl-C reaches tap through the terminal; SIGTERM (CI timeouts) is passed on, and
  // this process stays alive to clean up after tap has gone.
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGINT', () => {});
  process.on('SIGTERM', forward);
  code = await new Promise<number>((resolve) => {
    child.on('error', () => resolve(1));
    child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 128 : 1)));
  });
} finally {
  await server.stop();
}
process.exit(code);
