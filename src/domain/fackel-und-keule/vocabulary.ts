// The closed sets of Fackel+Keule and the rulebook's player-count table. Edition data
// (which card is which, the animals, the chip supply) lives in edition.ts.

export const GAME_TYPE = 'fackel-und-keule' as const;

export const TOOL_KINDS = ['torch', 'stoneAxe', 'spear'] as const;
export type ToolKind = (typeof TOOL_KINDS)[number];

/** A card is a tool or a club. */
export const CARD_KINDS = [...TOOL_KINDS, 'club'] as const;
export type CardKind = (typeof CARD_KINDS)[number];

/** What an animal yields when killed. */
export const PREY_KINDS = ['teeth', 'fur', 'meat'] as const;
export type PreyKind = (typeof PREY_KINDS)[number];

/** The rulebook's 4 prey chip types: the animals' prey plus the white skull a fight
 * winner gets. */
export const CHIP_KINDS = [...PREY_KINDS, 'skull'] as const;
export type ChipKind = (typeof CHIP_KINDS)[number];

export type ToolCounts = Record<ToolKind, number>;
export type PreyCounts = Record<PreyKind, number>;
export type ChipCounts = Record<ChipKind, number>;

export const ROUNDS = 12;
export const STARTING_HAND = 5;
/** The first taker in the prey distribution takes this many chips, later takes one. */
export const FIRST_TAKE = 2;

export interface PlayerCountRow {
  /** The most cards one may play in a round (at least 1 must be played). */
  readonly maxPlay: number;
  /** Cards drawn at the end of a round. */
  readonly draw: number;
  /** Cards one may keep after drawing. */
  readonly handLimit: number;
}

/** The rulebook's table, by number of players. */
export const PLAYER_COUNT_TABLE: Readonly<Record<3 | 4 | 5, PlayerCountRow>> = {
  3: { maxPlay: 5, draw: 3, handLimit: 6 },
  4: { maxPlay: 4, draw: 3, handLimit: 6 },
  5: { maxPlay: 3, draw: 2, handLimit: 5 },
};

export const MIN_PLAYERS = 3;
export const MAX_PLAYERS = 5;

export const tableFor = (seats: number): PlayerCountRow => {
  const row = PLAYER_COUNT_TABLE[seats as 3 | 4 | 5];
  if (row === undefined) throw new RangeError(`Fackel+Keule has no table row for ${seats} players`);
  return row;
};
