// Tournaments for N-player tables, the pure part: formats, pairing a round (Swiss,
// balanced rotation, knockout by tables), standings from table results, OpenSkill
// ratings. Imports only the game catalog (for player ranges), the domain's seeded
// chance and the `openskill` and `zod` packages; nothing of the platform. The
// platform's tournament log, routes and exports build on these exports.
export { formatSchema, tableSizes, validateFormat, type Format, type TableSize } from './format.ts';
export { isComplete, pairRound, type Pairing, type PairingInput } from './pairing.ts';
export { initialRating, rate, type Rating } from './ratings.ts';
export type { TableResult } from './results.ts';
export {
  defaultPointsScheme,
  defaultTieBreaks,
  pointsSchemeSchema,
  standings,
  tieBreakNames,
  type PointsScheme,
  type Standing,
  type TieBreak,
} from './standings.ts';
