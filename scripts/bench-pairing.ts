// `npx tsx scripts/bench-pairing.ts [--players 1024] [--repeat 3]`
// Times pairRound for one round of a big field after 0..6 played rounds (places drawn
// at random), for each game at its usual table sizes and each format, and prints one
// JSON line per case: the median of `repeat` runs in ms, with the tables and the
// rematches it seated. Pure CPU, no server; figures are noisy on a shared machine.
import { pairRound } from '../src/domain/tournament/pairing.ts';
import type { Format } from '../src/domain/tournament/format.ts';
import { ids, playRounds } from '../test/domain/tournament/helpers.ts';
import { parseOptions } from './lib.ts';

const values = parseOptions(import.meta.url, {
  players: { type: 'string', default: '1024' },
  repeat: { type: 'string', default: '3' },
});
const players = ids(Number(values.players));
const repeat = Number(values.repeat);

const cases: { game: string; format: Format }[] = [
  { game: 'pechvogel', format: { kind: 'swiss', rounds: 7, tableSize: { min: 4, max: 4 }, byes: true } },
  { game: 'fackel-und-keule', format: { kind: 'swiss', rounds: 7, tableSize: { min: 4, max: 5 }, byes: true } },
  { game: 'mistkaefer', format: { kind: 'swiss', rounds: 7, tableSize: { min: 3, max: 4 }, byes: true } },
  { game: 'porca-miseria', format: { kind: 'swiss', rounds: 7, tableSize: { min: 5, max: 6 }, byes: true } },
  { game: 'pechvogel', format: { kind: 'rotation', rounds: 7, tableSize: { min: 4, max: 4 } } },
  { game: 'pechvogel', format: { kind: 'knockout', tableSize: { min: 4, max: 4 }, advance: 2 } },
];

for (const { game, format } of cases) {
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
    let pairing = pairRound(input);
    for (let k = 0; k < repeat; k++) {
      const started = performance.now();
      pairing = pairRound(input);
      times.push(performance.now() - started);
    }
    if ('violation' in pairing) throw new Error(pairing.violation);
    times.sort((a, b) => a - b);
    console.log(
      JSON.stringify({
        game,
        format: format.kind,
        tableSize: format.tableSize,
        players: players.length,
        roundsBefore: before,
        ms: Math.round(times[Math.floor(times.length / 2)]! * 10) / 10,
        tables: pairing.tables.length,
        byes: pairing.byes.length,
        repeats: pairing.repeats,
      }),
    );
  }
}
