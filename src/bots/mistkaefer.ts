// Mistkäfer strategy: roll the colour most likely to place (the lowest row end, four
// dice), bank the tableau when the risk of bad luck outweighs one more placement,
// place for 3 points a die (own and stolen) minus the value, so a much lower value
// beats one more die (rows stay open for later rolls), steal whenever allowed, and rob
// the seat with the most chips.
import { edition } from '../domain/mistkaefer/edition.ts';
import type { Command, View } from '../domain/mistkaefer/index.ts';
import type { Tableau } from '../domain/mistkaefer/state.ts';
import { completeWhiteChipColumns, diceRightOfLine } from '../domain/mistkaefer/tableau.ts';
import { colours, type Colour } from '../domain/mistkaefer/vocabulary.ts';
import { greedyBot } from './bot.ts';

/** Chips the tableau would score now; bad luck would cost most of them. */
const worth = (tableau: Tableau): number => {
  const beyond = diceRightOfLine(tableau);
  return completeWhiteChipColumns(tableau) + colours.reduce((n, c) => n + beyond[c], 0);
};

/** Chance that at least one of `count` dice beats the row's last die. */
const placeChance = (tableau: Tableau, colour: Colour, count: number): number => {
  const last = tableau[colour].at(-1) ?? 0;
  const faces = edition.dieFaces.length;
  return 1 - (Math.min(last, faces) / faces) ** count;
};

/** Rolling is worth it while the expected gain (about a chip per placement) beats the
 * expected loss of what the tableau holds (`atRisk`); scoring is the zero line. */
const rollValue = (tableau: Tableau, atRisk: number, colour: Colour, count: number): number => {
  const p = placeChance(tableau, colour, count);
  return p - (1 - p) * atRisk + count / 100;
};

export const mistkaeferGreedy = greedyBot<View, Command>(({ view, seat }) => {
  const tableau = view.tableaus[seat]!;
  // Once per choice, not once per roll command offered.
  const atRisk = worth(tableau);
  return (command) => {
    switch (command.type) {
      case 'score':
        return 0;
      case 'roll':
        return rollValue(tableau, atRisk, command.colour, command.count);
      case 'place': {
        const rolled = view.rolled?.values.filter((v) => v === command.value).length ?? 0;
        return 3 * (rolled + command.stealFrom.length) - command.value;
      }
      case 'resolveBonus':
        return command.victim === null ? 0 : (view.hands[command.victim]?.count ?? 0);
    }
  };
});
