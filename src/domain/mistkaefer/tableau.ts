// The tableau's geometry from the edition: bonus spaces, the white line, scored columns.
// Plain loops and no inner closures: the rules and the greedy bot ask these on most
// commands.
import { edition } from './edition.ts';
import type { Tableau } from './state.ts';
import type { BonusKind, Colour, PerColour } from './vocabulary.ts';

/** Bonus spaces a placement of `count` dice onto a row of `filled` dice lands on, left to right. */
export const bonusesLandedOn = (colour: Colour, filled: number, count: number): BonusKind[] => {
  const landed: BonusKind[] = [];
  for (const space of edition.tableau.bonusSpaces[colour]) {
    if (space.column > filled && space.column <= filled + count) landed.push(space.bonus);
  }
  return landed;
};

/** A column is complete when every row has a die in it. */
export const completeWhiteChipColumns = (tableau: Tableau): number => {
  const shortest = Math.min(tableau.green.length, tableau.yellow.length, tableau.blue.length);
  let complete = 0;
  for (const column of edition.tableau.whiteChipColumns) if (shortest >= column) complete++;
  return complete;
};

const rightOfLine = (row: readonly number[]): number => Math.max(0, row.length - edition.tableau.whiteLineAfter);

export const diceRightOfLine = (tableau: Tableau): PerColour<number> => ({
  green: rightOfLine(tableau.green),
  yellow: rightOfLine(tableau.yellow),
  blue: rightOfLine(tableau.blue),
});

/** Bad luck: the rolled colour's row empties, every other row keeps what lies left of the line. */
export const afterBadLuck = (tableau: Tableau, colour: Colour): Tableau => {
  const kept = {
    green: tableau.green.slice(0, edition.tableau.whiteLineAfter),
    yellow: tableau.yellow.slice(0, edition.tableau.whiteLineAfter),
    blue: tableau.blue.slice(0, edition.tableau.whiteLineAfter),
  };
  kept[colour] = [];
  return kept;
};
