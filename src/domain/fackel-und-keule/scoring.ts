// Scoring: a point a chip, 3 for the sole majority of each of the 4 chip types
// (skulls are a type), 3 for holding all 4 types.
import { CHIP_KINDS, type ChipCounts } from './vocabulary.ts';

export const MAJORITY_BONUS = 3;
export const ALL_TYPES_BONUS = 3;

export const scores = (chips: readonly ChipCounts[]): number[] =>
  chips.map((mine, seat) => {
    const perChip = CHIP_KINDS.reduce((sum, k) => sum + mine[k], 0);
    const majorities = CHIP_KINDS.filter(
      (k) => mine[k] > 0 && chips.every((other, s) => s === seat || other[k] < mine[k]),
    ).length;
    const allTypes = CHIP_KINDS.every((k) => mine[k] > 0) ? ALL_TYPES_BONUS : 0;
    return perChip + majorities * MAJORITY_BONUS + allTypes;
  });
