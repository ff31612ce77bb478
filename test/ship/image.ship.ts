// The Docker image, built as far as a machine without a Docker engine can (none runs on
// the project's machines, and no base image can be pulled): the Dockerfile's build
// stage replayed in a scratch folder from exactly its COPY lines (the files of a fresh
// checkout, less .dockerignore's) and its RUN steps, its runtime stage's COPY lines
// after it, and its CMD started there. The install warns of no engine; the runtime's
// node_modules stays under 250 MB and holds no compiler or CLI; the service it runs
// answers, creates a game, serves its pages, and passes the image's HEALTHCHECK.
// `npm run test:ship` runs it (minutes: a whole npm ci), not `npm test`. WORKDIR is the
// scratch folder of each stage.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, cp, lstat, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { freePort } from '../../scripts/server-process.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

interface Instruction {
  readonly keyword: string;
  readonly args: string;
}
interface Stage {
  readonly name: string;
  readonly instructions: Instruction[];
}

/** The Dockerfile's stages and instructions, continuation lines joined, comments dropped. */
function stagesOf(dockerfile: string): Stage[] {
  const lines = dockerfile.replace(/\\\n/g, ' ').split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    if (keyword === 'FROM') stages.push({ name: /\bAS\s+(\S+)/i.exec(args)?.[1] ?? String(stages.length), instructions: [] });
    else stages.at(-1)?.instructions.push({ keyword, args });
  }
  return stages;
}

/** `ENV a=1 b="two"`: its pairs. */
const envOf = (args: string): Record<string, string> => Object.fromEntries([...args.matchAll(/(\w+)=("[^"]*"|\S+)/g)].map(([, name, value]) => [name!, value!.replace(/^"|"$/g, '')]));

/** .dockerignore's patterns as a test of a context path. */
async function ignoredBy(file: string): Promise<(relative: string) => boolean> {
  const patterns = (await readFile(file, 'utf8')).split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));
  const regexes = patterns.map((pattern) => new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*\*/g, '\0').replace(/\*/g, '[^/]*').replace(/\0/g, '.*')}(/|$)`));
  return (relative) => regexes.some((regex) => regex.test(relative));
}

/** The build context: the files a fresh clone of this checkout has (tracked, and new
 * ones not git-ignored), less what .dockerignore leaves out. */
async function context(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'spielwerk-context-'));
  const ignored = await ignoredBy(path.join(root, '.dockerignore'));
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter((f) => f !== '');
  for (const file of files) {
    if (ignored(file)) continue;
    const stat = await lstat(path.join(root, file)).catch(() => null);
    if (stat === null) continue; // deleted in the working tree
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await cp(path.join(root, file), path.join(dir, file), { verbatimSymlinks: true });
  }
  return dir;
}

/** `COPY [--from=stage] [--chown=…] src… dest` into `workdir`, sources from `from`. */
async function copy(args: string, from: (source: string) => string, workdir: string): Promise<void> {
  const parts = args.split(/\s+/).filter((part) => !part.startsWith('--'));
  const dest = parts.pop()!;
  const target = path.resolve(workdir, dest);
  for (const source of parts) {
    const absolute = from(source);
    const into = dest.endsWith('/') || parts.length > 1 ? path.join(target, path.basename(source)) : target;
    // A folder's contents go into the destination, as Docker copies them.
    await mkdir(path.dirname(into), { recursive: true });
    await cp(absolute, into, { recursive: true, verbatimSymlinks: true });
  }
}

/** Bytes of the files under `dir` (links count as nothing). */
async function sizeOf(dir: string): Promise<number> {
  let bytes = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const inside = path.join(dir, entry.name);
    if (entry.isDirectory()) bytes += await sizeOf(inside);
    else if (entry.isFile()) bytes += (await lstat(inside)).size;
  }
  return bytes;
}

/** The packages of a node_modules folder, nested ones too (name → folders), and the
 * links among them (a workspace's, which points outside the image). */
async function packagesIn(modules: string, found = { packages: new Map<string, string[]>(), links: [] as string[] }) {
  for (const entry of await readdir(modules, { withFileTypes: true }).catch(() => [])) {
    if (entry.name.startsWith('.')) continue;
    const scoped = entry.isDirectory() && entry.name.startsWith('@') ? (await readdir(path.join(modules, entry.name), { withFileTypes: true })).map((inner) => ({ name: `${entry.name}/${inner.name}`, entry: inner })) : [{ name: entry.name, entry }];
    for (const { name, entry: inner } of scoped) {
      const at = path.join(modules, name);
      if (inner.isSymbolicLink()) found.links.push(name);
      if (!inner.isDirectory()) continue;
      found.packages.set(name, [...(found.packages.get(name) ?? []), at]);
      await packagesIn(path.join(at, 'node_modules'), found);
    }
  }
  return found;
}

/** What has no business in a runtime: compilers, bundlers, CLIs and their toolchains. */
const tooling = ['typescript', 'tsx', 'esbuild', 'prisma', '@prisma/engines', '@prisma/dev', '@prisma/studio-core', 'effect', '@electric-sql/pglite', 'openapi-typescript', 'tap', '@redocly/cli', '@stoplight/spectral-cli'];
const isTooling = (name: string) => tooling.includes(name) || name.startsWith('@esbuild/');

t.test('the Dockerfile builds, and its image runs the service on a small runtime', async (t) => {
  const stages = stagesOf(await readFile(path.join(root, 'Dockerfile'), 'utf8'));
  const [build, runtime] = stages;
  if (build === undefined || runtime === undefined) throw new Error('the Dockerfile has no build and runtime stages');
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'spielwerk-image-'));
  // Run as root, the embedded Postgres runs as a user of its own, who must reach its binaries.
  await chmod(scratch, 0o755);
  const contextDir = await context();
  t.teardown(async () => {
    await rm(scratch, { recursive: true, force: true });
    await rm(contextDir, { recursive: true, force: true });
  });

  // The build stage: WORKDIR is the scratch folder; a global npm install goes into a
  // prefix of its own, first on PATH, as it would be the image's.
  const buildDir = path.join(scratch, 'build');
  const npmPrefix = path.join(scratch, 'npm-global');
  await mkdir(buildDir, { recursive: true });
  let env: NodeJS.ProcessEnv = { ...process.env, npm_config_prefix: npmPrefix, PATH: `${path.join(npmPrefix, 'bin')}:${process.env.PATH}` };
  let installLog = '';
  for (const { keyword, args } of build.instructions) {
    if (keyword === 'ENV') env = { ...env, ...envOf(args) };
    else if (keyword === 'COPY') await copy(args, (source) => path.join(contextDir, source), buildDir);
    else if (keyword === 'RUN') {
      const started = performance.now();
      const { stdout, stderr } = await run('sh', ['-c', args], { cwd: buildDir, env, maxBuffer: 64 * 1024 * 1024, timeout: 20 * 60_000 });
      if (/\bnpm ci\b/.test(args)) installLog = stdout + stderr;
      t.comment(`RUN ${args.slice(0, 80)}: ${Math.round((performance.now() - started) / 1000)} s`);
    }
  }
  t.notMatch(installLog, /EBADENGINE/, 'npm ci warns of no engine: every package admits Node 20');
  t.notMatch(installLog, /install-scripts .*not yet covered/, 'and of no install script left unreviewed');

  // The runtime stage: its COPY lines take from the build stage's folder.
  const runtimeDir = path.join(scratch, 'runtime');
  await mkdir(runtimeDir, { recursive: true });
  const buildWorkdir = build.instructions.findLast((i) => i.keyword === 'WORKDIR')?.args ?? '/';
  let runtimeEnv: Record<string, string> = {};
  let cmd: string[] = [];
  let healthcheck: string[] = [];
  for (const { keyword, args } of runtime.instructions) {
    if (keyword === 'ENV') runtimeEnv = { ...runtimeEnv, ...envOf(args) };
    else if (keyword === 'COPY') {
      t.match(args, /--from=build\b/, `COPY ${args}: from the build stage`);
      await copy(args, (source) => path.join(buildDir, path.relative(buildWorkdir, source)), runtimeDir);
    } else if (keyword === 'CMD') cmd = JSON.parse(args) as string[];
    else if (keyword === 'HEALTHCHECK') healthcheck = JSON.parse(args.slice(args.indexOf('CMD') + 3).trim()) as string[];
  }

  const modules = path.join(runtimeDir, 'node_modules');
  const bytes = await sizeOf(modules);
  const { packages, links } = await packagesIn(modules);
  const topLevel = await Promise.all([...packages].filter(([, [first]]) => path.dirname(first!).replace(/\/@[^/]+$/, '') === modules).map(async ([name, [first]]) => [name, await sizeOf(first!)] as const));
  const largest = topLevel.sort((a, b) => b[1] - a[1]).slice(0, 8);
  t.comment(`runtime node_modules: ${(bytes / 1e6).toFixed(1)} MB (${(bytes / 2 ** 20).toFixed(1)} MiB) in ${packages.size} packages; largest: ${largest.map(([name, size]) => `${name} ${(size / 1e6).toFixed(1)}`).join(', ')}`);
  t.ok(bytes <= 250e6, `the runtime's node_modules is ${(bytes / 1e6).toFixed(1)} MB, at most 250`);
  t.same([...packages.keys()].filter(isTooling), [], 'no compiler, bundler or CLI among its packages');
  t.same(links, [], 'no package is a link (into the build stage)');

  // The image's CMD, as the image runs it (its own embedded database, no DATABASE_URL).
  const port = await freePort();
  // Only the image's environment (no DATABASE_URL of this shell); no grace, to stop at once.
  const serverEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ...runtimeEnv, PORT: String(port), HOST: '127.0.0.1', SHUTDOWN_GRACE_MS: '0', LOG_LEVEL: 'warn' };
  const [command, ...commandArgs] = cmd;
  t.equal(command, 'node', 'CMD runs node itself');
  const server = spawn(command!, commandArgs, { cwd: runtimeDir, env: serverEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  server.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  t.teardown(() => server.kill('SIGKILL'));
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the image's CMD exited: ${output}`);
    if (await fetch(`${base}/ready`).then((r) => r.ok, () => false)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const created = await fetch(`${base}/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'mistkaefer', seats: [{ name: '<img src=x onerror=alert(1)>"\'&' }, { bot: 'random' }] }) });
  t.equal(created.status, 201, 'it creates a game: migrated, its Prisma client and bots at hand');
  const page = await fetch(`${base}/`);
  t.match(page.headers.get('content-type'), /text\/html/, 'it serves the web pages');
  t.match(await page.text(), /\/assets\/main-\w+\.js/);
  t.equal((await fetch(`${base}/asyncapi.json`)).status, 200, 'and the socket protocol');
  const [healthCommand, ...healthArgs] = healthcheck;
  await run(healthCommand!, healthArgs, { cwd: runtimeDir, env: serverEnv });
  t.pass("the image's HEALTHCHECK passes");
  server.kill('SIGTERM');
  const [code] = await once(server, 'exit');
  t.equal(code, 0, `SIGTERM stops it cleanly (${output.slice(-300)})`);
});
