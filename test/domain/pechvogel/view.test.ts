// Nothing is hidden in Pechvogel: every viewer sees the same table and the same events.
import t from 'tap';
import type { Viewer } from '../../../src/domain/contract.ts';
import { pechvogel } from '../../../src/domain/pechvogel/index.ts';
import { play, sixesUnderWay } from './helpers.ts';

const viewers: Viewer[] = [{ kind: 'seat', seat: 0 }, { kind: 'seat', seat: 1 }, { kind: 'spectator' }, { kind: 'all' }];

t.test('every viewer sees the whole state and every event unchanged', async (t) => {
  const before = sixesUnderWay([1, 1]);
  const after = play(before, 0, { type: 'throw' }, [6, 'raven', 4, 5]);
  const event = after.events.at(-1)!;
  for (const viewer of viewers) {
    t.same(pechvogel.view(after.state, viewer), { ...after.state, frustrationSupply: 11 }, `view for ${viewer.kind}`);
    t.same(pechvogel.redact(event, viewer, before.state), event, `event for ${viewer.kind}`);
  }
  t.equal(pechvogel.traits.hiddenInformation, false);
});

t.test('events and views are plain JSON that validates against the schemas', async (t) => {
  const g = play(sixesUnderWay([1, 1]), 0, { type: 'throw' }, [6, 'raven', 4, 5]);
  for (const event of g.events) t.same(pechvogel.eventSchema.parse(JSON.parse(JSON.stringify(event))), event);
  t.same(JSON.parse(JSON.stringify(pechvogel.view(g.state, { kind: 'spectator' }))), { ...g.state, frustrationSupply: 11 });
  t.same(pechvogel.commandSchema.parse({ type: 'steal', from: 1, returnToBox: 5 }), { type: 'steal', from: 1, returnToBox: 5 });
  t.notOk(pechvogel.commandSchema.safeParse({ type: 'chooseTarget', target: 8 }).success);
});

t.test("the view counts the frustration supply: the box's 13 less those held and on the board", async (t) => {
  const g = sixesUnderWay([1, 1]);
  t.equal(pechvogel.view(g.state, { kind: 'spectator' }).frustrationSupply, 11, 'two held');
  const thrown = play(g, 0, { type: 'throw' }, [6, 'raven', 4, 5]);
  const frustrated = play(thrown, 1, { type: 'frustrate' });
  t.equal(pechvogel.view(frustrated.state, { kind: 'spectator' }).frustrationSupply, 11, 'one moved from a hand to the board');
});
