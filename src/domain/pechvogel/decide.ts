// Checks a command against the rules and answers with events. Each command's events
// are folded as they are produced (a Draft), so follow-ups such as the end of the
// turn see exactly the state a client will see.
import { violation, type DecideContext, type RuleViolation, type Seat } from '../contract.ts';
import { CODES } from './codes.ts';
import type { PechvogelCommand } from './commands.ts';
import { endTurn, type Claim } from './end-of-turn.ts';
import type { PechvogelEvent } from './events.ts';
import { evolve } from './evolve.ts';
import { timed } from './options.ts';
import { canFrustrate, opensWindow, undecided } from './reaction.ts';
import { stealableFrom, turnOf, type State, type Turn } from './state.ts';
import { FACES } from './vocabulary.ts';

interface Draft {
  readonly state: State;
  readonly events: readonly PechvogelEvent[];
}
const push = (d: Draft, event: PechvogelEvent): Draft => ({
  state: evolve(d.state, event),
  events: [...d.events, event],
});
/** A turn whose throw stands and leaves no choice is scored at once. */
const settle = (d: Draft): PechvogelEvent[] =>
  [...(d.state.phase === 'ending' ? push(d, endTurn(d.state, null)) : d).events];
/** The window closes as soon as nobody is left to decide. */
const closeIfDecided = (d: Draft): Draft =>
  undecided(d.state, turnOf(d.state)).length === 0 ? push(d, { type: 'ReactionClosed', timedOut: false }) : d;

const reactionMs = (state: State): number => state.options.reactionSeconds * 1000;

function throwDice(state: State, turn: Turn, ctx: DecideContext): PechvogelEvent[] {
  const faces = ctx.chance.roll(FACES, turn.remaining, 'die');
  const event = { type: 'DiceThrown', seat: turn.seat, faces, reroll: turn.rerollDue, reactionDeadline: null } as const;
  const after = evolve(state, event);
  const reactionDeadline = opensWindow(after, turnOf(after)) ? ctx.now + reactionMs(state) : null;
  return settle(push({ state, events: [] }, { ...event, reactionDeadline }));
}

function react(state: State, turn: Turn, seat: Seat, command: 'reduce' | 'frustrate' | 'pass', now: number) {
  const reaction = turn.reaction!;
  const start: Draft = { state, events: [] };
  const decided = reaction.passed.includes(seat) || (reaction.joining && turn.frustraters.includes(seat));
  if (decided) return violation(CODES.alreadyDecided, 'you already decided on this throw');
  const frustrations = state.players[seat]!.frustrations;
  switch (command) {
    case 'reduce':
      if (seat !== turn.seat) return violation(CODES.notYourTurn, 'only the player whose turn it is may reduce');
      if (reaction.joining) return violation(CODES.frustrationUnderWay, 'this throw is already being frustrated');
      if (turn.reduced) return violation(CODES.alreadyReduced, 'you reduced frustration this turn already');
      if (frustrations === 0) return violation(CODES.noFrustration, 'you have no frustration to return');
      return [...push(start, { type: 'FrustrationReduced', seat }).events];
    case 'frustrate':
      if (seat === turn.seat) return violation(CODES.ownTurn, 'you cannot frustrate yourself');
      if (frustrations === 0) return violation(CODES.noFrustration, 'you have no frustration to put down');
      if (reaction.joining) return settle(closeIfDecided(push(start, { type: 'FrustrationJoined', seat })));
      if (!canFrustrate(state, turn, seat)) return violation(CODES.alreadyFrustrated, 'the player was frustrated this turn already');
      return settle(closeIfDecided(push(start, { type: 'FrustrationStarted', seat, joinDeadline: now + reactionMs(state) })));
    case 'pass':
      if (!undecided(state, turn).includes(seat)) return violation(CODES.notReacting, 'you have nothing to decide on this throw');
      return settle(closeIfDecided(push(start, { type: 'Passed', seat })));
  }
}

function claim(state: State, turn: Turn, choice: Claim): PechvogelEvent[] | RuleViolation {
  const target = turn.target!;
  if (choice.from === null) {
    if (!state.middle.includes(target)) return violation(CODES.notInMiddle, `no ${target} is left in the middle`);
  } else {
    if (!stealableFrom(state, turn).includes(choice.from)) {
      return violation(CODES.nothingToSteal, `seat ${choice.from} holds no ${target} you may steal`);
    }
    if (choice.returnToBox === null || !state.middle.includes(choice.returnToBox)) {
      return violation(CODES.returnNotInMiddle, 'return a marker that is in the middle');
    }
  }
  return [endTurn(state, choice)];
}

function timeout(state: State, now: number): PechvogelEvent[] | RuleViolation {
  const reaction = state.phase === 'react' ? state.turn?.reaction : null;
  if (!reaction || !timed(state.options)) return violation(CODES.noDeadline, 'nothing is waiting on a deadline');
  if (now < reaction.deadline) return violation(CODES.tooEarly, `the reaction window is open until ${reaction.deadline}`);
  return settle(push({ state, events: [] }, { type: 'ReactionClosed', timedOut: true }));
}

const PHASE_OF = {
  throw: 'throw',
  chooseTarget: 'chooseTarget',
  reduce: 'react',
  frustrate: 'react',
  pass: 'react',
  takeFromMiddle: 'claim',
  steal: 'claim',
} as const;

export function decide(
  state: State,
  command: PechvogelCommand,
  ctx: DecideContext,
): PechvogelEvent[] | RuleViolation {
  if (state.phase === 'over' || state.turn === null) return violation(CODES.gameOver, 'the game is over');
  const turn = state.turn;
  if (command.type === 'timeout') {
    return ctx.actor.kind === 'system' ? timeout(state, ctx.now) : violation(CODES.wrongActor, 'only the system sends timeout');
  }
  if (ctx.actor.kind !== 'seat') return violation(CODES.wrongActor, `${command.type} is a seat command`);
  const seat = ctx.actor.seat;
  if (!Number.isInteger(seat) || seat < 0 || seat >= state.seats) return violation(CODES.unknownSeat, `no seat ${seat}`);
  if (state.phase !== PHASE_OF[command.type]) {
    return violation(CODES.wrongPhase, `${command.type} is not possible now (phase ${state.phase})`);
  }
  const isActive = seat === turn.seat;
  switch (command.type) {
    case 'reduce':
    case 'frustrate':
    case 'pass':
      return react(state, turn, seat, command.type, ctx.now);
    default:
      if (!isActive) return violation(CODES.notYourTurn, `it is seat ${turn.seat}'s turn`);
  }
  switch (command.type) {
    case 'throw':
      return throwDice(state, turn, ctx);
    case 'chooseTarget':
      if (!turn.last?.faces.includes(command.target)) {
        return violation(CODES.targetNotRolled, `no ${command.target} on the first throw`);
      }
      return settle(push({ state, events: [] }, { type: 'TargetChosen', seat, target: command.target }));
    case 'takeFromMiddle':
      return claim(state, turn, { from: null, returnToBox: null });
    case 'steal':
      return claim(state, turn, { from: command.from, returnToBox: command.returnToBox });
  }
}
