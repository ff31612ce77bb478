// Whole games played at random to the end: every legal command is accepted, every
// game ends with a result, and folding the log rebuilds the state.
import t from 'tap';
import { serverChance } from '../../../src/domain/chance.ts';
import { fold, isViolation, type Actor } from '../../../src/domain/contract.ts';
import { pechvogel, type PechvogelCommand, type PechvogelEvent } from '../../../src/domain/pechvogel/index.ts';
import { eventSchema } from '../../../src/domain/pechvogel/events.ts';
import { NOW } from './helpers.ts';

function playRandomGame(seed: string, seats: number) {
  const setup = { seats, options: pechvogel.optionsSchema.parse({}) };
  let state = pechvogel.initialState(setup);
  const events: PechvogelEvent[] = pechvogel.setup(state, { now: NOW, chance: serverChance(seed, 0) });
  state = events.reduce(pechvogel.evolve, state);
  const pick = serverChance(`${seed}:choices`, 0);
  let now = NOW;
  for (let i = 1; i < 20_000 && pechvogel.result(state) === null; i++) {
    const { seats: who, deadline } = pechvogel.pending(state);
    const options: { actor: Actor; command: PechvogelCommand }[] = who.flatMap((seat) =>
      pechvogel.legalCommands(state, seat).map((command) => ({ actor: { kind: 'seat', seat } as const, command })),
    );
    // Now and then nobody answers in time and the scheduler closes the window.
    const waitOut = deadline !== undefined && (options.length === 0 || pick.roll([0, 1, 2, 3], 1)[0] === 0);
    if (options.length === 0 && !waitOut) throw new Error(`nobody can act in phase ${state.phase}`);
    if (waitOut) now = deadline;
    const { actor, command } = waitOut
      ? { actor: { kind: 'system' } as const, command: { type: 'timeout' } as const }
      : pick.draw(options, 1)[0]!;
    const answer = pechvogel.decide(state, command, { actor, now, chance: serverChance(seed, i) });
    if (isViolation(answer)) throw new Error(`legal ${JSON.stringify(command)} refused: ${answer.code}`);
    if (answer.length === 0) throw new Error(`${command.type} accepted with no events`);
    for (const e of answer) eventSchema.parse(e);
    events.push(...answer);
    state = answer.reduce(pechvogel.evolve, state);
    now += 1000;
  }
  return { setup, state, events };
}

for (const seats of [2, 3, 4, 5]) {
  t.test(`random games with ${seats} players end with a result and replay exactly`, async (t) => {
    for (const seed of ['a', 'b', 'c', 'd', 'e']) {
      const { setup, state, events } = playRandomGame(`${seed}${seats}`, seats);
      const result = pechvogel.result(state);
      t.ok(result, `seed ${seed}: the game ended`);
      t.equal(state.middle.length, 0, 'no score markers remain in the middle');
      t.same(fold(pechvogel, setup, JSON.parse(JSON.stringify(events))), state, 'fold(events) is the state');
      t.same(pechvogel.pending(state).seats, [], 'nobody may act after the end');
      t.equal(
        state.players.reduce((n, p) => n + p.markers.length, 0) + state.box.length,
        15,
        'every marker is with a player or in the box',
      );
    }
  });
}
