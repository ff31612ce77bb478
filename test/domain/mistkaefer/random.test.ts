// Complete random games: uniform choices among the legal commands, server chance.
import t from 'tap';
import { serverChance } from '../../../src/domain/chance.ts';
import { fold, isViolation } from '../../../src/domain/contract.ts';
import type { Event } from '../../../src/domain/mistkaefer/index.ts';
import { mistkaefer } from '../../../src/domain/mistkaefer/index.ts';
import { setupFor } from './given.ts';

const maxSteps = 20000;

for (const seats of [2, 3, 4]) {
  for (const seed of ['alpha', 'beta', 'gamma']) {
    t.test(`${seats} players, seed ${seed}: plays to a winner`, async (t) => {
      let now = 0;
      let state = mistkaefer.initialState(setupFor(seats));
      const log: Event[] = mistkaefer.setup(state, { now, chance: serverChance(seed, 0) });
      state = log.reduce(mistkaefer.evolve, state);
      const pick = serverChance(`pick:${seed}`, seats);
      for (let i = 1; i < maxSteps && mistkaefer.result(state) === null; i++) {
        // Mistkäfer sets no deadlines: someone must always be able to act.
        const [seat] = mistkaefer.pending(state).seats;
        if (seat === undefined) break;
        const legal = mistkaefer.legalCommands(state, seat);
        const [command] = pick.draw(legal, 1);
        now += 1000;
        const events = mistkaefer.decide(state, command!, { actor: { kind: 'seat', seat }, now, chance: serverChance(seed, i) });
        if (isViolation(events)) {
          t.fail(`legal command refused: ${JSON.stringify(command)} → ${events.code}`);
          return;
        }
        log.push(...events);
        state = events.reduce(mistkaefer.evolve, state);
      }
      const result = mistkaefer.result(state);
      t.ok(result, `ended after ${log.length} events`);
      t.equal(result?.winners.length, 1);
      t.same(fold(mistkaefer, setupFor(seats), log), state, 'folding the log gives the same state');
      t.ok(log.every((e) => mistkaefer.eventSchema.safeParse(e).success), 'every event fits the schema');
      const diceTotal = Object.values(state.dice).reduce((a, b) => a + b, 0) +
        state.tableaus.reduce((n, tb) => n + tb.green.length + tb.yellow.length + tb.blue.length, 0);
      t.equal(diceTotal, 3 * ({ 2: 6, 3: 8, 4: 9 } as Record<number, number>)[seats]!, 'no die is lost or made');
      const spectator = log.map((e) => mistkaefer.redact(e, { kind: 'spectator' }, state));
      t.notOk(JSON.stringify(spectator).match(/"chips?":"|"chips":\[/), 'a spectator never learns a chip kind');
    });
  }
}
