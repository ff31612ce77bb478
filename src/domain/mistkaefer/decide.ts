// Checks a command against the state: who may act, then the rule of the command.
import type { DecideContext, RuleViolation } from '../contract.ts';
import { violation } from '../contract.ts';
import { resolveBonus } from './bonus.ts';
import { codes } from './codes.ts';
import type { Command } from './commands.ts';
import type { Event } from './events.ts';
import { place, roll } from './rolling.ts';
import { score } from './scoring.ts';
import type { State } from './state.ts';

export function decide(state: State, command: Command, ctx: DecideContext): Event[] | RuleViolation {
  if (state.phase === 'setup' || state.phase === 'over') {
    return violation(codes.notRunning, 'The game is not running.');
  }
  if (ctx.actor.kind !== 'seat' || ctx.actor.seat !== state.active) {
    return violation(codes.notYourTurn, `It is seat ${state.active}'s turn.`);
  }
  switch (command.type) {
    case 'roll':
      return roll(state, command, ctx.chance);
    case 'place':
      return place(state, command);
    case 'resolveBonus':
      return resolveBonus(state, command, ctx.chance);
    case 'score':
      return score(state, ctx.chance);
    default: {
      const unknown: never = command;
      return violation(codes.wrongPhase, `Unknown command ${JSON.stringify(unknown)}.`);
    }
  }
}
