// The tableau's geometry from the edition: bonus spaces, the white line, scored columns.
import { edition } from './edition.ts';
import type { Tableau } from './state.ts';
import type { BonusKind, Colour, PerColour } from './vocabulary.ts';
import { colours } from './vocabulary.ts';

/** Bonus spaces a placement of `count` dice onto a row of `filled` dice lands on, left to right. */
export const bonusesLandedOn = (colour: Colour, filled: number, count: number): BonusKind[] =>
  edition.tableau.bonusSpaces[colour]
    .filter((space) => space.column > filled && space.column <= filled + count)
    .map((space) => space.bonus);

/** A column is complete when every row has a die in it. */
export const completeWhiteChipColumns = (tableau: Tableau): number =>
  edition.tableau.whiteChipColumns.filter((column) =>
    colours.every((c) => tableau[c].length >= column),
  ).length;

export const diceRightOfLine = (tableau: Tableau): PerColour<number> => {
  const beyond = (c: Colour) => Math.max(0, tableau[c].length - edition.tableau.whiteLineAfter);
  return { green: beyond('green'), yellow: beyond('yellow'), blue: beyond('blue') };
};

/** Bad luck: the rolled colour's row empties, every other row keeps what lies left of the line. */
export const afterBadLuck = (tableau: Tableau, colour: Colour): Tableau => {
  const keep = (c: Colour) => (c === colour ? [] : tableau[c].slice(0, edition.tableau.whiteLineAfter));
  return { green: keep('green'), yellow: keep('yellow'), blue: keep('blue') };
};
