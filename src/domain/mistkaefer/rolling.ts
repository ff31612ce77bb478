// A. Rolling: take up to 4 dice of one colour, roll once, place every die of one
// value (stealing identical dice from row ends), or suffer bad luck.
import type { Chance } from '../chance.ts';
import type { RuleViolation } from '../contract.ts';
import { violation } from '../contract.ts';
import { codes } from './codes.ts';
import type { Command } from './commands.ts';
import { edition } from './edition.ts';
import type { Event } from './events.ts';
import type { Run } from './run.ts';
import { begin, emit, endTurn } from './run.ts';
import type { State } from './state.ts';
import { perColour, placeable, stealableFrom, stealingAllowed } from './state.ts';
import { bonusesLandedOn, diceRightOfLine } from './tableau.ts';

type Roll = Extract<Command, { type: 'roll' }>;
type Place = Extract<Command, { type: 'place' }>;

export function roll(state: State, { colour, count }: Roll, chance: Chance): Event[] | RuleViolation {
  if (state.phase !== 'turn') return violation(codes.wrongPhase, 'You can roll only at the start of your turn.');
  if (state.dice[colour] === 0) return violation(codes.noDiceLeft, `No ${colour} dice are left in the supply.`);
  if (count > Math.min(edition.maxDicePerRoll, state.dice[colour])) {
    return violation(codes.tooManyDice, `Take at most ${edition.maxDicePerRoll} dice, and only what the supply holds.`);
  }
  const seat = state.active;
  // Chance hands back a fresh list exactly `count` long, so the event may keep it.
  const values = chance.roll(edition.dieFaces, count, 'die');
  const rolled = emit(begin(state), { type: 'DiceRolled', seat, colour, values });
  const row = state.tableaus[seat]![colour];
  if (values.some((v) => placeable(row, v))) return [...rolled.events];
  const tableau = state.tableaus[seat]!;
  const beyond = diceRightOfLine(tableau);
  const returned = perColour((c) => (c === colour ? tableau[c].length : beyond[c]));
  return [...endTurn(emit(rolled, { type: 'BadLuck', seat, colour, returned })).events];
}

export function place(state: State, { value, stealFrom }: Place): Event[] | RuleViolation {
  if (state.phase !== 'placing' || state.rolled === null) {
    return violation(codes.wrongPhase, 'Roll before you place.');
  }
  const seat = state.active;
  const { colour, values } = state.rolled;
  let count = 0;
  for (const v of values) if (v === value) count++;
  if (count === 0) return violation(codes.valueNotRolled, `No die shows ${value}.`);
  if (!placeable(state.tableaus[seat]![colour], value)) {
    return violation(codes.valueNotHigher, `A ${value} is not higher than the last ${colour} die.`);
  }
  if (stealFrom.length > 0 && !stealingAllowed(state)) {
    return violation(codes.firstRound, 'In the 1st round of the game, no stealing is allowed yet.');
  }
  const victims = stealableFrom(state, seat, colour, value);
  if (!stealFrom.every((s, i) => victims.includes(s) && stealFrom.indexOf(s) === i)) {
    return violation(codes.cannotSteal, `Steal only from other seats whose ${colour} row ends with a ${value}, once each.`);
  }
  const filled = state.tableaus[seat]![colour].length;
  const bonuses = bonusesLandedOn(colour, filled, count + stealFrom.length);
  const placed: Run = emit(begin(state), {
    type: 'DicePlaced',
    seat,
    colour,
    value,
    count,
    // The victims come in seat order, so this is stealFrom sorted.
    stolenFrom: victims.filter((s) => stealFrom.includes(s)),
    bonuses,
  });
  return [...(bonuses.length === 0 ? endTurn(placed) : placed).events];
}
