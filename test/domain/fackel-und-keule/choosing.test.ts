// Secret simultaneous choice: commitments, limits, finality and what stays hidden.
import t from 'tap';
import { codes, commitmentOf, verifyCommitment } from '../../../src/domain/fackel-und-keule/index.ts';
import { accept, chooseAll, ctx, game, given, opening, reject, applyEvents } from './helpers.ts';

const hands3 = [[2, 5, 8, 11, 14], [17, 33, 34, 35, 36], [3, 4, 6, 9, 12]];
const start = () => given(3, opening(hands3, 'wool-rhinoceros'));

t.test('verifyCommitment recomputes sha256(salt + JSON of the sorted ids)', async (t) => {
  const c = commitmentOf('abc', [5, 2]);
  t.equal(c, commitmentOf('abc', [2, 5]), 'order of the ids does not matter');
  t.ok(verifyCommitment(c, 'abc', [2, 5]));
  t.notOk(verifyCommitment(c, 'abd', [2, 5]), 'another salt fails');
  t.notOk(verifyCommitment(c, 'abc', [2, 8]), 'other cards fail');
  const { createHash } = await import('node:crypto');
  t.equal(c, createHash('sha256').update('abc[2,5]').digest('hex'));
});

t.test('each choice is logged at once as a public commitment; the reveal lets anyone verify it', async (t) => {
  const { events } = chooseAll(start(), [[2, 5, 8, 11, 14], [17, 33, 34], [3, 4, 6, 9, 12]]);
  const chosen = events.filter((e) => e.type === 'CardsChosen');
  t.equal(chosen.length, 3);
  const reveal = events.find((e) => e.type === 'CardsRevealed');
  if (reveal?.type !== 'CardsRevealed') throw new Error('no reveal');
  for (const c of reveal.choices) {
    const commit = chosen.find((e) => e.seat === c.seat)!;
    t.ok(verifyCommitment(commit.commitment, c.salt, c.cards), `seat ${c.seat} kept its commitment`);
  }
});

t.test('before the reveal nobody learns another seat’s cards, salt or how many it chose', async (t) => {
  let state = start();
  const [chosen] = accept(state, 0, { type: 'choose', cards: [2, 5] });
  state = applyEvents(state, [chosen!]);
  if (chosen?.type !== 'CardsChosen') throw new Error('no choice');
  for (const viewer of [{ kind: 'seat', seat: 1 } as const, { kind: 'spectator' } as const]) {
    const seen = game.redact(chosen, viewer, state);
    t.same(seen, { ...chosen, cards: null, salt: null });
    t.ok(game.eventSchema.safeParse(seen).success, 'redacted event still validates');
    const v = game.view(state, viewer);
    t.equal(v.seats[0]!.handSize, 5, 'the hand size still includes the chosen cards');
    t.equal(v.seats[0]!.commitment, chosen.commitment, 'the commitment is public');
    t.notOk(JSON.stringify(v).includes(chosen.salt!), 'the salt does not leak');
    t.equal(v.all, null);
  }
  t.same(game.redact(chosen, { kind: 'seat', seat: 0 }, state), chosen, 'the chooser sees its own cards');
  t.same(game.view(state, { kind: 'seat', seat: 0 }).you?.choice, [2, 5]);
  t.same(game.view(state, { kind: 'seat', seat: 1 }).you?.hand, [17, 33, 34, 35, 36]);
  t.same(game.view(state, { kind: 'all' }).all?.choices, [[2, 5], null, null]);
  t.same(game.pending(state).seats, [1, 2], 'everyone sees who has still to choose');
});

t.test('a dealt hand is seen only by its seat', async (t) => {
  const [dealt] = opening(hands3, 'wool-rhinoceros');
  t.same(game.redact(dealt!, { kind: 'seat', seat: 1 }, game.initialState({ options: { turnSeconds: 0 }, seats: 3 })), { ...dealt, cards: null });
  t.same(game.view(start(), { kind: 'spectator' }).you, null);
});

t.test('a choice is final until the reveal', async (t) => {
  const state = applyEvents(start(), accept(start(), 0, { type: 'choose', cards: [2] }));
  t.equal(reject(state, 0, { type: 'choose', cards: [5] }).code, codes.alreadyChosen);
  t.same(game.legalCommands(state, 0), []);
});

t.test('1 card at least, at most 5/4/3 for 3/4/5 players', async (t) => {
  t.equal(reject(start(), 0, { type: 'choose', cards: [] }).code, codes.playCount);
  const four = given(4, opening([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15], [16, 17, 18, 19, 20]], 'mammoth'));
  t.equal(reject(four, 0, { type: 'choose', cards: [1, 2, 3, 4, 5] }).code, codes.playCount);
  t.ok(accept(four, 0, { type: 'choose', cards: [1, 2, 3, 4] }));
  const hands5 = [0, 1, 2, 3, 4].map((s) => [1, 2, 3, 4, 5].map((c) => c + 5 * s));
  const five = given(5, opening(hands5, 'mammoth'));
  t.equal(reject(five, 0, { type: 'choose', cards: [1, 2, 3, 4] }).code, codes.playCount);
  t.ok(accept(five, 0, { type: 'choose', cards: [1, 2, 3] }));
  t.ok(accept(start(), 0, { type: 'choose', cards: [2, 5, 8, 11, 14] }));
});

t.test('only own, distinct cards can be chosen', async (t) => {
  t.equal(reject(start(), 0, { type: 'choose', cards: [17] }).code, codes.notInHand);
  t.equal(reject(start(), 0, { type: 'choose', cards: [2, 2] }).code, codes.duplicateCard);
});

t.test('legal choices are every subset of 1 to the maximum cards', async (t) => {
  const legal = game.legalCommands(start(), 0);
  t.equal(legal.length, 31, '2^5 - 1 subsets of a 5-card hand');
  for (const command of legal.slice(0, 8)) t.ok(accept(start(), 0, command));
  const five = given(5, opening([0, 1, 2, 3, 4].map((s) => [1, 2, 3, 4, 5].map((c) => c + 5 * s)), 'mammoth'));
  t.equal(game.legalCommands(five, 0).length, 5 + 10 + 10, 'subsets of size 1 to 3');
});

t.test('other commands are refused while choosing; the system has nothing to send', async (t) => {
  t.equal(reject(start(), 0, { type: 'takePrey', chips: ['teeth'] }).code, codes.wrongPhase);
  t.equal(reject(start(), 0, { type: 'discard', cards: [2] }).code, codes.wrongPhase);
  t.equal(reject(start(), 0, { type: 'rob', from: 1, chip: 'fur' }).code, codes.wrongPhase);
  const out = game.decide(start(), { type: 'timeout' }, { actor: { kind: 'system' }, now: 1e15, chance: ctx(0).chance });
  t.match(out, { code: codes.noDeadline });
  t.equal(reject(start(), 7, { type: 'choose', cards: [2] }).code, codes.notASeat);
});
