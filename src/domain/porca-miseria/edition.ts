// This project's edition of the Porca Miseria stack. The rulebook says only that the
// 63 cards are symbol cards (one to eight of each symbol) and touch cards (one large
// symbol). Our edition: 54 symbol cards that each show all three symbols with three
// different counts (so a count names exactly one target card), every count 1..8
// appearing five to seven times per symbol; and 9 touch cards, three per symbol.
// The rulebook's examples 1-3 are cards s23, s05 and s09. The rules code reads cards
// only through `cardById`, never through these particular numbers.
import { symbols, symbolColour, type Card, type CardId, type SymbolCard, type TouchCard } from './vocabulary.ts';

const symbolCard = (id: CardId, mushroom: number, pig: number, sweep: number): SymbolCard => ({
  id,
  kind: 'symbol',
  counts: { mushroom, pig, sweep },
});
const touchCards = (): TouchCard[] =>
  symbols.flatMap((symbol) =>
    [1, 2, 3].map((n): TouchCard => ({ id: `t-${symbol}-${n}`, kind: 'touch', symbol })),
  );

/** symbolCard(id, mushrooms, pigs, chimney sweeps) */
const symbolCards: SymbolCard[] = [
  symbolCard('s01', 1, 2, 3),
  symbolCard('s02', 1, 3, 4),
  symbolCard('s03', 1, 4, 5),
  symbolCard('s04', 1, 4, 6),
  symbolCard('s05', 1, 5, 8),
  symbolCard('s06', 1, 6, 8),
  symbolCard('s07', 1, 7, 8),
  symbolCard('s08', 2, 4, 5),
  symbolCard('s09', 2, 6, 5),
  symbolCard('s10', 2, 7, 4),
  symbolCard('s11', 2, 8, 4),
  symbolCard('s12', 2, 8, 6),
  symbolCard('s13', 3, 1, 2),
  symbolCard('s14', 3, 4, 1),
  symbolCard('s15', 3, 5, 1),
  symbolCard('s16', 3, 6, 7),
  symbolCard('s17', 3, 7, 2),
  symbolCard('s18', 3, 7, 8),
  symbolCard('s19', 3, 8, 5),
  symbolCard('s20', 4, 1, 6),
  symbolCard('s21', 4, 2, 6),
  symbolCard('s22', 4, 3, 2),
  symbolCard('s23', 4, 3, 6),
  symbolCard('s24', 4, 5, 1),
  symbolCard('s25', 4, 6, 7),
  symbolCard('s26', 4, 6, 8),
  symbolCard('s27', 5, 1, 8),
  symbolCard('s28', 5, 2, 4),
  symbolCard('s29', 5, 3, 7),
  symbolCard('s30', 5, 4, 8),
  symbolCard('s31', 5, 8, 2),
  symbolCard('s32', 5, 8, 3),
  symbolCard('s33', 5, 8, 7),
  symbolCard('s34', 6, 2, 3),
  symbolCard('s35', 6, 2, 7),
  symbolCard('s36', 6, 3, 7),
  symbolCard('s37', 6, 4, 5),
  symbolCard('s38', 6, 7, 1),
  symbolCard('s39', 6, 7, 3),
  symbolCard('s40', 6, 8, 1),
  symbolCard('s41', 7, 1, 2),
  symbolCard('s42', 7, 1, 3),
  symbolCard('s43', 7, 2, 5),
  symbolCard('s44', 7, 4, 1),
  symbolCard('s45', 7, 5, 2),
  symbolCard('s46', 7, 5, 3),
  symbolCard('s47', 7, 5, 6),
  symbolCard('s48', 8, 1, 3),
  symbolCard('s49', 8, 1, 7),
  symbolCard('s50', 8, 2, 4),
  symbolCard('s51', 8, 3, 1),
  symbolCard('s52', 8, 3, 2),
  symbolCard('s53', 8, 5, 6),
  symbolCard('s54', 8, 6, 5),
];

export const edition = {
  name: 'Spielwerk edition 1',
  targets: symbols.map((symbol) => ({ symbol, colour: symbolColour[symbol] })),
  cards: [...symbolCards, ...touchCards()] as readonly Card[],
} as const;

export const cardById: Readonly<Record<CardId, Card>> = Object.fromEntries(
  edition.cards.map((card) => [card.id, card]),
);

export const deckIds: readonly CardId[] = edition.cards.map((card) => card.id);
