// The words of the rulebook: the three symbols (each with its target card), the kinds
// of card in the stack, and the phases of one action.

/** The three symbols; each names one target card and one kind of touch card. */
export const symbols = ['mushroom', 'pig', 'sweep'] as const;
export type Symbol = (typeof symbols)[number];

/** The colour of each symbol on the cards (the rulebook's colour coding). */
export const symbolColour = { mushroom: 'blue', pig: 'yellow', sweep: 'red' } as const satisfies Record<
  Symbol,
  string
>;

export const cardKinds = ['symbol', 'touch'] as const;
export type CardKind = (typeof cardKinds)[number];

/** setup: before the opening event; reveal: the starting player is to turn the top
 * card; symbol / touch: the action window of a revealed card is open; over. */
export const phases = ['setup', 'reveal', 'symbol', 'touch', 'over'] as const;
export type Phase = (typeof phases)[number];

/** How many hands each player has for the stack of hands. */
export const handsPerPlayer = 2;
/** The jackpot holds at most this many cards after a change of starting player. */
export const jackpotLimit = 5;
/** Cards a wrong grab costs from the grabber's winnings. */
export const lossPerWrongGrab = 3;

export type CardId = string;

export type SymbolCard = {
  readonly id: CardId;
  readonly kind: 'symbol';
  /** How often each symbol appears on the card (1..8). */
  readonly counts: Readonly<Record<Symbol, number>>;
};
export type TouchCard = { readonly id: CardId; readonly kind: 'touch'; readonly symbol: Symbol };
export type Card = SymbolCard | TouchCard;
