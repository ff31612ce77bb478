// legalCommands is exact: what it lists decide accepts, and what it leaves out decide
// refuses; pending lists exactly the seats with something to do.
import t from 'tap';
import { serverChance } from '../../../src/domain/chance.ts';
import { isViolation } from '../../../src/domain/contract.ts';
import { pechvogel, type PechvogelCommand } from '../../../src/domain/pechvogel/index.ts';
import { NUMBERS } from '../../../src/domain/pechvogel/vocabulary.ts';
import { markerTurn, newGame, NOW, play, sixesUnderWay, type Game } from './helpers.ts';

const everyCommand = (seats: number): PechvogelCommand[] => [
  { type: 'throw' },
  ...NUMBERS.map((target) => ({ type: 'chooseTarget', target }) as const),
  { type: 'reduce' },
  { type: 'frustrate' },
  { type: 'pass' },
  { type: 'takeFromMiddle' },
  ...Array.from({ length: seats }, (_, from) =>
    NUMBERS.map((returnToBox) => ({ type: 'steal', from, returnToBox }) as const),
  ).flat(),
];

const states: [string, Game][] = [
  ['start of a turn', newGame(3)],
  ['choosing the target', play(newGame(3), 0, { type: 'throw' }, [3, 5, 5, 'raven', 7, 7, 4])],
  ['reaction window', play(sixesUnderWay([1, 1, 0]), 0, { type: 'throw' }, [6, 3, 4, 5])],
  ['joining a frustration', play(play(sixesUnderWay([1, 1, 1]), 0, { type: 'throw' }, [6, 3, 4, 5]), 2, { type: 'frustrate' })],
  ['claiming a marker', (() => {
    const g = markerTurn(newGame(2), 7);
    return play(play(g, 1, { type: 'throw' }, [7, 7, 7, 7, 3, 3, 3]), 1, { type: 'chooseTarget', target: 7 });
  })()],
];

for (const [name, game] of states) {
  t.test(`legal commands are exactly the accepted ones: ${name}`, async (t) => {
    const { state } = game;
    for (let seat = 0; seat < state.seats; seat++) {
      const legal = pechvogel.legalCommands(state, seat);
      for (const command of everyCommand(state.seats)) {
        const answer = pechvogel.decide(state, command, {
          actor: { kind: 'seat', seat },
          now: NOW,
          chance: serverChance('legal', 0),
        });
        const listed = legal.some((c) => JSON.stringify(c) === JSON.stringify(command));
        t.equal(!isViolation(answer), listed, `seat ${seat} ${JSON.stringify(command)}`);
      }
    }
    const withCommands = Array.from({ length: state.seats }, (_, s) => s).filter(
      (s) => pechvogel.legalCommands(state, s).length > 0,
    );
    t.same(pechvogel.pending(state).seats, withCommands);
  });
}
