// The README's quick start works when pasted: its shell blocks run, in order, in one
// bash against a real server (on a free port instead of 3000), with curl made to fail
// on any HTTP error so that a refused step fails the test.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import t from 'tap';
import { listeningPort, testApp } from '../helpers/app.ts';

const run = promisify(execFile);
const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
const section = readme.slice(readme.indexOf('## Playing a game over HTTP'), readme.indexOf('- **Versions.**'));
const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);

t.test('the quick start plays a Pechvogel move over HTTP and one over the WebSocket', async (t) => {
  t.equal(blocks.length, 2, 'an HTTP block and a WebSocket block');
  const app = await testApp(t);
  const port = await listeningPort(app);
  const script = ['set -euo pipefail', 'curl() { command curl --fail-with-body "$@"; }', ...blocks].join('\n').replaceAll('localhost:3000', `127.0.0.1:${port}`);
  const { stdout } = await run('bash', ['-c', script], { timeout: 60_000 });
  t.match(stdout, /^pechvogel$/m, 'the catalog lists the games');
  t.match(stdout, /"legalCommands": \[\s*\{\s*"type": "throw"/, 'seat 0 may throw first');
  t.match(stdout, /"events": \[\s*"DiceThrown"/, 'the throw was accepted at the version read');
  t.match(stdout, /^update \d+/m, 'the socket pushed an update');
  const games = (await app.inject({ url: '/games?type=pechvogel' })).json();
  t.equal(games.games[0].status, 'running', 'Kelly took the open seat and the game runs');
});
