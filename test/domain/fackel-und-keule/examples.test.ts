// The rulebook's two worked examples, played exactly with supplied chance.
// Edition card numbers: torches 1,4,7,…; spears 2,5,8,…; stone-axes 3,6,9,…; clubs 33–46.
import t from 'tap';
import { codes } from '../../../src/domain/fackel-und-keule/index.ts';
import { accept, chooseAll, game, given, opening, reject, applyEvents, types } from './helpers.ts';

t.test('example 1: the wool-rhinoceros is killed and A, C, B share its prey', async (t) => {
  // A: 5 spears incl. #2; B: 1 spear + 2 clubs (+2 kept); C: torch #4 + 4 stone-axes.
  const hands = [[2, 5, 8, 11, 14], [17, 33, 34, 35, 36], [3, 4, 6, 9, 12]];
  let state = given(3, opening(hands, 'wool-rhinoceros'));
  const round = chooseAll(state, [[2, 5, 8, 11, 14], [17, 33, 34], [3, 4, 6, 9, 12]]);
  t.same(types(round.events).slice(-3), ['CardsChosen', 'CardsRevealed', 'HuntSucceeded']);
  const kill = round.events.at(-1)!;
  // A and C have 5 tools each; A goes first by the spear numbered 2; clubs don't count.
  t.same(kill, { type: 'HuntSucceeded', prey: { teeth: 2, fur: 2, meat: 4 }, takers: [0, 2, 1] });
  state = round.state;
  t.same(game.pending(state).seats, [0]);

  t.equal(reject(state, 0, { type: 'takePrey', chips: ['teeth', 'skull'] }).code, codes.preyUnavailable, 'an animal yields no skull: a rule code, not a schema error');
  state = applyEvents(state, accept(state, 0, { type: 'takePrey', chips: ['teeth', 'teeth'] }));
  t.equal(reject(state, 2, { type: 'takePrey', chips: ['fur', 'fur'] }).code, codes.takeCount, 'two chips where one is due');
  state = applyEvents(state, accept(state, 2, { type: 'takePrey', chips: ['fur'] }));
  // B's take leaves only meat: A, C, B, A take it without a choice, then the round ends.
  const drawn = [18, 19, 20, 21, 22, 23, 24, 25, 26];
  const last = accept(state, 1, { type: 'takePrey', chips: ['fur'] }, [...drawn, 'saber-tooth-tiger']);
  t.same(
    last.filter((e) => e.type === 'PreyTaken').map((e) => e.type === 'PreyTaken' && [e.seat, e.chips, e.automatic]),
    [[1, ['fur'], false], [0, ['meat'], true], [2, ['meat'], true], [1, ['meat'], true], [0, ['meat'], true]],
  );
  state = applyEvents(state, last);
  t.same(state.chips, [
    { teeth: 2, fur: 0, meat: 2, skull: 0 },
    { teeth: 0, fur: 1, meat: 1, skull: 0 },
    { teeth: 0, fur: 1, meat: 1, skull: 0 },
  ]);
  t.same(state.hands, [[18, 19, 20], [21, 22, 23, 35, 36], [24, 25, 26]]);
  t.equal(state.animal, 'saber-tooth-tiger');
  t.equal(state.round, 2);
});

t.test('example 2: the saber-tooth tiger escapes; A wins the fight by club 37 and chooses between B and C', async (t) => {
  // Round 1 (wild horse, 3 spears) only gives B and C chips A can take.
  let state = given(3, opening([[1, 7, 37, 38, 20], [10, 3, 40, 41, 23], [2, 5, 43, 44, 26]], 'wild-horse'));
  state = chooseAll(state, [[20], [23], [26]]).state;
  state = applyEvents(state, accept(state, 0, { type: 'takePrey', chips: ['meat', 'meat'] }));
  state = applyEvents(state, accept(state, 1, { type: 'takePrey', chips: ['fur'] }, [39, 46, 31, 42, 35, 36, 45, 14, 17]));
  t.same(state.chips.map((c) => [c.teeth, c.fur, c.meat]), [[0, 0, 2], [0, 1, 0], [1, 0, 0]], 'C got the last tooth');
  state = applyEvents(state, accept(state, 0, { type: 'discard', cards: [46] }));
  state = applyEvents(state, accept(state, 1, { type: 'discard', cards: [36] }));
  state = applyEvents(state, accept(state, 2, { type: 'discard', cards: [17] }, ['saber-tooth-tiger']));
  t.equal(state.animal, 'saber-tooth-tiger');

  // 3 torches, 1 stone-ax, 2 spears and 9 clubs; everyone played 3 clubs.
  const fight = chooseAll(state, [[1, 7, 37, 38, 39], [3, 10, 40, 41, 42], [2, 5, 43, 44, 45]]);
  t.same(fight.events.slice(-2), [
    { type: 'HuntFailed', reason: 'missing-tools', fight: true },
    { type: 'FightWon', winner: 0, skull: true, losers: [1, 2] },
  ]);
  state = fight.state;
  t.same(state.chips[0]!.skull, 1, 'A gets a skull');
  t.same(game.pending(state).seats, [0]);
  t.same(game.legalCommands(state, 0), [
    { type: 'rob', from: 1, chip: 'fur' },
    { type: 'rob', from: 2, chip: 'teeth' },
  ]);
  const robbed = accept(state, 0, { type: 'rob', from: 2, chip: 'teeth' }, [4, 6, 8, 9, 11, 12, 13, 15, 16, 'mammoth']);
  t.same(robbed[0], { type: 'ChipRobbed', winner: 0, from: 2, chip: 'teeth' });
  state = applyEvents(state, robbed);
  t.same(state.chips[0], { teeth: 1, fur: 0, meat: 2, skull: 1 });
  t.same(state.chips[2], { teeth: 0, fur: 0, meat: 0, skull: 0 });
});
