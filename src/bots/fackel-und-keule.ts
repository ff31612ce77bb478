// Fackel+Keule strategy: play two clubs when we have them (fights decide most rounds),
// add the tools the animal needs (more of them puts us earlier in the prey order),
// keep spare tools, and take, rob and discard to widen our lead as scoring counts it.
import { cardKind } from '../domain/fackel-und-keule/edition.ts';
import type { Command, View } from '../domain/fackel-und-keule/index.ts';
import { scores } from '../domain/fackel-und-keule/scoring.ts';
import { TOOL_KINDS, type CardKind, type ChipCounts, type ChipKind, type ToolKind } from '../domain/fackel-und-keule/vocabulary.ts';
import { greedyBot, type Turn } from './bot.ts';

type FTurn = Turn<View, Command>;

const CLUBS_TO_WIN = 2;

const isTool = (kind: CardKind): kind is ToolKind => kind !== 'club';

/** Most hunts fail for missing tools (about three in four in random play) and end in a
 * fight, so clubs pay most: two usually win it (a skull and a robbed chip), more are
 * wasted. Then needed tools, which earn prey on a kill; spare tools only thin the hand. */
function chooseScore({ view }: FTurn, cards: readonly number[]): number {
  const needs = view.animal?.needs;
  const needed = (kind: CardKind) => isTool(kind) && needs !== undefined && needs[kind] > 0;
  const count = (test: (kind: CardKind) => boolean) => cards.filter((c) => test(cardKind(c))).length;
  const clubs = count((k) => k === 'club');
  const spare = count((k) => isTool(k) && !needed(k));
  return 4 * Math.min(clubs, CLUBS_TO_WIN) - 2 * Math.max(0, clubs - CLUBS_TO_WIN) + 2 * count(needed) - spare;
}

/** Our score minus the best opponent's, after moving chips. */
function lead(view: View, seat: number, change: (chips: ChipCounts[]) => void): number {
  const chips = view.seats.map((s) => ({ ...s.chips }));
  change(chips);
  const all = scores(chips);
  return all[seat]! - Math.max(...all.filter((_, s) => s !== seat));
}

const gain = (chips: ChipCounts[], seat: number, kinds: readonly ChipKind[]) => {
  for (const kind of kinds) chips[seat]![kind] += 1;
};

/** What a hand is worth keeping: a spread of tool kinds for whatever animal comes,
 * and a couple of clubs for fights. */
function keepScore(hand: readonly number[]): number {
  const kinds = hand.map(cardKind);
  const tools = kinds.filter(isTool);
  const spread = TOOL_KINDS.filter((k) => tools.includes(k)).length;
  const clubs = kinds.length - tools.length;
  return 3 * spread + tools.length + 2 * Math.min(clubs, 2);
}

export const fackelUndKeuleGreedy = greedyBot<View, Command>((turn) => {
  const { view, seat } = turn;
  return (command) => {
    switch (command.type) {
      case 'choose':
        return chooseScore(turn, command.cards);
      case 'takePrey':
        return lead(view, seat, (chips) => gain(chips, seat, command.chips));
      case 'rob': {
        // legalCommands names one chip; the list form exists only to be refused.
        const { chip } = command;
        if (typeof chip !== 'string') return -Infinity;
        return lead(view, seat, (chips) => {
          chips[command.from]![chip] -= 1;
          gain(chips, seat, [chip]);
        });
      }
      case 'discard':
        return keepScore((view.you?.hand ?? []).filter((c) => !command.cards.includes(c)));
    }
  };
});
