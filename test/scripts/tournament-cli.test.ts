// The organizers' command line against a real server: a tournament from a CSV of
// players (quoted names too), run round by round to the end, its exports written;
// without a terminal the progress is plain lines.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { createOrganizer, listening, testAdminKey, testApp } from '../helpers/app.ts';

const run = promisify(execFile);

t.test('create from a CSV, run round by round, export', async (t) => {
  const app = await testApp(t);
  const url = await listening(app);
  const organizer = await createOrganizer(app);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'spielwerk-cli-'));
  const csv = path.join(dir, 'players.csv');
  const rows = ['name,externalId,bot', '"Greedy, the first",g1,greedy', ...Array.from({ length: 7 }, (_, i) => `Bot ${i + 2},b${i + 2},${i % 2 === 0 ? 'random' : 'greedy'}`)];
  await writeFile(csv, `${rows.join('\n')}\n`);
  const env = { ...process.env, SPIELWERK_URL: url, SPIELWERK_KEY: organizer.key };
  const cli = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'scripts/tournament.ts', ...args], { env, timeout: 120_000 });

  const created = await cli('create', '--csv', csv, '--name', 'CLI-Pokal', '--game', 'pechvogel', '--rounds', '2', '--table', '4', '--options', '{"reactionSeconds":1}', '--tokens', path.join(dir, 'tokens.csv'));
  const id = created.stdout.trim();
  t.match(id, /^[0-9a-f-]{36}$/, 'prints the tournament id');
  const tokens = await readFile(path.join(dir, 'tokens.csv'), 'utf8');
  t.match(tokens, /^player,name,token\np1,"Greedy, the first",\n/, 'the tokens file names each player (bots have none)');

  const ran = await cli('run', '--id', id);
  t.match(ran.stdout, /round 1: 2\/2 tables finished/, 'plain progress lines without a terminal');
  t.match(ran.stdout, /finished\n$/);
  const summary = (await app.inject({ url: `/tournaments/${id}` })).json();
  t.equal(summary.status, 'finished');
  t.equal(summary.rounds.length, 2);
  t.equal(summary.players[0].name, 'Greedy, the first');

  const out = path.join(dir, 'out');
  await cli('export', '--id', id, '--out', out);
  const standings = JSON.parse(await readFile(path.join(out, 'standings.json'), 'utf8'));
  t.equal(standings.standings.length, 8);
  t.equal((await readFile(path.join(out, 'standings.csv'), 'utf8')).trim().split('\n').length, 9);
  t.equal((await readFile(path.join(out, 'games.ndjson'), 'utf8')).trim().split('\n').length, 4, 'four games');
  t.equal(JSON.parse(await readFile(path.join(out, 'archive.json'), 'utf8')).format, 'spielwerk-tournament-archive');

  const refused = await cli('create', '--csv', csv, '--name', 'x', '--game', 'pechvogel', '--table', '9').catch((error: { code: number; stderr: string }) => error);
  t.equal((refused as { code: number }).code, 1);
  t.match((refused as { stderr: string }).stderr, /tournament\/invalid-format/, 'a refusal names its code');
});

t.test('--help prints the usage and exits 0; the organizer CLI works through a running server', async (t) => {
  const app = await testApp(t);
  const url = await listening(app);
  // No database for the CLI: with a key it must ask the server, never open one itself.
  const env = { ...process.env, SPIELWERK_URL: url, SPIELWERK_ADMIN_KEY: testAdminKey, SPIELWERK_KEY: '', DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none' };
  const cli = (script: string, ...args: string[]) => run(process.execPath, ['--import', 'tsx', `scripts/${script}.ts`, ...args], { env, timeout: 120_000 });

  const [tournamentHelp, organizerHelp, diffHelp, created] = await Promise.all([cli('tournament', '--help'), cli('organizer', '--help'), cli('migrate-diff', '--help'), cli('organizer', 'create', '--name', '<img src=x onerror=alert(1)>"\'&')]);
  t.match(tournamentHelp.stdout, /^Usage: npm run tournament/, 'tournament --help: the usage, exit 0');
  t.match(diffHelp.stdout, /^Usage: npm run db:diff/, 'db:diff --help: the usage, exit 0 (not taken for a migration\'s name)');
  t.match(organizerHelp.stdout, /^Usage: npm run organizer/, 'organizer --help: the usage, exit 0, with a server running');
  const { organizer, key } = JSON.parse(created.stdout) as { organizer: { id: string; name: string }; key: string };
  t.equal(organizer.name, '<img src=x onerror=alert(1)>"\'&', 'created through the admin API, the name kept as data');

  const second = JSON.parse((await cli('organizer', 'create-key', '--key', key, '--organizer', organizer.id, '--name', 'ci', '--scopes', 'results:read')).stdout) as { keyInfo: { id: string } };
  const listed = await app.inject({ url: `/organizers/${organizer.id}/keys`, headers: { authorization: `Bearer ${key}` } });
  t.same(listed.json().keys.map((k: { name: string; scopes: string[] }) => [k.name, k.scopes]), [['first', ['games:create', 'tournaments:run', 'results:read', 'keys:manage']], ['ci', ['results:read']]], "an organizer's own key with keys:manage made the second");
  const revoked = JSON.parse((await cli('organizer', 'revoke', '--organizer', organizer.id, '--key-id', second.keyInfo.id)).stdout) as { revokedAt: string | null };
  t.type(revoked.revokedAt, 'string', 'revoked with the admin key');
});
