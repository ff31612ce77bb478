// Scoring and the edition's data.
import t from 'tap';
import { edition } from '../../../src/domain/fackel-und-keule/edition.ts';
import { scoreParts, scores } from '../../../src/domain/fackel-und-keule/scoring.ts';
import { game } from './helpers.ts';

const chips = (teeth: number, fur: number, meat: number, skull: number) => ({ teeth, fur, meat, skull });

t.test('a point a chip (skulls too); 3 for a sole majority of each of the 4 types; 3 for all 4 types', async (t) => {
  t.same(scores([chips(2, 0, 0, 1), chips(1, 1, 1, 0), chips(0, 0, 0, 0)]), [3 + 3 + 3, 3 + 3 + 3, 0]);
  t.same(scores([chips(1, 1, 1, 1), chips(0, 0, 0, 0), chips(0, 0, 0, 0)]), [4 + 12 + 3, 0, 0], 'skulls are a type for majority and for all 4');
  t.same(scores([chips(2, 0, 0, 0), chips(2, 0, 0, 0), chips(0, 0, 0, 0)]), [2, 2, 0], 'no majority points on a tie');
  t.same(scores([chips(1, 1, 1, 0), chips(0, 0, 0, 0), chips(0, 0, 0, 0)]), [3 + 9, 0, 0], 'three types are not all four');
});

t.test("the breakdown names each part of the score: chips, each sole majority, all 4 types", async (t) => {
  const parts = scoreParts([chips(1, 1, 1, 1), chips(0, 0, 0, 0), chips(0, 0, 0, 0)]);
  t.same(parts[0], [
    { label: 'prey chip', count: 4, points: 4 },
    { label: 'most teeth', points: 3 },
    { label: 'most fur', points: 3 },
    { label: 'most meat', points: 3 },
    { label: 'most skulls', points: 3 },
    { label: 'all 4 kinds of prey chip', points: 3 },
  ]);
  t.same(parts[1], [{ label: 'prey chip', count: 0, points: 0 }]);
});

t.test('ties in the final score share the win', async (t) => {
  const state = { ...game.initialState({ options: { turnSeconds: 0 }, seats: 3 }), chips: [chips(2, 0, 0, 0), chips(2, 0, 0, 0), chips(0, 0, 0, 0)], phase: { name: 'ended' as const } };
  t.match(game.result(state), { scores: [2, 2, 0], ranks: [1, 1, 3], winners: [0, 1] });
  t.same(game.result(state)?.breakdown?.[0], [{ label: 'prey chip', count: 2, points: 2 }], 'a tied majority brings no bonus, so the breakdown lists none');
  t.equal(game.result(game.initialState({ options: { turnSeconds: 0 }, seats: 3 })), null);
});

t.test('the edition: 32 tools, 14 clubs, 12 animals, 92 chips that cover every animal', async (t) => {
  t.equal(edition.cards.filter((c) => c.kind !== 'club').length, 32);
  t.equal(edition.cards.filter((c) => c.kind === 'club').length, 14);
  t.same(new Set(edition.cards.map((c) => c.id)).size, 46);
  t.same(edition.cards.find((c) => c.id === 2)?.kind, 'spear', 'the rulebook’s spear numbered 2');
  t.same(edition.cards.find((c) => c.id === 37)?.kind, 'club', 'the rulebook’s club numbered 37');
  t.equal(edition.animals.length, 12);
  const rhino = edition.animals.find((a) => a.id === 'wool-rhinoceros')!;
  t.same([rhino.needs, rhino.prey], [{ torch: 1, stoneAxe: 3, spear: 4 }, { teeth: 2, fur: 2, meat: 4 }]);
  t.same(edition.animals.find((a) => a.id === 'saber-tooth-tiger')!.needs, { torch: 2, stoneAxe: 0, spear: 5 });
  const { teeth, fur, meat, skull } = edition.chips;
  t.equal(teeth + fur + meat + skull, 92);
  for (const kind of ['teeth', 'fur', 'meat'] as const) {
    t.ok(edition.animals.reduce((n, a) => n + a.prey[kind], 0) <= edition.chips[kind], `${kind} never run out`);
  }
  t.ok(skull >= 12, 'a skull for every round');
  t.same(game.optionsSchema.parse({}), { turnSeconds: 0 }, 'no time limit unless asked for');
  t.ok(game.validateSetup?.({ options: { turnSeconds: 0 }, seats: 2 }));
  t.equal(game.validateSetup?.({ options: { turnSeconds: 0 }, seats: 5 }), null);
});
