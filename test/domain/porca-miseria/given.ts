// Given/when helpers for the Porca Miseria rules tests: state from folded events, a
// command sent with an injected clock and the referee's chance outcomes.
import { suppliedChance } from '../../../src/domain/chance.ts';
import { fold, isViolation, type Actor, type RuleViolation, type Seat } from '../../../src/domain/contract.ts';
import { porcaMiseria, type PorcaCommand, type PorcaEvent, type PorcaState } from '../../../src/domain/porca-miseria/index.ts';
import { optionsSchema } from '../../../src/domain/porca-miseria/options.ts';

/** The clock of every test starts here; windows use the default options unless set. */
export const T0 = 1_000_000;
export const revealMs = 5_000;
export const windowMs = 4_000;

export const started: PorcaEvent = { type: 'GameStarted', startingSeat: 0, at: T0 };
export const revealed = (card: string, at = T0 + 100, by: Seat | null = 0): PorcaEvent => ({
  type: 'CardRevealed',
  card,
  by,
  receivedAt: at,
});

export function given(seats: number, events: readonly PorcaEvent[], options: object = {}): PorcaState {
  return fold(porcaMiseria, { options: optionsSchema.parse(options), seats }, events);
}

export const seat = (n: Seat): Actor => ({ kind: 'seat', seat: n });
export const system: Actor = { kind: 'system' };

/** Sends the command; all supplied chance outcomes must be used. */
export function when(
  state: PorcaState,
  command: PorcaCommand,
  actor: Actor,
  now: number,
  outcomes: readonly unknown[] = [],
): PorcaEvent[] | RuleViolation {
  const chance = suppliedChance(outcomes, 'test');
  const answer = porcaMiseria.decide(state, command, { actor, now, chance });
  if (!isViolation(answer)) chance.assertAllUsed();
  return answer;
}

/** Like `when`, but the command must be accepted; returns the events and the state after. */
export function accepted(
  state: PorcaState,
  command: PorcaCommand,
  actor: Actor,
  now: number,
  outcomes: readonly unknown[] = [],
): { events: PorcaEvent[]; state: PorcaState } {
  const answer = when(state, command, actor, now, outcomes);
  if (isViolation(answer)) throw new Error(`rejected: ${answer.code} ${answer.message}`);
  return { events: answer, state: answer.reduce(porcaMiseria.evolve, state) };
}

export const codeOf = (answer: PorcaEvent[] | RuleViolation): string | null =>
  isViolation(answer) ? answer.code : null;
