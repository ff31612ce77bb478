// This project's edition of Pechvogel: the components and thresholds of the rulebook,
// kept as data so the rules code names no magic numbers.
import { NUMBERS, FACES, type DieNumber } from './vocabulary.ts';

export const edition = {
  dice: 7,
  faces: FACES,
  /** Score markers in the middle at setup: this many of each number. */
  markersPerNumber: 3,
  markerValues: NUMBERS,
  /** The box holds 13, but the rulebook says the supply never runs out. */
  frustrations: 13,
  supplyUnlimited: true,
  /** Collecting this many of the target ends the turn with a score marker. */
  targetGoal: 4,
  /** Collecting this many ravens ends the turn with frustration. */
  ravenLimit: 3,
  frustrationPenalty: 3,
  frustrationPenaltyWithMurphy: 7,
} as const;

/** The middle at setup: every marker, sorted. */
export const initialMiddle = (): DieNumber[] =>
  edition.markerValues.flatMap((v) => Array.from({ length: edition.markersPerNumber }, () => v));
