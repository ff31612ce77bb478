// Many bot games in a row and what they add up to: the pure half of
// `npm run simulate` (the script adds arguments, timing and the progress bar).
import type { AnyGame } from '../domain/games.ts';
import type { AnyBot } from './index.ts';
import { play } from './play.ts';

export interface SimulationInput {
  readonly game: AnyGame;
  /** One bot per seat. */
  readonly bots: readonly AnyBot[];
  readonly games: number;
  readonly seed: string;
  /** Game i shifts the bots i seats on, so every bot sits in every seat equally. */
  readonly rotate: boolean;
  /** A game still running after this many commands counts as unfinished: a guard
   * against rules that let random play go on for ever. */
  readonly maxCommands: number;
  /** The game's options (defaults when absent): a variant, e.g. Porca Miseria's expert
   * numbers. Bots answer at once, so a time limit brings no timeouts. */
  readonly options?: unknown;
  readonly onGame?: (done: number) => void;
}

export interface Stats {
  readonly mean: number;
  readonly p50: number;
  readonly min: number;
  readonly max: number;
}

export interface Summary {
  readonly input: Omit<SimulationInput, 'onGame'>;
  readonly finished: number;
  readonly commands: Stats;
  readonly timeouts: Stats;
  readonly scoreBySeat: readonly Stats[];
  /** Wins per game, a shared win split between the winners; over finished games. */
  readonly winRateBySeat: readonly number[];
  readonly winRateByBot: ReadonlyMap<string, { readonly seatGames: number; readonly rate: number }>;
}

export function stats(values: readonly number[]): Stats {
  if (values.length === 0) return { mean: 0, p50: 0, min: 0, max: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return { mean, p50: sorted[Math.floor((sorted.length - 1) / 2)]!, min: sorted[0]!, max: sorted.at(-1)! };
}

const lineup = (bots: readonly AnyBot[], game: number, rotate: boolean): AnyBot[] =>
  bots.map((_, seat) => bots[rotate ? (seat + game) % bots.length : seat]!);

export function simulate({ onGame, ...input }: SimulationInput): Summary {
  const { game, bots, games, seed, rotate, maxCommands, options } = input;
  const seats = bots.length;
  const commands: number[] = [];
  const timeouts: number[] = [];
  const scores: number[][] = bots.map(() => []);
  const seatWins = bots.map(() => 0);
  const botWins = new Map<string, { wins: number; seatGames: number }>();
  let finished = 0;
  for (let i = 0; i < games; i++) {
    const players = lineup(bots, i, rotate);
    const played = play(game, { bots: players, seed: `${seed}:${i}`, maxCommands, options });
    commands.push(played.commands);
    timeouts.push(played.timeouts);
    onGame?.(i + 1);
    const result = played.result;
    if (result === null) continue;
    finished++;
    for (let seat = 0; seat < seats; seat++) {
      const share = result.winners.includes(seat) ? 1 / result.winners.length : 0;
      scores[seat]!.push(result.scores[seat]!);
      seatWins[seat]! += share;
      const name = players[seat]!.name;
      const bot = botWins.get(name) ?? { wins: 0, seatGames: 0 };
      botWins.set(name, { wins: bot.wins + share, seatGames: bot.seatGames + 1 });
    }
  }
  const rate = (wins: number, n: number) => (n === 0 ? 0 : wins / n);
  return {
    input,
    finished,
    commands: stats(commands),
    timeouts: stats(timeouts),
    scoreBySeat: scores.map(stats),
    winRateBySeat: seatWins.map((w) => rate(w, finished)),
    winRateByBot: new Map(
      [...botWins].sort(([a], [b]) => a.localeCompare(b)).map(([name, b]) => [name, { seatGames: b.seatGames, rate: rate(b.wins, b.seatGames) }]),
    ),
  };
}

const num = (x: number): string => (Number.isInteger(x) ? String(x) : x.toFixed(2));
const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

/** The summary as text: a function of the input only, so the same seed prints the
 * same bytes. */
export function formatSummary(s: Summary): string {
  const { game, bots, games, seed, rotate, maxCommands, options } = s.input;
  const names = bots.map((b) => b.name).join(',');
  const lines = [
    `game ${game.type} (rules ${game.rulesVersion}), ${bots.length} seats, bots ${names}${rotate ? ' rotating' : ''}, seed ${seed}` +
      (options === undefined ? '' : `, options ${JSON.stringify(options)}`),
    `games ${games}, finished ${s.finished} (unfinished after ${maxCommands} commands: ${games - s.finished})`,
    `commands per game: mean ${num(s.commands.mean)}, p50 ${s.commands.p50}, max ${s.commands.max}`,
    `timeouts per game: mean ${num(s.timeouts.mean)}, p50 ${s.timeouts.p50}, max ${s.timeouts.max}`,
    'seat  bot         score mean    min    max   win rate',
    ...s.scoreBySeat.map((score, seat) =>
      [
        String(seat).padEnd(5),
        (rotate ? '(rotating)' : bots[seat]!.name).padEnd(10),
        num(score.mean).padStart(12),
        num(score.min).padStart(6),
        num(score.max).padStart(6),
        pct(s.winRateBySeat[seat]!).padStart(10),
      ].join(' '),
    ),
    'win rate by bot (a shared win is split; fair share is 1/seats):',
    ...[...s.winRateByBot].map(([name, b]) => `  ${name.padEnd(10)} ${pct(b.rate).padStart(6)}  over ${b.seatGames} seat-games`),
  ];
  return `${lines.join('\n')}\n`;
}
