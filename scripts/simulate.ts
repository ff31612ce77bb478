// Usage: npm run simulate -- --game <type> [--games N] [--seed S] [--bots random,greedy,...]
//        [--seats N] [--rotate] [--max-commands N] [--options '{"expert":true}']
// Plays N bot games in-process and prints a summary on stdout. The same arguments give
// the same bytes on stdout; the throughput line and the progress bar go to stderr.
import { botsFor, type AnyBot } from '../src/bots/index.ts';
import { formatSummary, simulate } from '../src/bots/simulate.ts';
import { findGame, games } from '../src/domain/games.ts';
import { parseOptions } from './lib.ts';

const fail = (message: string): never => {
  console.error(`simulate: ${message}`);
  process.exit(2);
};

const values = parseOptions(import.meta.url, {
  game: { type: 'string' },
  games: { type: 'string', default: '1000' },
  seed: { type: 'string', default: 'spielwerk' },
  bots: { type: 'string' },
  seats: { type: 'string' },
  rotate: { type: 'boolean', default: false },
  'max-commands': { type: 'string', default: '20000' },
  options: { type: 'string' },
});

const game = findGame(values.game ?? '') ?? fail(`--game must be one of ${games.map((g) => g.type).join(', ')}`);
const available = botsFor(game.type)!;
const count = Number(values.games);
if (!Number.isInteger(count) || count < 1) fail('--games must be a positive integer');
const maxCommands = Number(values['max-commands']);
if (!Number.isInteger(maxCommands) || maxCommands < 1) fail('--max-commands must be a positive integer');
const names = (values.bots ?? 'random').split(',');
const seats = values.seats === undefined ? (names.length > 1 ? names.length : game.players.min) : Number(values.seats);
if (!Number.isInteger(seats) || seats < game.players.min || seats > game.players.max) {
  fail(`${game.type} takes ${game.players.min} to ${game.players.max} seats`);
}
if (names.length !== 1 && names.length !== seats) fail(`give one bot, or one per seat (${seats})`);

function gameOptions(json: string): unknown {
  let options: unknown;
  try {
    options = JSON.parse(json);
  } catch {
    return fail('--options must be JSON, e.g. \'{"expert":true}\'');
  }
  const checked = game.optionsSchema.safeParse(options);
  if (!checked.success) fail(`--options: ${checked.error.issues.map((i) => `${i.path.join('.') || 'options'}: ${i.message}`).join('; ')}`);
  // Options that fit the schema can still not fit the table (a first seat beyond it).
  const refused = game.validateSetup?.({ options: checked.data, seats });
  if (refused) fail(`--options: ${refused.message}`);
  return options;
}
const options = values.options === undefined ? undefined : gameOptions(values.options);
const bots: AnyBot[] = Array.from({ length: seats }, (_, seat) => {
  const name = names[names.length === 1 ? 0 : seat]!;
  return available[name] ?? fail(`no bot "${name}" for ${game.type}; try ${Object.keys(available).join(', ')}`);
});

const showProgress = process.stderr.isTTY === true;
const step = Math.max(1, Math.floor(count / 100));
const progress = (done: number): void => {
  if (!showProgress || (done % step !== 0 && done !== count)) return;
  const width = 40;
  const filled = Math.round((done / count) * width);
  process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${count}`);
};

const started = performance.now();
const summary = simulate({ game, bots, games: count, seed: values.seed, rotate: values.rotate, maxCommands, options, onGame: progress });
const seconds = (performance.now() - started) / 1000;
if (showProgress) process.stderr.write('\r\x1b[K');
process.stdout.write(formatSummary(summary));
const cpu = process.cpuUsage();
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
console.error(
  `time: ${seconds.toFixed(2)} s (process cpu ${cpuSeconds.toFixed(2)} s), ${(count / seconds).toFixed(1)} games/s, ` +
    `${((summary.commands.mean * count) / seconds).toFixed(0)} commands/s`,
);
