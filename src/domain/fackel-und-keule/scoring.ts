// Scoring: a point a chip, 3 for the sole majority of each of the 4 chip types
// (skulls are a type), 3 for holding all 4 types.
import { scoreOf, type ScorePart } from '../contract.ts';
import { CHIP_KINDS, type ChipCounts } from './vocabulary.ts';

export const MAJORITY_BONUS = 3;
export const ALL_TYPES_BONUS = 3;

/** "Each prey chip counts a point. Whoever of a prey chips type has most receives 3
 * points, with tie, there are no points. Whoever has all 4 prey chips type receives
 * also 3 points." Only the bonuses a seat earned are listed. */
export const scoreParts = (chips: readonly ChipCounts[]): ScorePart[][] =>
  chips.map((mine, seat) => {
    const count = CHIP_KINDS.reduce((sum, k) => sum + mine[k], 0);
    const majorities = CHIP_KINDS.filter((k) => mine[k] > 0 && chips.every((other, s) => s === seat || other[k] < mine[k]));
    return [
      { label: 'prey chip', count, points: count },
      ...majorities.map((k) => ({ label: `most ${k === 'skull' ? 'skulls' : k}`, points: MAJORITY_BONUS })),
      ...(CHIP_KINDS.every((k) => mine[k] > 0) ? [{ label: 'all 4 kinds of prey chip', points: ALL_TYPES_BONUS }] : []),
    ];
  });

export const scores = (chips: readonly ChipCounts[]): number[] => scoreParts(chips).map(scoreOf);
