// The committed conformance logs are what the rules produce today (a changed rule or
// redaction shows up here and must be regenerated on purpose: npm run conformance),
// and every view in them fits its viewer's schema.
import { readFile } from 'node:fs/promises';
import t from 'tap';
import { recordings } from '../scripts/conformance-log.ts';

for (const { game, file, text } of recordings) {
  t.test(`conformance/${game.type}.ndjson`, async (t) => {
    const committed = await readFile(file, 'utf8');
    t.ok(committed === text(), 'the committed log is what the rules record now (npm run conformance regenerates it)');
    const lines = committed.trimEnd().split('\n').map((line) => JSON.parse(line));
    t.ok(lines.at(-1).result !== null, 'the recorded game ends');
    let version = 0;
    for (const line of lines) {
      const all = line.events.all as unknown[];
      if (line.version !== version + all.length) t.fail(`version ${line.version} after ${version} with ${all.length} events`);
      version = line.version;
      for (const [name, view] of Object.entries(line.views)) {
        const kind = name.startsWith('seat:') ? 'seat' : (name as 'spectator' | 'all');
        if (!game.viewSchemas[kind].safeParse(view).success) t.fail(`version ${line.version}: the ${name} view does not fit its schema`);
      }
    }
    t.pass(`${lines.length} lines checked`);
  });
}
