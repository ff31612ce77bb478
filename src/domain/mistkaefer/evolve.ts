// Folds one event into the state. Pure and total: everything comes from the event.
// Every command folds several events, so the state is copied by `revise` and small
// records by literals rather than by spreading. Rows and hands grow into copies of
// exactly their new size (concat, or a preallocated row): a pushed or spread copy has
// room for 16 more items, and rows and hands outlive many commands.
import { afterBadLuck } from './tableau.ts';
import type { Event } from './events.ts';
import type { State, Tableau } from './state.ts';
import { noBonuses, revise } from './state.ts';
import type { ChipKind, Colour, PerChip, PerColour } from './vocabulary.ts';

const replaceAt = <T>(list: readonly T[], at: number, item: T): T[] => {
  const copy = list.slice();
  copy[at] = item;
  return copy;
};

const withRow = (tableau: Tableau, colour: Colour, row: readonly number[]): Tableau => {
  const copy = { green: tableau.green, yellow: tableau.yellow, blue: tableau.blue };
  copy[colour] = row;
  return copy;
};

/** The row with `n` more dice showing `value`. */
const plusRow = (row: readonly number[], value: number, n: number): number[] => {
  const copy = new Array<number>(row.length + n);
  for (let i = 0; i < copy.length; i++) copy[i] = i < row.length ? row[i]! : value;
  return copy;
};

const plusDice = (dice: PerColour<number>, colour: Colour, n: number): PerColour<number> => {
  if (n === 0) return dice;
  const copy = { green: dice.green, yellow: dice.yellow, blue: dice.blue };
  copy[colour] += n;
  return copy;
};

const withoutOne = (hand: readonly ChipKind[], chip: ChipKind): ChipKind[] => {
  const copy = hand.slice();
  const at = copy.indexOf(chip);
  if (at >= 0) copy.splice(at, 1);
  return copy;
};

const minusChips = (supply: PerChip<number>, chips: readonly ChipKind[]): PerChip<number> => {
  const copy = { oneDungBall: supply.oneDungBall, twoDungBalls: supply.twoDungBalls, cloverLeaf: supply.cloverLeaf };
  for (const k of chips) copy[k]--;
  return copy;
};

export function evolve(state: State, event: Event): State {
  switch (event.type) {
    case 'GameStarted':
      return revise(state, { phase: 'turn', active: event.firstSeat, dice: event.dice, chips: event.chips });
    case 'DiceRolled':
      return revise(state, {
        phase: 'placing',
        rolled: { colour: event.colour, values: event.values },
        dice: plusDice(state.dice, event.colour, -event.values.length),
      });
    case 'DicePlaced': {
      const { seat, colour, value, count, stolenFrom } = event;
      const rolledBack = (state.rolled?.values.length ?? count) - count;
      const tableaus = state.tableaus.slice();
      tableaus[seat] = withRow(tableaus[seat]!, colour, plusRow(tableaus[seat]![colour], value, count + stolenFrom.length));
      for (const s of stolenFrom) tableaus[s] = withRow(tableaus[s]!, colour, tableaus[s]![colour].slice(0, -1));
      return revise(state, {
        phase: 'bonus',
        rolled: null,
        tableaus,
        dice: plusDice(state.dice, colour, rolledBack),
        bonuses: event.bonuses,
      });
    }
    case 'BadLuck': {
      const { seat, colour, returned } = event;
      const dice = {
        green: state.dice.green + returned.green,
        yellow: state.dice.yellow + returned.yellow,
        blue: state.dice.blue + returned.blue,
      };
      dice[colour] += state.rolled?.values.length ?? 0;
      return revise(state, {
        rolled: null,
        tableaus: replaceAt(state.tableaus, seat, afterBadLuck(state.tableaus[seat]!, colour)),
        dice,
      });
    }
    case 'BonusResolved': {
      const bonuses = state.bonuses.slice();
      const at = bonuses.indexOf(event.bonus);
      if (at >= 0) bonuses.splice(at, 1);
      return revise(state, { bonuses, extraTurns: state.extraTurns + (event.bonus === 'extraTurn' ? 1 : 0) });
    }
    case 'ChipsTaken': {
      // Folded on the full log only; a redacted event (chips: null) cannot be folded.
      const chips = event.chips ?? [];
      return revise(state, {
        chips: minusChips(state.chips, chips),
        hands: replaceAt(state.hands, event.seat, state.hands[event.seat]!.concat(chips)),
      });
    }
    case 'ChipStolen': {
      if (event.chip === null) return state;
      const hands = replaceAt(state.hands, event.victim, withoutOne(state.hands[event.victim]!, event.chip));
      hands[event.thief] = hands[event.thief]!.concat(event.chip);
      return revise(state, { hands });
    }
    case 'TableauScored': {
      const tableau = state.tableaus[event.seat]!;
      return revise(state, {
        tableaus: replaceAt(state.tableaus, event.seat, { green: [], yellow: [], blue: [] }),
        dice: {
          green: state.dice.green + tableau.green.length,
          yellow: state.dice.yellow + tableau.yellow.length,
          blue: state.dice.blue + tableau.blue.length,
        },
      });
    }
    case 'TurnEnded':
      return revise(state, {
        phase: 'turn',
        active: event.next,
        rolled: null,
        bonuses: noBonuses,
        extraTurns: event.next === event.seat && state.extraTurns > 0 ? state.extraTurns - 1 : 0,
        hadTurn: state.hadTurn[event.seat] ? state.hadTurn : replaceAt(state.hadTurn, event.seat, true),
      });
    case 'GameWon':
      return revise(state, { phase: 'over', winner: event.seat, rolled: null, bonuses: noBonuses });
  }
}
