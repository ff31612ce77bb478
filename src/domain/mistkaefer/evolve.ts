// Folds one event into the state. Pure and total: everything comes from the event.
import { afterBadLuck } from './tableau.ts';
import type { Event } from './events.ts';
import type { State, Tableau } from './state.ts';
import { perColour } from './state.ts';
import type { ChipKind, Colour, PerChip } from './vocabulary.ts';

const replaceAt = <T>(list: readonly T[], at: number, item: T): T[] =>
  list.map((x, i) => (i === at ? item : x));

const withRow = (tableau: Tableau, colour: Colour, row: readonly number[]): Tableau => ({
  ...tableau,
  [colour]: row,
});

const withoutOne = (hand: readonly ChipKind[], chip: ChipKind): ChipKind[] => {
  const at = hand.indexOf(chip);
  return at < 0 ? [...hand] : [...hand.slice(0, at), ...hand.slice(at + 1)];
};

const minusChips = (supply: PerChip<number>, chips: readonly ChipKind[]): PerChip<number> =>
  chips.reduce((s, k) => ({ ...s, [k]: s[k] - 1 }), supply);

export function evolve(state: State, event: Event): State {
  switch (event.type) {
    case 'GameStarted':
      return { ...state, phase: 'turn', active: event.firstSeat, dice: event.dice, chips: event.chips };
    case 'DiceRolled':
      return {
        ...state,
        phase: 'placing',
        rolled: { colour: event.colour, values: event.values },
        dice: { ...state.dice, [event.colour]: state.dice[event.colour] - event.values.length },
      };
    case 'DicePlaced': {
      const { colour, value, count, stolenFrom } = event;
      const rolledBack = (state.rolled?.values.length ?? count) - count;
      const tableaus = state.tableaus.map((t, s) => {
        if (s === event.seat) return withRow(t, colour, [...t[colour], ...Array(count + stolenFrom.length).fill(value)]);
        if (stolenFrom.includes(s)) return withRow(t, colour, t[colour].slice(0, -1));
        return t;
      });
      return {
        ...state,
        phase: 'bonus',
        rolled: null,
        tableaus,
        dice: { ...state.dice, [colour]: state.dice[colour] + rolledBack },
        bonuses: event.bonuses,
      };
    }
    case 'BadLuck': {
      const { seat, colour, returned } = event;
      return {
        ...state,
        rolled: null,
        tableaus: replaceAt(state.tableaus, seat, afterBadLuck(state.tableaus[seat]!, colour)),
        dice: perColour((c) => state.dice[c] + returned[c] + (c === colour ? state.rolled?.values.length ?? 0 : 0)),
      };
    }
    case 'BonusResolved': {
      const at = state.bonuses.indexOf(event.bonus);
      return {
        ...state,
        bonuses: state.bonuses.filter((_, i) => i !== at),
        extraTurns: state.extraTurns + (event.bonus === 'extraTurn' ? 1 : 0),
      };
    }
    case 'ChipsTaken': {
      // Folded on the full log only; a redacted event (chips: null) cannot be folded.
      const chips = event.chips ?? [];
      return {
        ...state,
        chips: minusChips(state.chips, chips),
        hands: replaceAt(state.hands, event.seat, [...state.hands[event.seat]!, ...chips]),
      };
    }
    case 'ChipStolen': {
      if (event.chip === null) return state;
      const hands = replaceAt(state.hands, event.victim, withoutOne(state.hands[event.victim]!, event.chip));
      return { ...state, hands: replaceAt(hands, event.thief, [...hands[event.thief]!, event.chip]) };
    }
    case 'TableauScored': {
      const tableau = state.tableaus[event.seat]!;
      return {
        ...state,
        tableaus: replaceAt(state.tableaus, event.seat, { green: [], yellow: [], blue: [] }),
        dice: perColour((c) => state.dice[c] + tableau[c].length),
      };
    }
    case 'TurnEnded':
      return {
        ...state,
        phase: 'turn',
        active: event.next,
        rolled: null,
        bonuses: [],
        extraTurns: event.next === event.seat && state.extraTurns > 0 ? state.extraTurns - 1 : 0,
        turnsTaken: replaceAt(state.turnsTaken, event.seat, state.turnsTaken[event.seat]! + 1),
      };
    case 'GameWon':
      return { ...state, phase: 'over', winner: event.seat, rolled: null, bonuses: [] };
  }
}
