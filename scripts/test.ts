// `npm test [-- tap args]`: one Postgres and one migrated template for the whole run,
// handed to tap's workers through the environment (see test/helpers/test-server.ts and database.ts);
// everything the run made is removed again, whatever the tests did.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runTap, startTestServer } from '../test/helpers/test-server.ts';

// Tests import the client kit's built JavaScript and load the built web pages: rebuilt
// first when their sources changed (scripts/build.mjs; nothing to do when they did not).
execFileSync(process.execPath, [fileURLToPath(new URL('build.mjs', import.meta.url)), 'kit', 'web'], { stdio: 'inherit' });

const started = performance.now();
const server = await startTestServer();
const setupMs = Math.round(performance.now() - started);
console.log(`# test database ready in ${setupMs} ms (${process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded Postgres'})`);

let code = 1;
try {
  code = await runTap(server, process.argv.slice(2));
} finally {
  await server.stop();
}
process.exit(code);
