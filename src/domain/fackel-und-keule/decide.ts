// decide: checks a command against the rules and answers with events or a violation.
import type { Chance } from '../chance.ts';
import type { DecideContext, RuleViolation, Seat } from '../contract.ts';
import { violation } from '../contract.ts';
import { codes } from './codes.ts';
import type { Command, CommandOf, GameCommand } from './commands.ts';
import { commitmentOf } from './commitment.ts';
import type { Event } from './events.ts';
import { afterDiscard, continueSharing, emit, endRound, settleHunt, surplusOf, takeSize, type Step } from './flow.ts';
import { legalCommands, pending } from './legal.ts';
import type { State } from './state.ts';
import { PREY_KINDS, tableFor, type ChipKind, type PreyKind } from './vocabulary.ts';

type Outcome = Event[] | RuleViolation;

const isPrey = (chip: ChipKind): chip is PreyKind => chip !== 'skull';
/** A checked command's events with the state they lead to, which `withDeadline` reads. */
type Stepped = Step | RuleViolation;

const isStep = (out: Stepped): out is Step => 'events' in out;

/** The cards must be distinct and all in the hand. */
const checkOwnCards = (hand: readonly number[], cards: readonly number[]): RuleViolation | null => {
  if (new Set(cards).size !== cards.length) return violation(codes.duplicateCard, 'a card is named twice');
  const missing = cards.find((c) => !hand.includes(c));
  return missing === undefined ? null : violation(codes.notInHand, `card ${missing} is not in your hand`);
};

const choose = (start: Step, seat: Seat, command: CommandOf<'choose'>, ctx: DecideContext): Stepped => {
  const { state } = start;
  const { phase } = state;
  if (phase.name !== 'choosing') return violation(codes.wrongPhase, 'cards are chosen only at the start of a round');
  if (phase.choices[seat] !== null) return violation(codes.alreadyChosen, 'your choice for this round is final');
  const { maxPlay } = tableFor(state.seats);
  if (command.cards.length < 1 || command.cards.length > maxPlay) {
    return violation(codes.playCount, `play 1 to ${maxPlay} cards`);
  }
  const bad = checkOwnCards(state.hands[seat]!, command.cards);
  if (bad) return bad;
  const cards = [...command.cards].sort((a, b) => a - b);
  const salt = ctx.chance.secret();
  let step = emit(start, { type: 'CardsChosen', seat, commitment: commitmentOf(salt, cards), cards, salt });
  const choices = step.state.phase.name === 'choosing' ? step.state.phase.choices : [];
  if (choices.some((c) => c === null)) return step;
  step = emit(step, {
    type: 'CardsRevealed',
    choices: choices.map((c, s) => ({ seat: s, cards: [...c!.cards], salt: c!.salt })),
  });
  return settleHunt(step, ctx.chance);
};

const takePrey = (start: Step, seat: Seat, command: CommandOf<'takePrey'>, ctx: DecideContext): Stepped => {
  const { phase } = start.state;
  if (phase.name !== 'sharing') return violation(codes.wrongPhase, 'no prey is being shared');
  if (phase.takers[phase.takes % phase.takers.length] !== seat) return violation(codes.notYourTurn, 'another player takes prey now');
  const size = takeSize(phase.takes, phase.pool);
  if (command.chips.length !== size) return violation(codes.takeCount, `take exactly ${size} chip(s)`);
  const chips = command.chips.filter(isPrey);
  if (chips.length < command.chips.length) return violation(codes.preyUnavailable, 'an animal yields no skulls');
  if (PREY_KINDS.some((k) => chips.filter((c) => c === k).length > phase.pool[k])) {
    return violation(codes.preyUnavailable, 'those chips are not left on the animal');
  }
  const step = emit(start, { type: 'PreyTaken', seat, chips, automatic: false });
  return continueSharing(step, ctx.chance);
};

const rob = (start: Step, seat: Seat, command: CommandOf<'rob'>, ctx: DecideContext): Stepped => {
  const { state } = start;
  const { phase } = state;
  if (phase.name !== 'robbing') return violation(codes.wrongPhase, 'there is no fight to settle');
  if (phase.winner !== seat) return violation(codes.notYourTurn, 'only the fight winner takes a chip');
  if (!phase.losers.includes(command.from)) return violation(codes.notALoser, 'rob one of the players with the fewest clubs');
  const { chip } = command;
  if (typeof chip !== 'string') return violation(codes.robCount, 'rob exactly one chip, named as a single kind');
  if (chip === 'skull') return violation(codes.skullNotRobbable, 'skulls cannot be robbed');
  if (state.chips[command.from]![chip] < 1) return violation(codes.chipUnavailable, `that player has no ${chip}`);
  const step = emit(start, { type: 'ChipRobbed', winner: seat, from: command.from, chip });
  return endRound(step, ctx.chance);
};

const discard = (start: Step, seat: Seat, command: CommandOf<'discard'>, ctx: DecideContext): Stepped => {
  const { state } = start;
  if (state.phase.name !== 'discarding') return violation(codes.wrongPhase, 'discarding happens only after drawing');
  const surplus = surplusOf(state, seat);
  if (surplus === 0) return violation(codes.notYourTurn, 'you are within the hand limit');
  if (command.cards.length !== surplus) return violation(codes.discardCount, `discard exactly ${surplus} card(s)`);
  const bad = checkOwnCards(state.hands[seat]!, command.cards);
  if (bad) return bad;
  const cards = [...command.cards].sort((a, b) => a - b);
  const step = emit(start, { type: 'SurplusDiscarded', seat, count: cards.length, cards });
  return afterDiscard(step, ctx.chance);
};

/** A seat's command, played on after `start`'s events: none, or the table's TimedOut. */
const play = (start: Step, seat: Seat, command: Command, ctx: DecideContext): Stepped => {
  switch (command.type) {
    case 'choose':
      return choose(start, seat, command, ctx);
    case 'takePrey':
      return takePrey(start, seat, command, ctx);
    case 'rob':
      return rob(start, seat, command, ctx);
    case 'discard':
      return discard(start, seat, command, ctx);
    default: {
      const unknown: never = command;
      return violation(codes.wrongPhase, `unknown command ${JSON.stringify(unknown)}`);
    }
  }
};

/** What the table sends for a seat that let its time run out, the way a tournament
 * director would: choices and discards at random (through chance, so a referee can
 * supply them), takes and robs by the first legal command (kinds in the order teeth,
 * fur, meat; losers in seat order). */
const tableCommand = (state: State, seat: Seat, chance: Chance): Command => {
  switch (state.phase.name) {
    case 'choosing':
      // Hands are never empty while choosing: at most 5 × 5 of the 46 cards are held,
      // so every draw refills them.
      return { type: 'choose', cards: chance.draw(state.hands[seat]!, 1, 'hand-card') };
    case 'discarding':
      return { type: 'discard', cards: chance.draw(state.hands[seat]!, surplusOf(state, seat), 'hand-card') };
    default:
      // Sharing or robbing, the other phases with a deadline (dealing and ended wait for
      // nobody): one seat is waited for, and only while it has a choice, since
      // continueSharing takes for a taker without one and settleHunt skips a fight
      // with nobody to rob. So its first legal command exists.
      return legalCommands(state, seat)[0]!;
  }
};

/** The table plays every pending seat's command in seat order, through the same checks
 * and steps as a seat's own: a timed-out choice is committed and revealed as usual. */
const timeout = (state: State, ctx: DecideContext): Stepped => {
  const { seats, deadline } = pending(state);
  if (deadline === undefined) return violation(codes.noDeadline, 'no deadline is running');
  if (ctx.now < deadline) return violation(codes.tooEarly, `the deadline is ${deadline}`);
  let step = emit({ state, events: [] }, { type: 'TimedOut', seats: [...seats] });
  for (const seat of seats) {
    const out = play(step, seat, tableCommand(step.state, seat, ctx.chance), ctx);
    if (!isStep(out)) return out;
    step = out;
  }
  return step;
};

/** With a time limit, a phase or turn that has just begun (its deadline cleared by the
 * event that began it) gets `now + turnSeconds`: the moment is written down, so folding
 * never needs a clock. The step already holds the state after its events (no refold). */
export const withDeadline = ({ state: after, events }: Step, now: number): Event[] =>
  after.turnMs > 0 && after.deadline === null && pending(after).seats.length > 0
    ? [...events, { type: 'DeadlineSet', deadline: now + after.turnMs }]
    : [...events];

export function decide(state: State, command: GameCommand, ctx: DecideContext): Outcome {
  const out = decideNow(state, command, ctx);
  return isStep(out) ? withDeadline(out, ctx.now) : out;
}

function decideNow(state: State, command: GameCommand, ctx: DecideContext): Stepped {
  if (state.phase.name === 'ended') return violation(codes.gameOver, 'the game is over');
  if (ctx.actor.kind !== 'seat') {
    return command.type === 'timeout' ? timeout(state, ctx) : violation(codes.notASeat, 'only seats play Fackel+Keule');
  }
  if (command.type === 'timeout') return violation(codes.systemOnly, 'only the system sends timeout');
  const { seat } = ctx.actor;
  if (!Number.isInteger(seat) || seat < 0 || seat >= state.seats) return violation(codes.notASeat, `no seat ${seat}`);
  // At the deadline the table has taken over; a late command would race the timeout.
  if (state.deadline !== null && ctx.now >= state.deadline) {
    return violation(codes.tooLate, `the deadline ${state.deadline} has passed`);
  }
  return play({ state, events: [] }, seat, command, ctx);
}
