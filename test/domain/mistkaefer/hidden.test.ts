// Face-down chips: the owner knows their kinds, everyone else only the counts.
import t from 'tap';
import { edition } from '../../../src/domain/mistkaefer/edition.ts';
import { mistkaefer } from '../../../src/domain/mistkaefer/index.ts';
import type { Event } from '../../../src/domain/mistkaefer/index.ts';
import { after, bonus, given, place, roll, row, when } from './given.ts';

const seat = (s: number) => ({ kind: 'seat', seat: s }) as const;
const spectator = { kind: 'spectator' } as const;
const all = { kind: 'all' } as const;

const g = given(3).chips(0, ['cloverLeaf']).chips(1, ['twoDungBalls', 'oneDungBall']);

t.test('a seat sees the kinds of its own chips and only the count of the others\'', async (t) => {
  const v = mistkaefer.view(g.state, seat(0));
  t.same(v.hands, [
    { count: 1, kinds: ['cloverLeaf'] },
    { count: 2, kinds: null },
    { count: 0, kinds: null },
  ]);
  t.same(v.chipSupply, { count: 47 - 3, kinds: null }, 'the supply shows only its size');
  t.same(mistkaefer.view(g.state, spectator).hands.map((h) => h.kinds), [null, null, null]);
  t.same(mistkaefer.view(g.state, all).hands[1]!.kinds, ['twoDungBalls', 'oneDungBall']);
  t.same(mistkaefer.view(g.state, all).chipSupply.kinds, { oneDungBall: 25, twoDungBalls: 12, cloverLeaf: 7 });
});

t.test('chips taken from the supply: only the taker learns the kinds', async (t) => {
  const taken: Event = { type: 'ChipsTaken', seat: 1, count: 2, chips: ['cloverLeaf', 'oneDungBall'] };
  t.same(mistkaefer.redact(taken, seat(1), g.state), taken);
  t.same(mistkaefer.redact(taken, all, g.state), taken);
  for (const viewer of [seat(0), seat(2), spectator]) {
    const hidden = mistkaefer.redact(taken, viewer, g.state);
    t.same(hidden, { type: 'ChipsTaken', seat: 1, count: 2, chips: null });
    t.ok(mistkaefer.eventSchema.safeParse(hidden).success, 'a redacted event is still a valid event');
  }
});

t.test('a stolen chip: thief and victim know it, the others only see that one moved', async (t) => {
  let h = row(g, 0, 'blue', [1, 2, 3]).turnTo(0);
  h = h.then(...(when(h.state, 0, roll('blue', 1), [4]) as Event[]));
  const waiting = after(h.state, when(h.state, 0, place(4)));
  const events = when(waiting, 0, bonus('stealChip', 1), ['twoDungBalls']) as Event[];
  const stolen = events.find((e) => e.type === 'ChipStolen')!;
  t.same(mistkaefer.redact(stolen, seat(0), waiting), stolen);
  t.same(mistkaefer.redact(stolen, seat(1), waiting), stolen);
  const hidden = mistkaefer.redact(stolen, seat(2), waiting);
  t.same(hidden, { type: 'ChipStolen', thief: 0, victim: 1, chip: null });
  t.ok(mistkaefer.eventSchema.safeParse(hidden).success);
  const later = after(waiting, events);
  t.same(mistkaefer.view(later, seat(2)).hands.map((x) => x.count), [2, 1, 0]);
  t.same(mistkaefer.view(later, seat(0)).hands[0]!.kinds, ['cloverLeaf', 'twoDungBalls']);
});

t.test('dice, tableaus and rolls are public', async (t) => {
  const v = mistkaefer.view(row(g, 2, 'green', [3]).state, spectator);
  t.same(v.tableaus[2]!.green, [3]);
  t.equal(v.dice.green, 7);
});

t.test('the view says why stealing is not allowed yet and carries the tableau layout', async (t) => {
  const start = given(3);
  const first = mistkaefer.view(start.state, { kind: 'spectator' });
  t.same([first.stealingAllowed, first.firstTurnPending], [false, [0, 1, 2]], 'nobody has had a turn');
  const later = start.turnTo(1).turnTo(2);
  t.same(mistkaefer.view(later.state, { kind: 'spectator' }).firstTurnPending, [2], 'seat 2 is still to take its first turn');
  const round2 = later.turnTo(0);
  const view = mistkaefer.view(round2.state, { kind: 'seat', seat: 0 });
  t.same([view.stealingAllowed, view.firstTurnPending], [true, []]);
  t.same(view.tableauLayout, edition.tableau);
});
