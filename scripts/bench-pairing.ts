// `npx tsx scripts/bench-pairing.ts [--players 1024] [--repeat 3]`
// Times pairRound for one round of a big field after 0..6 played rounds (places drawn
// at random), for each game at its usual table sizes and each format, and prints one
// JSON line per case: the median of `repeat` runs (after one warm-up) in wall-clock ms
// and in this process's CPU ms (which a busy machine inflates less), with the tables,
// byes and rematches it seated and the mean spread of points at a table (max − min). Pure CPU, no server; figures are noisy on a shared machine.
import { pairRound } from '../src/domain/tournament/pairing.ts';
import type { Format } from '../src/domain/tournament/format.ts';
import { standings } from '../src/domain/tournament/standings.ts';
import { ids, playRounds } from '../test/domain/tournament/helpers.ts';
import { parseOptions } from './lib.ts';

const values = parseOptions(import.meta.url, {
  players: { type: 'string', default: '1024' },
  repeat: { type: 'string', default: '5' },
});
const field = Number(values.players);
const repeat = Number(values.repeat);

const cases: { game: string; format: Format; players?: number }[] = [
  { game: 'pechvogel', format: { kind: 'swiss', rounds: 7, tableSize: { min: 4, max: 4 }, byes: true } },
  { game: 'fackel-und-keule', format: { kind: 'swiss', rounds: 7, tableSize: { min: 4, max: 5 }, byes: true } },
  { game: 'mistkaefer', format: { kind: 'swiss', rounds: 7, tableSize: { min: 3, max: 4 }, byes: true } },
  { game: 'porca-miseria', format: { kind: 'swiss', rounds: 7, tableSize: { min: 5, max: 6 }, byes: true } },
  { game: 'pechvogel', format: { kind: 'swiss', rounds: 7, tableSize: { min: 4, max: 4 }, byes: true }, players: 1023 },
  { game: 'pechvogel', format: { kind: 'rotation', rounds: 7, tableSize: { min: 4, max: 4 } } },
  { game: 'pechvogel', format: { kind: 'knockout', tableSize: { min: 4, max: 4 }, advance: 2 } },
];

for (const { game, format, players: count } of cases) {
  const players = ids(count ?? field);
  const maxBefore = format.kind === 'knockout' ? 3 : 6;
  const played = playRounds(format, players, maxBefore, 'bench');
  for (let before = 0; before <= maxBefore; before++) {
    const input = {
      format,
      round: before + 1,
      players: players.map((id) => ({ id })),
      results: played.results.filter((r) => r.round <= before),
      byes: played.byes.filter((b) => b.round <= before),
      seed: 'bench',
    };
    const times: number[] = [];
    const cpuTimes: number[] = [];
    let pairing = pairRound(input); // warm-up
    for (let k = 0; k < repeat; k++) {
      const started = performance.now();
      const cpu = process.cpuUsage();
      pairing = pairRound(input);
      const used = process.cpuUsage(cpu);
      times.push(performance.now() - started);
      cpuTimes.push((used.user + used.system) / 1000);
    }
    if ('violation' in pairing) throw new Error(pairing.violation);
    // How far apart in points the players of a table are, on average (Swiss: small).
    const points = new Map(standings(players, input.results, input.byes).map((s) => [s.player, s.points]));
    const spreads = pairing.tables.map((t) => {
      const at = t.players.map((p) => points.get(p)!);
      return Math.max(...at) - Math.min(...at);
    });
    const median = (xs: number[]) => Math.round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]! * 10) / 10;
    console.log(
      JSON.stringify({
        game,
        format: format.kind,
        tableSize: format.tableSize,
        players: players.length,
        roundsBefore: before,
        ms: median(times),
        cpuMs: median(cpuTimes),
        tables: pairing.tables.length,
        byes: pairing.byes.length,
        repeats: pairing.repeats,
        meanPointsSpread: Math.round((spreads.reduce((a, b) => a + b, 0) / spreads.length) * 100) / 100,
      }),
    );
  }
}
