// `npm run conformance` rewrites conformance/<game>.ndjson (see conformance/README.md);
// `npm run conformance -- --check` fails when a committed log differs.
import { readFile, writeFile } from 'node:fs/promises';
import { recordings } from './conformance-log.ts';
import { parseOptions } from './lib.ts';

const { check } = parseOptions(import.meta.url, { check: { type: 'boolean', default: false } });
let stale = false;
for (const { game, file, text } of recordings) {
  const log = text();
  if (!check) await writeFile(file, log);
  else if ((await readFile(file, 'utf8').catch(() => '')) !== log) {
    console.error(`conformance/${game.type}.ndjson is stale: run \`npm run conformance\``);
    stale = true;
  }
}
if (stale) process.exit(1);
console.log(check ? 'conformance logs are up to date' : 'wrote conformance/*.ndjson');
