// The bots for each game: `random` (the baseline) and one strategy each.
import type { Command } from '../domain/contract.ts';
import { randomBot, type Bot } from './bot.ts';
import { fackelUndKeuleGreedy } from './fackel-und-keule.ts';
import { mistkaeferGreedy } from './mistkaefer.ts';
import { pechvogelGreedy } from './pechvogel.ts';
import { porcaMiseriaGreedy } from './porca-miseria.ts';

export type { Bot, Turn } from './bot.ts';
export { play, type PlayedGame, type PlayOptions } from './play.ts';
export { seededRng, type Rng } from './rng.ts';

export type AnyBot = Bot<unknown, Command>;

const strategies: Readonly<Record<string, AnyBot>> = {
  pechvogel: pechvogelGreedy as AnyBot,
  'fackel-und-keule': fackelUndKeuleGreedy as AnyBot,
  mistkaefer: mistkaeferGreedy as AnyBot,
  'porca-miseria': porcaMiseriaGreedy as AnyBot,
};

/** The bots of a game by name, or undefined for an unknown game type. */
export function botsFor(type: string): Readonly<Record<string, AnyBot>> | undefined {
  const strategy = strategies[type];
  return strategy === undefined ? undefined : { random: randomBot, [strategy.name]: strategy };
}
