// Folds one event into the state. Pure and total: every number comes from the event.
import type { PechvogelEvent, TurnEnded, DiceThrown } from './events.ts';
import {
  newTurn,
  phaseAfterStand,
  turnOf,
  without,
  type PlayerState,
  type State,
  type Turn,
} from './state.ts';
import { isNumber, RAVEN, type DieNumber } from './vocabulary.ts';

const count = (faces: readonly unknown[], face: unknown): number => faces.filter((f) => f === face).length;

const withPlayer = (state: State, seat: number, change: (p: PlayerState) => PlayerState): State => ({
  ...state,
  players: state.players.map((p, s) => (s === seat ? change(p) : p)),
});

const frustrationsBy = (delta: number) => (p: PlayerState): PlayerState => ({
  ...p,
  frustrations: p.frustrations + delta,
});

/** "Rerolling the last throw": the dice that throw put on the board come back, so
 * the same number of dice is thrown again. */
const takeBackLastThrow = (turn: Turn): Turn => ({
  ...turn,
  targetsOnBoard: turn.targetsOnBoard - (turn.last?.targets ?? 0),
  ravensOnBoard: turn.ravensOnBoard - (turn.last?.ravens ?? 0),
  remaining: turn.last?.dice ?? turn.remaining,
  last: null,
  rerollDue: true,
  reaction: null,
});

function thrown(state: State, event: DiceThrown): State {
  let turn = turnOf(state);
  const ravens = count(event.faces, RAVEN);
  // On the first throw the target is not chosen yet: TargetChosen moves those dice.
  const targets = turn.target === null ? 0 : count(event.faces, turn.target);
  turn = {
    ...turn,
    throws: turn.throws + 1,
    targetsOnBoard: turn.targetsOnBoard + targets,
    ravensOnBoard: turn.ravensOnBoard + ravens,
    remaining: event.faces.length - targets - ravens,
    last: { dice: event.faces.length, faces: event.faces, targets, ravens },
    rerollDue: false,
    reaction: event.reactionDeadline === null ? null : { deadline: event.reactionDeadline, passed: [], joining: false },
  };
  const firstWithNumber = turn.target === null && event.faces.some(isNumber);
  const phase = firstWithNumber ? 'chooseTarget' : turn.reaction ? 'react' : phaseAfterStand(state, turn);
  return { ...state, turn, phase };
}

function targetChosen(state: State, target: DieNumber): State {
  const turn = turnOf(state);
  const last = turn.last!;
  const targets = count(last.faces, target);
  const next: Turn = {
    ...turn,
    target,
    targetsOnBoard: targets,
    remaining: turn.remaining - targets,
    last: { ...last, targets },
  };
  return { ...state, turn: next, phase: phaseAfterStand(state, next) };
}

function turnEnded(state: State, event: TurnEnded): State {
  const turn = turnOf(state);
  let next: State = state;
  if (event.marker !== null) {
    const { value, from } = event.marker;
    next =
      from === null
        ? { ...next, middle: without(next.middle, value) }
        : withPlayer(next, from, (p) => ({ ...p, markers: without(p.markers, value) }));
    next = withPlayer(next, event.seat, (p) => ({ ...p, markers: [...p.markers, value] }));
  }
  if (event.boxed !== null) next = { ...next, middle: without(next.middle, event.boxed), box: [...next.box, event.boxed] };
  if (event.murphy) next = { ...next, murphy: event.seat };
  const taken = event.frustrationsTaken.fromBoard + event.frustrationsTaken.fromSupply;
  next = withPlayer(next, event.seat, frustrationsBy(taken));
  for (const { seat, fromPlayer } of event.repaid) {
    next = withPlayer(next, seat, frustrationsBy(2));
    if (fromPlayer) next = withPlayer(next, turn.seat, frustrationsBy(-1));
  }
  return event.nextSeat === null
    ? { ...next, turn: null, phase: 'over' }
    : { ...next, turn: newTurn(event.nextSeat), phase: 'throw' };
}

export function evolve(state: State, event: PechvogelEvent): State {
  switch (event.type) {
    case 'TurnStarted':
      return { ...state, turn: newTurn(event.seat), phase: 'throw' };
    case 'DiceThrown':
      return thrown(state, event);
    case 'TargetChosen':
      return targetChosen(state, event.target);
    case 'Passed': {
      const turn = turnOf(state);
      const reaction = turn.reaction!;
      return { ...state, turn: { ...turn, reaction: { ...reaction, passed: [...reaction.passed, event.seat] } } };
    }
    case 'FrustrationReduced': {
      const turn = turnOf(state);
      const next = withPlayer(state, event.seat, frustrationsBy(-1));
      return { ...next, turn: takeBackLastThrow({ ...turn, reduced: true }), phase: 'throw' };
    }
    case 'FrustrationStarted':
    case 'FrustrationJoined': {
      const turn = turnOf(state);
      const next = withPlayer(state, event.seat, frustrationsBy(-1));
      const reaction =
        event.type === 'FrustrationStarted'
          ? { deadline: event.joinDeadline, passed: [], joining: true }
          : turn.reaction;
      return { ...next, turn: { ...turn, frustraters: [...turn.frustraters, event.seat], reaction } };
    }
    case 'ReactionClosed': {
      const turn = turnOf(state);
      if (turn.reaction?.joining) {
        return { ...state, turn: takeBackLastThrow(turn), phase: 'throw' };
      }
      const next = { ...turn, reaction: null };
      return { ...state, turn: next, phase: phaseAfterStand(state, next) };
    }
    case 'TurnEnded':
      return turnEnded(state, event);
  }
}
