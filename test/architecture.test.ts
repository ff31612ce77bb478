// The layout's import rules (docs/architecture.md), checked on the source itself: each
// folder imports only the folders below it, and no module reaches itself again through
// its imports.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');

/** What each part of src/ may import besides itself. The files at the top of src/
 * (app.ts, server.ts, …) compose everything and are not listed. */
const mayImport: Record<string, readonly string[]> = {
  domain: [],
  bots: ['domain'],
  lib: [],
  'errors.ts': [],
  db: ['generated', 'lib'],
  events: ['domain', 'lib', 'generated'],
  access: ['domain', 'events', 'errors.ts'],
  state: ['domain', 'events', 'errors.ts'],
  commands: ['domain', 'bots', 'events', 'state', 'access', 'errors.ts', 'lib'],
  reads: ['domain', 'events', 'state', 'access', 'errors.ts'],
  live: ['domain', 'events', 'state', 'lib'],
  jobs: ['domain', 'bots', 'events', 'state', 'commands', 'errors.ts', 'lib'],
  observability: ['lib'],
  organizers: ['access', 'errors.ts', 'generated'],
  tournaments: ['domain', 'bots', 'events', 'state', 'commands', 'access', 'errors.ts', 'lib'],
  webhooks: ['errors.ts', 'lib'],
  routes: ['domain', 'events', 'state', 'access', 'commands', 'reads', 'live', 'observability', 'organizers', 'tournaments', 'webhooks', 'errors.ts'],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The src/ files a module imports (relative specifiers only: packages are not layers). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return specifiers.map((s) => normalize(join(dirname(file), s)));
}

/** The part of src/ a file belongs to: its top folder, or the file itself at the top. */
const partOf = (file: string): string => relative(src, file).split('/')[0]!;

const files = sourceFiles(src);
const graph = new Map(files.map((file) => [file, importsOf(file)]));

t.test('every folder imports only what the layout allows', async (t) => {
  const breaches: string[] = [];
  for (const [file, imports] of graph) {
    const allowed = mayImport[partOf(file)];
    if (allowed === undefined) continue;
    for (const target of imports) {
      const part = partOf(target);
      if (part !== partOf(file) && !allowed.includes(part)) breaches.push(`${relative(root, file)} → ${relative(root, target)}`);
    }
  }
  t.same(breaches, [], 'imports against the layout');
  t.ok(files.some((f) => partOf(f) === 'commands') && files.some((f) => partOf(f) === 'events'), 'the folders the rules name exist');
});

t.test('no module imports itself through others', async (t) => {
  const cycles: string[] = [];
  const done = new Set<string>();
  const visit = (file: string, path: string[]): void => {
    if (path.includes(file)) {
      cycles.push([...path.slice(path.indexOf(file)), file].map((f) => relative(root, f)).join(' → '));
      return;
    }
    if (done.has(file)) return;
    for (const target of graph.get(file) ?? []) visit(target, [...path, file]);
    done.add(file);
  };
  for (const file of files) visit(file, []);
  t.same(cycles, [], 'import cycles');
});

t.test('the domain uses no platform package and no I/O', async (t) => {
  // node:crypto stays allowed: its hashes are pure functions (seed commitments).
  const platform = /from '(fastify|@fastify\/[^']+|pg|@prisma\/[^']+|ws|pino|node:(?!crypto')[^']+)'/;
  const offenders = files.filter((f) => partOf(f) === 'domain' && platform.test(readFileSync(f, 'utf8')));
  t.same(offenders.map((f) => relative(root, f)), [], 'domain files importing the platform');
});
