// The committed OpenAPI document is what the routes generate, is valid 3.1, and both
// linters client tooling uses find nothing in it (offline, from node_modules).
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import t from 'tap';
import { games } from '../../src/domain/games.ts';
import { buildApp } from '../../src/app.ts';
import { asyncApiPath } from '../../src/asyncapi.ts';
import { createClients } from '../../src/db/client.ts';
import { generateOpenApi, openApiPath } from '../../src/openapi.ts';
import { problemCodes } from '../../src/routes/problem.ts';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_UPDATE_NOTIFIER: '1' };
/** A linter exits non-zero when it finds something; its JSON report says what. */
const lint = async (bin: string, args: string[]): Promise<string> => {
  try {
    return (await run(`${root}node_modules/.bin/${bin}`, args, { cwd: root, env, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (error) {
    return (error as { stdout?: string }).stdout ?? String(error);
  }
};

t.test('openapi/openapi.json is current and valid', async (t) => {
  const generated = await generateOpenApi();
  const committed = await readFile(openApiPath, 'utf8');
  t.equal(committed, generated, 'the committed document matches the routes (npm run openapi regenerates it)');

  const document = JSON.parse(generated);
  const result = await new Validator().validate(document);
  t.ok(result.valid, `valid OpenAPI ${document.openapi}: ${JSON.stringify(result.errors ?? [])}`);
  t.equal(document.openapi, '3.1.0');
  t.equal(document.info.version, JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')).version, "info.version is the package's version");
  for (const path of ['/catalog', '/games', '/games/{id}', '/games/{id}/commands', '/games/{id}/events', '/games/{id}/view', '/games/{id}/replay', '/games/{id}/join', '/health', '/ready']) {
    t.ok(document.paths[path], `documents ${path}`);
  }
  for (const game of games) {
    const name = game.type.replace(/(^|-)(\w)/g, (_: string, __: string, c: string) => c.toUpperCase());
    t.ok(document.components.schemas[`${name}Command`], `names ${name}'s commands`);
    t.ok(document.components.schemas[`${name}Event`], `and its events`);
    t.ok(document.components.schemas[`${name}View`], `and its view`);
    t.ok(document.paths[`/games/{id}/commands/${game.type}`], `and has a route for its commands alone`);
  }
  t.same(document.components.schemas.Problem.properties.code.enum, problemCodes, 'Problem.code enumerates the stable codes');
  t.notOk(generated.includes(String(Number.MAX_SAFE_INTEGER)), 'no integer is bounded by ±2^53');
});

t.test('a running server serves the socket protocol at /asyncapi.json, and /docs links it', async (t) => {
  const clients = createClients('postgresql://unused@127.0.0.1:1/unused');
  const app = await buildApp({ ...clients, background: false });
  t.teardown(async () => {
    await app.close();
    await clients.close();
  });
  const served = await app.inject({ url: '/asyncapi.json' });
  t.equal(served.statusCode, 200);
  t.match(served.headers['content-type'], /^application\/json/);
  t.same(served.json(), JSON.parse(await readFile(asyncApiPath, 'utf8')), 'the document the repository holds');
  const docs = (await app.inject({ url: '/docs/json' })).json();
  t.match(docs.info.description, '](/asyncapi.json)', "the API's description in /docs links it");
});

t.test('every code the source spells out is one Problem.code documents', async (t) => {
  // A code added as a literal somewhere (a new 429 or 503) without joining a code list
  // would leave the enum incomplete: clients switching on it would not know it.
  const { stdout } = await run('grep', ['-rhoE', "'(request|server|auth|game|command|chance)/[a-z-]+'", 'src'], { cwd: root });
  const spelled = [...new Set(stdout.split('\n').filter((l) => l !== '').map((l) => l.slice(1, -1)))];
  t.ok(spelled.length > 10, `found ${spelled.length} codes in src`);
  t.same(spelled.filter((code) => !problemCodes.includes(code)), [], 'all of them are in problemCodes');
});

t.test('Redocly (recommended ruleset) finds no error and no warning, and nothing is ignored', async (t) => {
  const report = JSON.parse(await lint('redocly', ['lint', 'openapi/openapi.json', '--format=json']));
  t.same(report.totals, { errors: 0, warnings: 0, ignored: 0 }, JSON.stringify(report.problems.slice(0, 5), null, 1));
});

t.test('Spectral (spectral:oas) finds nothing', async (t) => {
  const output = await lint('spectral', ['lint', 'openapi/openapi.json', '--format=json', '--quiet']);
  t.same(JSON.parse(output.trim() === '' ? '[]' : output), [], 'no results');
});
