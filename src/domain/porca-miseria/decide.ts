// Checks a command against the table and answers with events. The order in which the
// server receives grabs and slaps decides every race; each carries `receivedAt`.
import type { DecideContext, RuleViolation, Seat } from '../contract.ts';
import { violation } from '../contract.ts';
import { codes } from './codes.ts';
import type { PorcaCommand } from './commands.ts';
import { emitter, type Emitter } from './emitter.ts';
import type { PorcaEvent } from './events.ts';
import { deadlineOf, type PorcaState } from './state.ts';
import { isTaken, seatsThatMayGrab, settleSymbolCard } from './symbol-action.ts';
import { handsLaid, seatsThatMaySlap, settleTouchCard, topMakesSandwich, winBySandwich } from './touch-action.ts';
import { handsPerPlayer, type Symbol } from './vocabulary.ts';

export function decide(state: PorcaState, command: PorcaCommand, ctx: DecideContext): PorcaEvent[] | RuleViolation {
  if (state.phase === 'over') return violation(codes.gameOver, 'the game is over');
  if (state.phase === 'setup') return violation(codes.notStarted, 'the game has not started');
  const deadline = deadlineOf(state);
  if (command.type === 'timeout') {
    if (ctx.actor.kind !== 'system') return violation(codes.systemOnly, 'only the server sends timeout');
    if (deadline === null) return violation(codes.noDeadline, 'no deadline is running (revealMs or windowMs is 0)');
    if (ctx.now < deadline) return violation(codes.tooEarly, `the deadline is ${deadline}, now is ${ctx.now}`);
    return closeAtDeadline(state, ctx);
  }
  if (ctx.actor.kind !== 'seat') return violation(codes.seatOnly, `the system cannot ${command.type}`);
  const { seat } = ctx.actor;
  if (!Number.isInteger(seat) || seat < 0 || seat >= state.seats) return violation(codes.unknownSeat, `no seat ${seat}`);
  if (deadline !== null && ctx.now >= deadline) return violation(codes.tooLate, `the window closed at ${deadline}`);
  switch (command.type) {
    case 'reveal':
      return reveal(state, seat, ctx);
    case 'grab':
      return grab(state, seat, command.target, ctx);
    case 'slap':
      return slap(state, seat, ctx);
    case 'pass':
      return pass(state, seat, ctx);
    default:
      return command satisfies never;
  }
}

function closeAtDeadline(state: PorcaState, ctx: DecideContext): PorcaEvent[] {
  const out = emitter(state);
  if (state.phase === 'reveal') revealTopCard(out, null, ctx);
  else if (state.phase === 'symbol') settleSymbolCard(out, ctx.chance, ctx.now);
  else settleTouchCard(out, ctx.now);
  return [...out.events];
}

function revealTopCard(out: Emitter, by: Seat | null, ctx: DecideContext): void {
  const [card] = ctx.chance.draw(out.state.stack, 1, 'card');
  if (card !== undefined) out.emit({ type: 'CardRevealed', card, by, receivedAt: ctx.now });
}

function reveal(state: PorcaState, seat: Seat, ctx: DecideContext): PorcaEvent[] | RuleViolation {
  if (state.phase !== 'reveal') return violation(codes.cardAlreadyRevealed, 'a card is already face up');
  if (seat !== state.startingSeat) {
    return violation(codes.notStartingPlayer, `seat ${state.startingSeat} is the starting player`);
  }
  const out = emitter(state);
  revealTopCard(out, seat, ctx);
  return [...out.events];
}

function grab(state: PorcaState, seat: Seat, target: Symbol, ctx: DecideContext): PorcaEvent[] | RuleViolation {
  if (state.phase !== 'symbol') return violation(codes.noSymbolCard, 'no symbol card is face up');
  if (state.passed[seat]) return violation(codes.alreadyPassed, 'you passed in this action');
  if (isTaken(state, target)) return violation(codes.targetTaken, `the ${target} is already taken`);
  const out = emitter(state);
  out.emit({ type: 'TargetGrabbed', seat, target, receivedAt: ctx.now });
  if (seatsThatMayGrab(out.state).length === 0) settleSymbolCard(out, ctx.chance, ctx.now);
  return [...out.events];
}

function slap(state: PorcaState, seat: Seat, ctx: DecideContext): PorcaEvent[] | RuleViolation {
  if (state.phase !== 'touch') return violation(codes.noTouchCard, 'no touch card is face up');
  if (state.passed[seat]) return violation(codes.alreadyPassed, 'you passed in this action');
  if (handsLaid(state, seat) >= handsPerPlayer) return violation(codes.noHandsLeft, 'both your hands are down');
  const out = emitter(state);
  out.emit({ type: 'HandSlapped', seat, receivedAt: ctx.now });
  if (topMakesSandwich(out.state)) winBySandwich(out, ctx.now);
  else if (seatsThatMaySlap(out.state).length === 0) settleTouchCard(out, ctx.now);
  return [...out.events];
}

function pass(state: PorcaState, seat: Seat, ctx: DecideContext): PorcaEvent[] | RuleViolation {
  if (state.phase !== 'symbol' && state.phase !== 'touch') return violation(codes.nothingToPass, 'no card is face up');
  if (state.passed[seat]) return violation(codes.alreadyPassed, 'you passed already');
  if (state.phase === 'touch' && handsLaid(state, seat) >= handsPerPlayer) {
    return violation(codes.noHandsLeft, 'both your hands are down: you are done');
  }
  const out = emitter(state);
  out.emit({ type: 'Passed', seat, receivedAt: ctx.now });
  if (state.phase === 'symbol' && seatsThatMayGrab(out.state).length === 0) settleSymbolCard(out, ctx.chance, ctx.now);
  if (state.phase === 'touch' && seatsThatMaySlap(out.state).length === 0) settleTouchCard(out, ctx.now);
  return [...out.events];
}
