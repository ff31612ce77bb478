// Bonus spaces: carried out one at a time, in the order the player chooses.
import type { Chance } from '../chance.ts';
import type { RuleViolation } from '../contract.ts';
import { violation } from '../contract.ts';
import { chipHolders, stealChip, takeChips } from './chips.ts';
import { codes } from './codes.ts';
import type { Command } from './commands.ts';
import type { Event } from './events.ts';
import type { Run } from './run.ts';
import { begin, emit, endTurn, isOver } from './run.ts';
import type { State } from './state.ts';

type ResolveBonus = Extract<Command, { type: 'resolveBonus' }>;

export function resolveBonus(state: State, { bonus, victim }: ResolveBonus, chance: Chance): Event[] | RuleViolation {
  if (state.phase !== 'bonus') return violation(codes.wrongPhase, 'No bonus is waiting.');
  if (!state.bonuses.includes(bonus)) return violation(codes.bonusNotPending, `No ${bonus} bonus is waiting.`);
  const seat = state.active;
  const run = begin(state);
  const holders = chipHolders(state, seat);
  if (bonus === 'stealChip' && (holders.length > 0 ? !holders.includes(victim ?? -1) : victim !== null)) {
    return violation(codes.badVictim, 'Name a player who has a chip (none when nobody has one).');
  }
  if (bonus !== 'stealChip' && victim !== null) {
    return violation(codes.badVictim, `The ${bonus} bonus takes no victim.`);
  }
  let after = emit(run, { type: 'BonusResolved', seat, bonus });
  switch (bonus) {
    case 'extraTurn':
      break;
    case 'oneChip':
      after = takeChips(after, seat, 1, chance);
      break;
    case 'twoChips':
      after = takeChips(after, seat, 2, chance);
      break;
    case 'stealChip':
      // Nobody has a chip: the rulebook gives one from the middle of the table instead.
      after = victim === null ? takeChips(after, seat, 1, chance) : stealChip(after, seat, victim, chance);
      break;
    case 'stealChipFromEach':
      for (const holder of holders) after = stealChip(after, seat, holder, chance);
      break;
  }
  const done = !isOver(after) && after.state.bonuses.length === 0;
  return [...(done ? endTurn(after) : after).events];
}
