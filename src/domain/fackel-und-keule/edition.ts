// This project's edition of Fackel+Keule ("Spielwerk edition 1"). The rulebook lists
// only the component counts, the wool-rhinoceros and the saber-tooth tiger's needs;
// everything else here is our own data. The rules code reads it and never hard-codes
// these numbers. Served by the catalog as the module's `edition`.
import type { CardKind, ChipCounts, PreyCounts, ToolCounts } from './vocabulary.ts';

export interface CardData {
  /** The number printed on the card; unique, and the lowest breaks ties. */
  readonly id: number;
  readonly kind: CardKind;
}

export interface AnimalData {
  readonly id: string;
  readonly name: string;
  /** Tools required to kill the animal. */
  readonly needs: ToolCounts;
  /** Prey chips the animal yields when killed. */
  readonly prey: PreyCounts;
}

export interface Edition {
  readonly id: string;
  /** 32 tool cards (11 torches, 11 spears, 10 stone-axes) and 14 clubs, numbered 1–46. */
  readonly cards: readonly CardData[];
  readonly animals: readonly AnimalData[];
  /** The 92 prey chips. Each hunt type covers the sum over all 12 animals, and there
   * is a skull for every round, so in this edition the supply never runs out. */
  readonly chips: ChipCounts;
}

const animal = (
  id: string,
  name: string,
  [torch, stoneAxe, spear]: readonly [number, number, number],
  [teeth, fur, meat]: readonly [number, number, number],
): AnimalData => ({ id, name, needs: { torch, stoneAxe, spear }, prey: { teeth, fur, meat } });

export const edition: Edition = {
  id: 'spielwerk-1',
  cards: [
    { id: 1, kind: 'torch' },
    { id: 2, kind: 'spear' },
    { id: 3, kind: 'stoneAxe' },
    { id: 4, kind: 'torch' },
    { id: 5, kind: 'spear' },
    { id: 6, kind: 'stoneAxe' },
    { id: 7, kind: 'torch' },
    { id: 8, kind: 'spear' },
    { id: 9, kind: 'stoneAxe' },
    { id: 10, kind: 'torch' },
    { id: 11, kind: 'spear' },
    { id: 12, kind: 'stoneAxe' },
    { id: 13, kind: 'torch' },
    { id: 14, kind: 'spear' },
    { id: 15, kind: 'stoneAxe' },
    { id: 16, kind: 'torch' },
    { id: 17, kind: 'spear' },
    { id: 18, kind: 'stoneAxe' },
    { id: 19, kind: 'torch' },
    { id: 20, kind: 'spear' },
    { id: 21, kind: 'stoneAxe' },
    { id: 22, kind: 'torch' },
    { id: 23, kind: 'spear' },
    { id: 24, kind: 'stoneAxe' },
    { id: 25, kind: 'torch' },
    { id: 26, kind: 'spear' },
    { id: 27, kind: 'stoneAxe' },
    { id: 28, kind: 'torch' },
    { id: 29, kind: 'spear' },
    { id: 30, kind: 'stoneAxe' },
    { id: 31, kind: 'torch' },
    { id: 32, kind: 'spear' },
    { id: 33, kind: 'club' },
    { id: 34, kind: 'club' },
    { id: 35, kind: 'club' },
    { id: 36, kind: 'club' },
    { id: 37, kind: 'club' },
    { id: 38, kind: 'club' },
    { id: 39, kind: 'club' },
    { id: 40, kind: 'club' },
    { id: 41, kind: 'club' },
    { id: 42, kind: 'club' },
    { id: 43, kind: 'club' },
    { id: 44, kind: 'club' },
    { id: 45, kind: 'club' },
    { id: 46, kind: 'club' },
  ],
  // needs: [torches, stone-axes, spears]; prey: [teeth, fur, meat]
  animals: [
    animal('wool-rhinoceros', 'Wool-rhinoceros', [1, 3, 4], [2, 2, 4]), // rulebook
    animal('saber-tooth-tiger', 'Saber-tooth tiger', [2, 0, 5], [3, 2, 1]), // needs: rulebook
    animal('mammoth', 'Mammoth', [2, 4, 5], [3, 3, 5]),
    animal('cave-bear', 'Cave bear', [2, 2, 3], [2, 3, 2]),
    animal('giant-elk', 'Giant elk', [0, 2, 3], [1, 2, 3]),
    animal('aurochs', 'Aurochs', [1, 2, 4], [1, 2, 4]),
    animal('wild-horse', 'Wild horse', [0, 0, 3], [1, 1, 2]),
    animal('cave-lion', 'Cave lion', [2, 0, 4], [2, 2, 2]),
    animal('reindeer', 'Reindeer', [0, 1, 2], [1, 2, 1]),
    animal('dire-wolf', 'Dire wolf', [1, 1, 2], [2, 1, 0]),
    animal('wild-boar', 'Wild boar', [0, 2, 2], [2, 0, 3]),
    animal('cave-hyena', 'Cave hyena', [1, 2, 1], [1, 1, 1]),
  ],
  chips: { teeth: 24, fur: 24, meat: 30, skull: 14 },
};

const cardsById = new Map(edition.cards.map((c) => [c.id, c]));
const animalsById = new Map(edition.animals.map((a) => [a.id, a]));

export const cardKind = (id: number): CardKind => {
  const card = cardsById.get(id);
  if (card === undefined) throw new RangeError(`no card numbered ${id}`);
  return card.kind;
};

export const isCard = (id: number): boolean => cardsById.has(id);

export const animalData = (id: string): AnimalData => {
  const found = animalsById.get(id);
  if (found === undefined) throw new RangeError(`no animal ${id}`);
  return found;
};
