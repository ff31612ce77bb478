// This project's edition of Mistkäfer: the components the rulebook lists and the
// tableau it does not draw. The rules code reads every number from here.
import type { BonusKind, PerChip, PerColour } from './vocabulary.ts';

export interface BonusSpace {
  /** 1-based column, counted from the left end of the row. */
  readonly column: number;
  readonly bonus: BonusKind;
}

export interface Edition {
  readonly name: string;
  readonly dieFaces: readonly number[];
  readonly dicePerColour: number;
  /** "Up to 4" dice per roll. */
  readonly maxDicePerRoll: number;
  readonly chips: PerChip<number>;
  /** Dung balls each chip shows. */
  readonly dungBalls: PerChip<number>;
  /** Components removed for smaller games, keyed by player count. */
  readonly removed: Readonly<Record<string, { readonly dicePerColour: number; readonly chips: PerChip<number> }>>;
  readonly win: {
    readonly cloverLeaves: number;
    /** Dung balls needed, keyed by player count. */
    readonly dungBalls: Readonly<Record<string, number>>;
  };
  readonly tableau: {
    /** Spaces per row. At least dicePerColour, so a row can never overflow. */
    readonly rowLength: number;
    /** The white line lies after this many columns; dice in later columns are "right of the line". */
    readonly whiteLineAfter: number;
    /** 1-based columns with a white chip pictured beneath; scored when complete. */
    readonly whiteChipColumns: readonly number[];
    readonly bonusSpaces: PerColour<readonly BonusSpace[]>;
  };
}

const noChips: PerChip<number> = { oneDungBall: 0, twoDungBalls: 0, cloverLeaf: 0 };

export const edition: Edition = {
  name: 'Spielwerk edition 1',
  dieFaces: [1, 2, 3, 4, 5, 6],
  dicePerColour: 9,
  maxDicePerRoll: 4,
  chips: { oneDungBall: 26, twoDungBalls: 13, cloverLeaf: 9 },
  dungBalls: { oneDungBall: 1, twoDungBalls: 2, cloverLeaf: 0 },
  removed: {
    '2': { dicePerColour: 3, chips: { ...noChips, cloverLeaf: 3 } },
    '3': { dicePerColour: 1, chips: { ...noChips, cloverLeaf: 1 } },
    '4': { dicePerColour: 0, chips: noChips },
  },
  win: { cloverLeaves: 4, dungBalls: { '2': 20, '3': 16, '4': 12 } },
  tableau: {
    rowLength: 9,
    whiteLineAfter: 5,
    whiteChipColumns: [1, 2],
    bonusSpaces: {
      green: [
        { column: 4, bonus: 'oneChip' },
        { column: 6, bonus: 'extraTurn' },
        { column: 8, bonus: 'stealChip' },
      ],
      yellow: [
        { column: 4, bonus: 'extraTurn' },
        { column: 6, bonus: 'twoChips' },
        { column: 8, bonus: 'stealChipFromEach' },
      ],
      blue: [
        { column: 4, bonus: 'stealChip' },
        { column: 6, bonus: 'oneChip' },
        { column: 7, bonus: 'extraTurn' },
        { column: 9, bonus: 'twoChips' },
      ],
    },
  },
};
