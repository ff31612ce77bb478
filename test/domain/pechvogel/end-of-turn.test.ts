// "End of the Turn" and "Special Cases": markers from the middle or stolen, nothing
// left, three ravens, both at once, greed and Murphy.
import t from 'tap';
import { pechvogel } from '../../../src/domain/pechvogel/index.ts';
import {
  active,
  attempt,
  codeOf,
  frustrations,
  lastEvents,
  markers,
  markerTurn,
  newGame,
  NOW,
  play,
  R,
  ravenTurn,
  sixesUnderWay,
  type Game,
} from './helpers.ts';

/** Seat 0 collects four sevens on its first throw; returns the game at the claim. */
const fourSevens = (g: Game): Game =>
  play(play(g, active(g), { type: 'throw' }, [7, 7, 7, 7, 3, 4, 5]), active(g), { type: 'chooseTarget', target: 7 });

t.test('with no one to steal from, the marker comes from the middle by itself', async (t) => {
  const g = fourSevens(newGame(2));
  t.match(g.events.at(-1), { type: 'TurnEnded', marker: { value: 7, from: null }, boxed: null });
  t.equal(g.state.middle.filter((v) => v === 7).length, 2);
});

t.test('when an opponent holds the number, the player chooses: middle or steal', async (t) => {
  let g = markerTurn(newGame(2), 7); // seat 0 holds a seven
  g = fourSevens(g); // seat 1
  t.equal(g.state.phase, 'claim');
  t.same(pechvogel.pending(g.state), { seats: [1] });
  const legal = pechvogel.legalCommands(g.state, 1);
  t.same(legal[0], { type: 'takeFromMiddle' });
  t.same(
    legal.slice(1),
    [3, 4, 5, 6, 7].map((returnToBox) => ({ type: 'steal', from: 0, returnToBox })),
    'steal from seat 0, boxing any marker of the middle',
  );
  t.equal(codeOf(attempt(g, 0, { type: 'takeFromMiddle' })), 'pechvogel/not-your-turn');
  t.equal(codeOf(attempt(g, 1, { type: 'steal', from: 1, returnToBox: 3 })), 'pechvogel/nothing-to-steal', 'not from yourself');

  const fromMiddle = play(g, 1, { type: 'takeFromMiddle' });
  t.same(markers(fromMiddle), [[7], [7]]);

  const stolen = play(g, 1, { type: 'steal', from: 0, returnToBox: 4 });
  t.match(stolen.events.at(-1), { type: 'TurnEnded', marker: { value: 7, from: 0 }, boxed: 4 });
  t.same(markers(stolen), [[], [7]]);
  t.same(stolen.state.box, [4]);
  t.equal(stolen.state.middle.length, 13, '15 minus the seven seat 0 took, minus the boxed four');
});

t.test('stealing needs a marker from the middle to box, and an opponent holding the number', async (t) => {
  let g = markerTurn(newGame(3), 7); // seat 0
  g = markerTurn(g, 7); // seat 1 (from the middle)
  g = ravenTurn(g); // seat 2
  g = markerTurn(g, 7); // seat 0: the last seven leaves the middle
  g = ravenTurn(g); // seat 1
  g = fourSevens(g); // seat 2
  t.notOk(g.state.middle.includes(7));
  t.equal(codeOf(attempt(g, 2, { type: 'takeFromMiddle' })), 'pechvogel/not-in-middle');
  t.equal(codeOf(attempt(g, 2, { type: 'steal', from: 0, returnToBox: 7 })), 'pechvogel/return-not-in-middle');
  t.same(
    pechvogel.legalCommands(g.state, 2).map((c) => c.type === 'steal' && c.from),
    [0, 0, 0, 0, 1, 1, 1, 1],
    'only stealing is offered: from seat 0 or 1, boxing a three, four, five or six',
  );
  const stolen = play(g, 2, { type: 'steal', from: 1, returnToBox: 3 });
  t.same(markers(stolen), [[7, 7], [], [7]]);
});

t.test('four of a number with no marker left anywhere: nothing', async (t) => {
  let g = newGame(2);
  for (let i = 0; i < 3; i++) g = ravenTurn(markerTurn(g, 3)); // seat 0 takes every three
  t.same(markers(g), [[3, 3, 3], []]);
  g = play(play(g, 0, { type: 'throw' }, [3, 3, 3, 3, 4, 5, 6]), 0, { type: 'chooseTarget', target: 3 });
  t.match(g.events.at(-1), { type: 'TurnEnded', marker: null, murphy: false, nextSeat: 1 });
  t.same(markers(g), [[3, 3, 3], []], 'own markers are not "anywhere" to take from');
});

t.test('four of the target and three ravens at once: marker and frustration', async (t) => {
  let g = play(newGame(2), 0, { type: 'throw' }, [5, 5, R, R, 3, 4, 6]);
  g = play(g, 0, { type: 'chooseTarget', target: 5 });
  g = play(g, 0, { type: 'throw' }, [5, 5, R]);
  t.match(g.events.at(-1), {
    type: 'TurnEnded',
    marker: { value: 5, from: null },
    murphy: false,
    frustrationsTaken: { fromBoard: 0, fromSupply: 1 },
  });
  t.same(frustrations(g), [1, 0]);
});

t.test('more than four of the target is greedy: the marker and Murphy', async (t) => {
  const g = play(play(newGame(2), 0, { type: 'throw' }, [4, 4, 4, 4, 4, 3, 5]), 0, { type: 'chooseTarget', target: 4 });
  t.match(g.events.at(-1), { type: 'TurnEnded', marker: { value: 4 }, murphy: true });
  t.equal(g.state.murphy, 0);
});

t.test('more than three ravens is greedy: Murphy and a frustration', async (t) => {
  let g = play(newGame(2), 0, { type: 'throw' }, [6, R, R, 3, 4, 5, 7]);
  g = play(g, 0, { type: 'chooseTarget', target: 6 });
  g = play(g, 0, { type: 'throw' }, [R, R, 3, 4]);
  t.match(g.events.at(-1), { type: 'TurnEnded', marker: null, murphy: true, frustrationsTaken: { fromSupply: 1 } });
});

t.test('Murphy moves to whoever last became greedy', async (t) => {
  let g = play(newGame(3), 0, { type: 'throw' }, [R, R, R, R, 3, 4, 5]);
  g = play(g, 0, { type: 'chooseTarget', target: 3 });
  t.equal(g.state.murphy, 0);
  g = ravenTurn(g); // seat 1, not greedy
  t.equal(g.state.murphy, 0, 'three ravens is not greedy');
  g = play(play(g, 2, { type: 'throw' }, [6, 6, 6, 6, 6, 6, 3]), 2, { type: 'chooseTarget', target: 6 });
  t.equal(g.state.murphy, 2);
});

t.test('greedy with no marker left to take still takes Murphy (interpretation)', async (t) => {
  let g = newGame(2);
  for (let i = 0; i < 3; i++) g = ravenTurn(markerTurn(g, 3));
  g = play(play(g, 0, { type: 'throw' }, [3, 3, 3, 3, 3, 4, 5]), 0, { type: 'chooseTarget', target: 3 });
  t.match(g.events.at(-1), { type: 'TurnEnded', marker: null, murphy: true });
});

// docs/games/pechvogel.md, "ending": decide always follows the event that enters it with
// TurnEnded, so only a state folded up to that event (a past version's view) shows it.
t.test('between a standing throw and its TurnEnded the phase is ending: nobody acts, every command is refused', async (t) => {
  const entries: [string, Game, Game][] = [];
  const start = newGame(2);
  const sevenRavens = play(start, 0, { type: 'throw' }, [R, R, R, R, R, R, R]);
  entries.push(['DiceThrown without a window (seven ravens)', start, sevenRavens]);
  const thrown = play(start, 0, { type: 'throw' }, [R, R, R, 3, 4, 5, 6]);
  entries.push(['TargetChosen (three ravens)', thrown, play(thrown, 0, { type: 'chooseTarget', target: 3 })]);
  const window = play(sixesUnderWay([1, 1]), 0, { type: 'throw' }, [6, 6, 3, 4]);
  entries.push(['ReactionClosed, nobody rerolls', window, play(window, 'system', { type: 'timeout' }, [], NOW + 20_000)]);
  for (const [how, before, after] of entries) {
    const played = lastEvents(before, after);
    t.equal(played.at(-1)?.type, 'TurnEnded', `${how}: the same command ends the turn`);
    const ending = played.slice(0, -1).reduce(pechvogel.evolve, before.state);
    t.equal(ending.phase, 'ending', `${how}: enters ending`);
    t.equal(pechvogel.view(ending, { kind: 'spectator' }).phase, 'ending', `${how}: a past version's view shows it`);
    t.same(pechvogel.pending(ending), { seats: [] }, `${how}: nobody is pending, no deadline`);
    const game: Game = { ...after, state: ending };
    for (let seat = 0; seat < ending.seats; seat++) {
      t.same(pechvogel.legalCommands(ending, seat), [], `${how}: nothing is legal for seat ${seat}`);
      for (const command of [
        { type: 'throw' },
        { type: 'chooseTarget', target: 3 },
        { type: 'reduce' },
        { type: 'frustrate' },
        { type: 'pass' },
        { type: 'takeFromMiddle' },
        { type: 'steal', from: 1 - seat, returnToBox: 3 },
      ] as const) {
        t.equal(codeOf(attempt(game, seat, command)), 'pechvogel/wrong-phase', `${how}: seat ${seat} ${command.type}`);
      }
    }
    t.equal(codeOf(attempt(game, 'system', { type: 'timeout' }, [], NOW * 2)), 'pechvogel/no-deadline', `${how}: timeout`);
  }
});
