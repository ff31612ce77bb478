// The rulebook's worked examples, played exactly with supplied dice.
import t from 'tap';
import { fold } from '../../../src/domain/contract.ts';
import { pechvogel } from '../../../src/domain/pechvogel/index.ts';
import { score, scoreParts } from '../../../src/domain/pechvogel/scoring.ts';
import { frustrations, lastEvents, markers, newGame, play, R, ravenTurn, markerTurn } from './helpers.ts';

t.test('Umberto: target seven, two sevens and two ravens, then one six and two sevens: a seven marker', async (t) => {
  const UMBERTO = 0;
  const THEA = 1;
  let g = newGame(3);
  g = play(g, UMBERTO, { type: 'throw' }, [7, 7, R, R, 3, 4, 5]);
  g = play(g, UMBERTO, { type: 'chooseTarget', target: 7 });
  t.equal(g.state.turn!.remaining, 3, 'rolls again with the three remaining dice');
  const before = g;
  g = play(g, UMBERTO, { type: 'throw' }, [6, 7, 7]);
  // Nobody holds a frustration yet, so no reaction window opens ("Nobody uses a frustration").
  t.same(lastEvents(before, g), [
    { type: 'DiceThrown', seat: UMBERTO, faces: [6, 7, 7], reroll: false, reactionDeadline: null },
    {
      type: 'TurnEnded',
      seat: UMBERTO,
      marker: { value: 7, from: null },
      boxed: null,
      murphy: false,
      frustrationsTaken: { fromBoard: 0, fromSupply: 0 },
      repaid: [],
      nextSeat: THEA,
    },
  ]);
  t.same(markers(g), [[7], [], []]);
  t.equal(g.state.turn!.seat, THEA, 'passes the dice to his neighbour Thea');
});

t.test('Thea: three ravens on her first throw: a frustration from the supply', async (t) => {
  const THEA = 1;
  let g = markerTurn(newGame(3), 7); // Umberto's turn
  g = play(g, THEA, { type: 'throw' }, [R, R, R, 3, 4, 5, 6]);
  g = play(g, THEA, { type: 'chooseTarget', target: 5 });
  const ended = g.events.at(-1)!;
  t.match(ended, { type: 'TurnEnded', seat: THEA, marker: null, frustrationsTaken: { fromBoard: 0, fromSupply: 1 }, nextSeat: 2 });
  t.same(frustrations(g), [0, 1, 0]);
});

t.test('Kelly, Diego and Finn: frustrated, reroll, reduce, greedy five sixes, frustraters repaid', async (t) => {
  const [KELLY, DIEGO, FINN] = [0, 1, 2];
  // Given: Kelly holds two frustrations, Diego and Finn one each, and it is Kelly's turn.
  let g = newGame(3);
  g = ravenTurn(g); // Kelly
  g = ravenTurn(g); // Diego
  g = ravenTurn(g); // Finn
  g = ravenTurn(g); // Kelly
  g = markerTurn(g, 3); // Diego
  g = markerTurn(g, 4); // Finn
  t.same(frustrations(g), [2, 1, 1]);

  g = play(g, KELLY, { type: 'throw' }, [6, 6, R, 3, 4, 5, 7]);
  g = play(g, KELLY, { type: 'chooseTarget', target: 6 });
  g = play(g, KELLY, { type: 'throw' }, [R, 3, 4, 5]);
  for (const seat of [KELLY, DIEGO, FINN]) g = play(g, seat, { type: 'pass' });
  // "Kelly has two sixes on the board and throws two more."
  g = play(g, KELLY, { type: 'throw' }, [6, 6, 3]);
  t.equal(g.state.turn!.targetsOnBoard, 4);
  g = play(g, DIEGO, { type: 'frustrate' });
  t.same(g.state.turn!.frustraters, [DIEGO]);
  const beforeJoin = g;
  g = play(g, FINN, { type: 'frustrate' });
  t.same(lastEvents(beforeJoin, g), [
    { type: 'FrustrationJoined', seat: FINN },
    { type: 'ReactionClosed', timedOut: false },
  ]);
  t.equal(g.state.phase, 'throw', 'Kelly has to reroll her last throw');
  t.equal(g.state.turn!.targetsOnBoard, 2, 'the two sixes of that throw came back');
  g = play(g, KELLY, { type: 'throw' }, [R, 3, 4]);
  t.equal(g.state.turn!.ravensOnBoard, 3, 'Kelly throws a third raven');
  t.same(pechvogel.pending(g.state).seats, [KELLY], 'she was frustrated already: only she may reroll now');
  g = play(g, KELLY, { type: 'reduce' });
  const beforeSixes = g;
  g = play(g, KELLY, { type: 'throw' }, [6, 6, 6]);
  t.same(lastEvents(beforeSixes, g), [
    { type: 'DiceThrown', seat: KELLY, faces: [6, 6, 6], reroll: true, reactionDeadline: null },
    {
      type: 'TurnEnded',
      seat: KELLY,
      marker: { value: 6, from: null },
      boxed: null,
      murphy: true,
      frustrationsTaken: { fromBoard: 0, fromSupply: 0 },
      repaid: [
        { seat: DIEGO, fromPlayer: true },
        { seat: FINN, fromPlayer: false },
      ],
      nextSeat: DIEGO,
    },
  ]);
  t.equal(g.state.murphy, KELLY);
  t.same(frustrations(g), [0, 2, 2], 'Diego gets her last one, Finn one from the supply');
  t.same(markers(g), [[6], [3], [4]]);
  t.same(fold(pechvogel, g.setup, g.events), g.state, 'folding the log gives the same state');
});

t.test("Carmen's scoring: 20 points of markers, three frustrations and Murphy: −1", async (t) => {
  t.equal(score({ markers: [7, 7, 6], frustrations: 3 }, true), -1);
  // "(+20, 3 x -7 = -21, total -1.)"
  t.same(scoreParts({ markers: [7, 7, 6], frustrations: 3 }, true), [
    { label: 'score marker', count: 3, points: 20 },
    { label: 'frustration with Murphy', count: 3, points: -21 },
  ]);
  t.same(scoreParts({ markers: [7, 7, 6], frustrations: 3 }, false)[1], { label: 'frustration', count: 3, points: -9 }, 'without Murphy: −3 each');
  t.equal(score({ markers: [7, 7, 6], frustrations: 3 }, false), 11, 'without Murphy each is −3');
});
