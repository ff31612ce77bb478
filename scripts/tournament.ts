// Usage: npm run tournament -- <command> [options]   (talks to a running server)
//   create --csv players.csv --name <name> --game <type> [--format swiss|rotation|knockout]
//          [--rounds 5] [--table 4 | --table 3-5] [--byes] [--advance 2] [--options '{"reactionSeconds":5}']
//          [--tokens tokens.csv]
//       players.csv has a header line naming some of: name, externalId, seed, bot.
//       Prints the tournament id; each person's token goes to --tokens (shown only once).
//   run --id <id>        pairs each round once the previous one has finished, to the end
//   wait --id <id>       waits while the server pairs the rounds by itself
//       Both stop with exit code 3 when the tournament is blocked (the server cannot pair
//       its next round), saying why.
//   export --id <id> --out <dir>   standings.json, standings.csv, games.ndjson, archive.json
// Options for all: --url (default $SPIELWERK_URL or http://127.0.0.1:3000), --key
// (default $SPIELWERK_KEY: an organizer's API key with tournaments:run and results:read).
// On a terminal progress is a bar; otherwise one plain line per change.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { callApi, parseCommand } from './lib.ts';

const { command, options } = parseCommand(import.meta.url, {
  url: { type: 'string', default: process.env.SPIELWERK_URL ?? 'http://127.0.0.1:3000' },
  key: { type: 'string', default: process.env.SPIELWERK_KEY },
  id: { type: 'string' },
  csv: { type: 'string' },
  name: { type: 'string' },
  game: { type: 'string' },
  format: { type: 'string', default: 'swiss' },
  rounds: { type: 'string', default: '5' },
  table: { type: 'string', default: '4' },
  byes: { type: 'boolean', default: false },
  advance: { type: 'string', default: '2' },
  options: { type: 'string' },
  tokens: { type: 'string', default: 'tokens.csv' },
  out: { type: 'string', default: '.' },
});

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}
const key = options.key ?? fail('an API key is needed: --key or $SPIELWERK_KEY');
const need = (value: string | undefined, flag: string): string => value ?? fail(`${command} needs --${flag}`);
const call = (method: 'GET' | 'POST', url: string, body?: unknown) => callApi(options.url, key, method, url, body);

/** RFC 4180 CSV: quoted fields may hold commas, quotes ("") and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(field), (field = '');
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field), rows.push(row), (row = []), (field = '');
    } else field += c;
  }
  if (field !== '' || row.length > 0) row.push(field), rows.push(row);
  return rows.filter((r) => r.some((f) => f.trim() !== ''));
}

function playersFrom(text: string) {
  const [header, ...lines] = parseCsv(text);
  if (header === undefined) fail('the players CSV is empty');
  const columns = header.map((h) => h.trim());
  if (!columns.includes('name')) fail('the players CSV needs a "name" column');
  return lines.map((line) =>
    Object.fromEntries(
      columns.flatMap((column, i) => {
        const value = line[i]?.trim() ?? '';
        if (value === '' || !['name', 'externalId', 'seed', 'bot'].includes(column)) return [];
        return [[column, column === 'seed' ? Number(value) : value]];
      }),
    ),
  );
}

const tty = process.stdout.isTTY === true;
let lastLine = '';
function progress(summary: any): void {
  const round = summary.rounds.at(-1);
  const done = round?.tables.filter((t: { finished: boolean }) => t.finished).length ?? 0;
  const total = round?.tables.length ?? 0;
  const text = `round ${round?.round ?? 0}: ${done}/${total} tables finished (${summary.status})`;
  if (tty) {
    const width = 30;
    const filled = total === 0 ? 0 : Math.round((done / total) * width);
    process.stdout.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${text}   `);
  } else if (text !== lastLine) console.log(text);
  lastLine = text;
}

async function untilRoundDone(id: string, pairNext: boolean): Promise<void> {
  for (;;) {
    const summary = await call('GET', `/tournaments/${id}`);
    progress(summary);
    if (summary.status === 'finished') break;
    // The server could not pair the next round: waiting would be for nothing.
    if (summary.blocked != null) {
      if (tty) process.stdout.write('\n');
      console.error(`tournament ${id} is blocked at round ${summary.blocked.round}: ${summary.blocked.reason}`);
      process.exit(3);
    }
    const round = summary.rounds.at(-1);
    const roundDone = round === undefined || round.tables.every((t: { finished: boolean }) => t.finished);
    if (pairNext && roundDone) await call('POST', `/tournaments/${id}/rounds`, {});
    else await new Promise((r) => setTimeout(r, 1000));
  }
  if (tty) process.stdout.write('\n');
  console.log(`tournament ${id} finished`);
}

const tableSize = (spec: string) => {
  const [min, max] = spec.split('-').map(Number);
  return { min: min!, max: max ?? min! };
};

switch (command) {
  case 'create': {
    const players = playersFrom(await readFile(need(options.csv, 'csv'), 'utf8'));
    const format =
      options.format === 'knockout'
        ? { kind: 'knockout', tableSize: tableSize(options.table), advance: Number(options.advance) }
        : options.format === 'rotation'
          ? { kind: 'rotation', rounds: Number(options.rounds), tableSize: tableSize(options.table) }
          : { kind: 'swiss', rounds: Number(options.rounds), tableSize: tableSize(options.table), byes: options.byes };
    const settings = { advance: 'organizer', ...(options.options === undefined ? {} : { options: JSON.parse(options.options) }) };
    const created = await call('POST', '/tournaments', { name: need(options.name, 'name'), gameType: need(options.game, 'game'), format, settings, players });
    const lines = ['player,name,token', ...created.players.map((p: { player: string; token: string | null }, i: number) => `${p.player},"${String(players[i]!.name).replaceAll('"', '""')}",${p.token ?? ''}`)];
    await writeFile(options.tokens, `${lines.join('\n')}\n`, { mode: 0o600 });
    console.log(created.tournament.id);
    console.error(`${created.players.length} players registered; their tokens are in ${options.tokens}`);
    break;
  }
  case 'run':
    await untilRoundDone(need(options.id, 'id'), true);
    break;
  case 'wait':
    await untilRoundDone(need(options.id, 'id'), false);
    break;
  case 'export': {
    const id = need(options.id, 'id');
    await mkdir(options.out, { recursive: true });
    const files: [string, string][] = [
      ['standings.json', JSON.stringify(await call('GET', `/tournaments/${id}/standings`), null, 2)],
      ['standings.csv', await call('GET', `/tournaments/${id}/standings?format=csv`)],
      ['games.ndjson', await call('GET', `/tournaments/${id}/games.ndjson`)],
      ['archive.json', JSON.stringify(await call('GET', `/tournaments/${id}/archive`))],
    ];
    for (const [name, body] of files) {
      await writeFile(path.join(options.out, name), body);
      console.log(`wrote ${path.join(options.out, name)}`);
    }
    break;
  }
  default:
    fail(`unknown command "${command ?? ''}"; run with --help`);
}
