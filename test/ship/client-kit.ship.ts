// The client kit as a stranger gets it: `npm pack` in clients/typescript, the tarball
// installed into a fresh project of its own (strict, NodeNext, no TypeScript loader),
// a program that plays all four games to their end through it compiled with plain tsc
// (its @ts-expect-error lines are mistakes the types must refuse) and run with plain
// node against a live server. The type-check is timed: at most 15 s of CPU.
// `npm run test:ship` runs it (it installs from the registry), not `npm test`.
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { buildApp } from '../../src/app.ts';
import { closeAtTeardown, listening } from '../helpers/app.ts';
import { testDatabase } from '../helpers/database.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const kit = path.join(root, 'clients/typescript');
const rootPackage = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };

const program = `// Plays one game of each type to its end: every seat on its own live socket, seat 0
// sending over the socket, the others over REST, for any game type with one generic function.
import { bearer, createRestClient, LiveError, LiveGame, sendCommand, type CommandOf, type GameType, type Schemas, type Update } from '@spielwerk/client';

const baseUrl = process.argv[2] ?? 'http://127.0.0.1:3000';
const rest = createRestClient({ baseUrl });
type Table = Schemas['CreateGameRequestInput'];

// What the types must refuse.
// @ts-expect-error no such bot
export const smart: Table = { type: 'pechvogel', seats: [{}, { bot: 'smart' }] };
// @ts-expect-error a bot's seat is not open
export const openBot: Table = { type: 'pechvogel', seats: [{}, { name: 'x', bot: 'greedy', open: true }] };
// @ts-expect-error a seat never sends the server's timeout
export const timeout: CommandOf<'porca-miseria'> = { type: 'timeout' };
// @ts-expect-error a Porca Miseria command is no Pechvogel command
export const slap: CommandOf<'pechvogel'> = { type: 'slap' };

/** A seeded generator: the same games every run. */
let state = 7919;
const random = (): number => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

/** Any 409 means the game moved on: the next update brings it as it is, and the seat decides again. */
const onlyConflicts = (error: unknown): void => {
  if (!(error instanceof LiveError && error.problem.status === 409)) throw error;
};

async function play<T extends GameType>(table: Table & { type: T }): Promise<number> {
  const created = await rest.POST('/games', { body: table });
  if (created.error !== undefined) throw new Error(\`\${created.error.code}: \${created.error.detail}\`);
  const game = { type: table.type, id: created.data.game.id };
  // The answer of GET /games/{id} is the kit's own GameDetails, every key of it.
  const read = await rest.GET('/games/{id}', { params: { path: { id: game.id } } });
  if (read.error !== undefined) throw new Error(read.error.detail);
  const details: Schemas['GameDetails'] = read.data;
  if (details.gameType !== table.type) throw new Error('a game of another type');

  const seats = created.data.seats.flatMap(({ seat, token }) => (token === null ? [] : [{ seat, token }]));
  let final = 0;
  await Promise.all(
    seats.map(async ({ seat, token }) => {
      const live = new LiveGame({ baseUrl, gameId: game.id, gameType: game.type, token });
      for await (const update of live) {
        const mine: Update<T> = update;
        if (mine.status === 'finished') {
          final = mine.version;
          break;
        }
        const move = mine.legalCommands[Math.floor(random() * mine.legalCommands.length)];
        if (move === undefined || !mine.pending.seats.includes(seat)) continue;
        if (seat === 0) await live.send(move, { expectedVersion: mine.version }).catch(onlyConflicts);
        else {
          const answer = await sendCommand(rest, game, move, { expectedVersion: mine.version, headers: bearer(token) });
          if (answer.error !== undefined && answer.response.status !== 409) throw new Error(\`\${answer.error.code}: \${answer.error.detail}\`);
        }
      }
      live.close();
    }),
  );
  return final;
}

// Each call has its own T: play is generic, its updates and commands typed by it.
console.log(\`pechvogel finished at version \${await play({ type: 'pechvogel', seats: [{ name: 'Ada' }, { name: 'Ben' }, { bot: 'greedy' }], options: { reactionSeconds: 1 }, seed: 'kit' })}\`);
console.log(\`fackel-und-keule finished at version \${await play({ type: 'fackel-und-keule', seats: [{ name: 'Ada' }, { name: 'Ben' }, { bot: 'random' }], seed: 'kit' })}\`);
console.log(\`mistkaefer finished at version \${await play({ type: 'mistkaefer', seats: [{ name: 'Ada' }, { name: 'Ben' }], seed: 'kit' })}\`);
console.log(\`porca-miseria finished at version \${await play({ type: 'porca-miseria', seats: [{ name: 'Ada' }, { name: 'Ben' }, { name: 'Cleo' }], options: { maxActions: 8, revealMs: 500, windowMs: 500 }, seed: 'kit' })}\`);
`;

/** Runs a command to its end: its output (stdout and stderr), wall seconds, and the
 * CPU seconds it used (sampled from /proc while it runs). */
async function timed(command: string, args: string[], cwd: string): Promise<{ output: string; seconds: number; cpuSeconds: number }> {
  const started = performance.now();
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let ticks = 0;
  const sample = () => {
    try {
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks = Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone
    }
  };
  const sampler = setInterval(sample, 20);
  await once(child, 'exit');
  clearInterval(sampler);
  return { output, seconds: (performance.now() - started) / 1000, cpuSeconds: ticks / 100 };
}

t.test('the packed kit, installed into a fresh strict NodeNext project, compiles with tsc and plays all four games with plain node', async (t) => {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'spielwerk-kit-'));
  t.teardown(() => rm(scratch, { recursive: true, force: true }));

  // npm pack builds the kit first (prepack) and packs what package.json's files name.
  const packed = JSON.parse((await run('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: kit, maxBuffer: 16 * 1024 * 1024 })).stdout) as { filename: string; files: { path: string }[] }[];
  const files = packed[0]!.files.map((f) => f.path).sort();
  t.ok(files.every((file) => /^(dist\/[\w-]+\.(js|d\.ts)|README\.md|package\.json)$/.test(file)), `only JavaScript, declarations and the README: ${files.join(', ')}`);
  t.ok(files.includes('dist/index.js') && files.includes('dist/index.d.ts') && files.includes('dist/node.js'));

  const app = path.join(scratch, 'app');
  await run('mkdir', ['-p', app]);
  await writeFile(path.join(app, 'package.json'), JSON.stringify({ name: 'kit-user', private: true, type: 'module', dependencies: { '@spielwerk/client': `file:../${packed[0]!.filename}` }, devDependencies: { typescript: rootPackage.devDependencies.typescript, '@types/node': rootPackage.devDependencies['@types/node'] } }, null, 2));
  // As `tsc --init` writes one (skipLibCheck: checking lib.dom.d.ts and @types/node takes
  // an empty program 8-16 s here, with or without the kit), made stricter.
  await writeFile(path.join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM'], types: ['node'], strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, skipLibCheck: true, outDir: 'out' }, files: ['main.ts'] }, null, 2));
  await writeFile(path.join(app, 'main.ts'), program);
  await run('npm', ['install', '--no-audit', '--no-fund'], { cwd: app, timeout: 10 * 60_000 });
  t.same(await readdir(path.join(app, 'node_modules/@spielwerk/client')).then((names) => names.sort()), ['README.md', 'dist', 'package.json'], 'installed from the tarball');

  const compiled = await timed(process.execPath, [path.join(app, 'node_modules/typescript/bin/tsc'), '-p', app], app);
  t.equal(compiled.output, '', 'tsc finds nothing: no TS5097, no cast needed, and every @ts-expect-error refuses something');
  t.comment(`type-check of the program with the kit: ${compiled.seconds.toFixed(1)} s, ${compiled.cpuSeconds.toFixed(1)} s of CPU (load average ${os.loadavg()[0]!.toFixed(1)})`);
  // CPU rather than wall time: on a machine shared with other work the wall time says
  // more about the others than about the compiler.
  t.ok(compiled.cpuSeconds < 15, `tsc took ${compiled.cpuSeconds.toFixed(1)} s of CPU, under 15`);

  const database = await testDatabase(t);
  const server = await buildApp({ prisma: database.prisma, pool: database.pool, notifyUrl: database.url, scheduler: { pollMs: 100 } });
  const baseUrl = await listening(server);
  closeAtTeardown(t, server);
  const { stdout } = await run(process.execPath, ['--experimental-websocket', '--no-warnings', path.join(app, 'out/main.js'), baseUrl], { cwd: app, timeout: 5 * 60_000 });
  for (const type of ['pechvogel', 'fackel-und-keule', 'mistkaefer', 'porca-miseria']) t.match(stdout, new RegExp(`^${type} finished at version [1-9]\\d*$`, 'm'), `${type}: played to its end with plain node`);
});
