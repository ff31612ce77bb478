// Usage: node scripts/build.mjs [--force] [kit] [server] [web]   (npm run build: all)
// Builds what the repository runs from built files, each part only when its sources
// changed since it was last built:
//   kit     the client kit's JavaScript and types (clients/typescript/dist, tsc)
//   server  the service (dist/, tsc), which `npm start` runs
//   web     the web pages (web/dist, scripts/build-web.ts), which bundle the kit
// A part's sources are hashed (paths and contents) and the hash kept beside its output;
// an unchanged checkout costs one node start and a few milliseconds of hashing, not a
// compiler (a type-checking build on every start made `npm start` take 28-82 s). So
// `npm install` (postinstall) builds, `npm start` (prestart), `npm test` and
// `npm run typecheck` rebuild what changed, and starting an unchanged checkout builds
// nothing. Plain JavaScript, so that no TypeScript loader has to start to find that out.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs');

/** Each part: what it is built from, where its output goes, how it is built. */
const parts = {
  kit: {
    inputs: ['clients/typescript/src', 'clients/typescript/tsconfig.json', 'clients/typescript/tsconfig.build.json', 'clients/typescript/package.json'],
    output: 'clients/typescript/dist',
    build: () => run(tsc, ['-p', 'clients/typescript/tsconfig.build.json']),
  },
  server: {
    // The generated Prisma client is among the sources (postinstall writes it first).
    inputs: ['src', 'tsconfig.json', 'tsconfig.build.json'],
    output: 'dist',
    build: () => run(tsc, ['-p', 'tsconfig.build.json']),
  },
  web: {
    inputs: ['web', 'scripts/build-web.ts', 'clients/typescript/dist'],
    output: 'web/dist',
    build: () => run(tsx, ['scripts/build-web.ts']),
  },
};

function run(script, args) {
  execFileSync(process.execPath, [script, ...args], { cwd: root, stdio: 'inherit' });
}

/** Every file under `relative` (a file or a folder), in a fixed order; another part's
 * output inside it (web/dist in web) is no source. */
function files(relative) {
  const absolute = path.join(root, relative);
  if (!existsSync(absolute)) return [];
  if (!statSync(absolute).isDirectory()) return [absolute];
  const outputs = new Set(Object.values(parts).map((part) => path.join(root, part.output)));
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const at = path.join(dir, entry.name);
      if (!entry.isDirectory()) found.push(at);
      else if (!outputs.has(at)) walk(at);
    }
  };
  walk(absolute);
  return found;
}

function hashOf(inputs) {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap(files)) hash.update(path.relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

const args = process.argv.slice(2);
if (args.includes('--help')) {
  const usage = readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n');
  console.log(usage.slice(0, usage.findIndex((line) => !line.startsWith('//'))).map((line) => line.replace(/^\/\/ ?/, '')).join('\n'));
  process.exit(0);
}
const force = args.includes('--force');
const asked = args.filter((arg) => !arg.startsWith('--'));
for (const name of asked) if (!(name in parts)) throw new Error(`no part "${name}": the parts are ${Object.keys(parts).join(', ')}`);
for (const [name, part] of Object.entries(parts)) {
  if (asked.length > 0 && !asked.includes(name)) continue;
  // The Docker image's build stage installs before it copies the service's sources.
  if (!existsSync(path.join(root, part.inputs[0]))) continue;
  const stampFile = path.join(root, part.output, '.sources-hash');
  const hash = hashOf(part.inputs);
  if (!force && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === hash) continue;
  console.log(`building ${name} (${part.output})`);
  part.build();
  mkdirSync(path.dirname(stampFile), { recursive: true });
  // The web's inputs include the kit's output, just rebuilt: hashed after the build.
  writeFileSync(stampFile, hashOf(part.inputs));
}
