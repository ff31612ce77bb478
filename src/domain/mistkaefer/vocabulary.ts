// The closed sets of Mistkäfer: dice colours, chip faces, bonus spaces, phases.
// The rulebook names green, yellow and blue dice in its examples.

export const colours = ['green', 'yellow', 'blue'] as const;
export type Colour = (typeof colours)[number];

export const chipKinds = ['oneDungBall', 'twoDungBalls', 'cloverLeaf'] as const;
export type ChipKind = (typeof chipKinds)[number];

/** The bonus spaces pictured on the tableau. */
export const bonusKinds = [
  'extraTurn',
  'oneChip',
  'twoChips',
  /** Steal one face-down chip from one player of the thief's choice. */
  'stealChip',
  /** Steal one face-down chip from every player who has any. */
  'stealChipFromEach',
] as const;
export type BonusKind = (typeof bonusKinds)[number];

export const phases = [
  /** Seats are taken; the opening event has not happened yet. */
  'setup',
  /** The active seat chooses: roll or score. */
  'turn',
  /** The active seat has rolled and chooses a value (and whom to steal from). */
  'placing',
  /** Bonus spaces were occupied; the active seat resolves them in an order it chooses. */
  'bonus',
  'over',
] as const;
export type Phase = (typeof phases)[number];

export type PerColour<T> = { readonly [c in Colour]: T };
export type PerChip<T> = { readonly [k in ChipKind]: T };
