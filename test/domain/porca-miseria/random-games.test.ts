// Complete random games: every pending seat's legal commands chosen uniformly, server
// chance, and a fake clock that jumps to the deadline now and then (always when nobody
// is pending) to send the scheduler's timeout.
import t from 'tap';
import { serverChance } from '../../../src/domain/chance.ts';
import { fold, isViolation, type DecideContext } from '../../../src/domain/contract.ts';
import { porcaMiseria, type PorcaCommand, type PorcaEvent } from '../../../src/domain/porca-miseria/index.ts';
import { optionsSchema } from '../../../src/domain/porca-miseria/options.ts';
import { T0 } from './given.ts';

function play(seats: number, seed: string, expert: boolean) {
  const setup = { options: optionsSchema.parse({ expert }), seats };
  const bot = serverChance(`${seed}:bot`, 0);
  const pick = (n: number): number => bot.roll([...Array(n).keys()], 1)[0]!;
  const events: PorcaEvent[] = [...porcaMiseria.setup(porcaMiseria.initialState(setup), { now: T0, chance: serverChance(seed, 0) })];
  let state = fold(porcaMiseria, setup, events);
  let now = T0;
  for (let i = 1; porcaMiseria.result(state) === null; i++) {
    if (i > 200_000) throw new Error('the game did not end');
    const { seats: pendingSeats, deadline = now } = porcaMiseria.pending(state);
    const moves = pendingSeats.flatMap((seat) => porcaMiseria.legalCommands(state, seat).map((command) => ({ seat, command })));
    now += 1 + pick(300);
    let ctx: DecideContext;
    let command: PorcaCommand;
    const move = moves[pick(moves.length + 1)];
    if (move === undefined || now >= deadline) {
      now = Math.max(now, deadline);
      ctx = { actor: { kind: 'system' }, now, chance: serverChance(seed, i) };
      command = { type: 'timeout' };
    } else {
      ctx = { actor: { kind: 'seat', seat: move.seat }, now, chance: serverChance(seed, i) };
      command = move.command;
    }
    const answer = porcaMiseria.decide(state, command, ctx);
    if (isViolation(answer)) throw new Error(`${JSON.stringify(command)} refused: ${answer.code}`);
    if (answer.length === 0) throw new Error(`${JSON.stringify(command)} gave no events`);
    events.push(...answer);
    state = answer.reduce(porcaMiseria.evolve, state);
  }
  return { setup, events, state };
}

for (const seats of [3, 4, 6, 8]) {
  for (const seed of ['alpha', 'beta']) {
    t.test(`a random game with ${seats} players (seed ${seed}) ends with a result`, async (t) => {
      const { setup, events, state } = play(seats, seed, seed === 'beta');
      const result = porcaMiseria.result(state);
      t.ok(result);
      // The loop above stops only at a result; what ended it must be the rules' GameEnded.
      t.equal(state.phase, 'over', 'the game ended by its rules');
      t.equal(events.filter((e) => e.type === 'GameEnded').length, 1, 'with one GameEnded, the last event');
      t.equal(events.at(-1)?.type, 'GameEnded');
      t.same(fold(porcaMiseria, setup, events), state, 'folding the events gives the same state');
      t.ok(events.every((e) => porcaMiseria.eventSchema.safeParse(e).success), 'every event validates');
      const cards = state.stack.length + state.jackpot.length + state.winnings.flat().length + (state.card ? 1 : 0);
      t.equal(cards, 63, 'no card is lost or doubled');
      t.same(result?.scores, state.winnings.map((w, s) => w.length + state.compensation[s]!.length));
    });
  }
}
