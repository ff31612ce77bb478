// B. Scoring: one chip per complete white-chip column and per die right of the white
// line; then every die on the tableau goes back to the supply.
import type { Chance } from '../chance.ts';
import type { RuleViolation } from '../contract.ts';
import { violation } from '../contract.ts';
import { takeChips } from './chips.ts';
import { codes } from './codes.ts';
import type { Event } from './events.ts';
import { begin, emit, endTurn } from './run.ts';
import type { State } from './state.ts';
import { completeWhiteChipColumns, diceRightOfLine } from './tableau.ts';
import { colours } from './vocabulary.ts';

export function score(state: State, chance: Chance): Event[] | RuleViolation {
  if (state.phase !== 'turn') return violation(codes.wrongPhase, 'You can score only instead of rolling.');
  const seat = state.active;
  const tableau = state.tableaus[seat]!;
  const completeColumns = completeWhiteChipColumns(tableau);
  const beyond = diceRightOfLine(tableau);
  const rightOfLine = colours.reduce((n, c) => n + beyond[c], 0);
  const scored = emit(begin(state), {
    type: 'TableauScored',
    seat,
    completeColumns,
    diceRightOfLine: rightOfLine,
  });
  return [...endTurn(takeChips(scored, seat, completeColumns + rightOfLine, chance)).events];
}
