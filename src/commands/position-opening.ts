// A supplied-chance game that starts from a described position: its opening event is
// the position (src/domain/positions.ts), checked against the rules' invariants first,
// so a position that does not add up creates nothing.
import type { GameEvent, Setup } from '../domain/contract.ts';
import { positionCodes } from '../domain/position-rules.ts';
import { positionEvent } from '../domain/positions.ts';
import { ServiceError } from '../errors.ts';
import type { GameRecord } from '../events/records.ts';

export function openingAt(record: GameRecord, setup: Setup<unknown>, request: { readonly position?: unknown; readonly outcomes?: readonly unknown[] }, now: number): GameEvent[] {
  if (record.chanceMode !== 'supplied') {
    throw new ServiceError(positionCodes.notAllowed, 'a game starts from a position only with chance "supplied": the table is already in play', {}, 'rule');
  }
  if (request.outcomes !== undefined) {
    throw new ServiceError(positionCodes.notAllowed, 'a position replaces the deal: send no setup outcomes with it', {}, 'rule');
  }
  const entered = positionEvent(record.type, setup, request.position, now);
  if ('event' in entered) return [entered.event];
  const [first] = entered.problems;
  const more = entered.problems.length > 1 ? ` (and ${entered.problems.length - 1} more)` : '';
  throw new ServiceError(first!.code, `the position does not add up: ${first!.message}${more}`, { problems: entered.problems }, 'rule');
}
