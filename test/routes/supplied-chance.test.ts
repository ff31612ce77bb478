// Recording a physical game: the referee supplies every outcome and acts for the
// seats. The rulebook's first example (Umberto, then Thea) played over HTTP.
import t from 'tap';
import { command, createGame, testApp } from '../helpers/app.ts';

t.test("the referee records Umberto's and Thea's turns with the dice the table rolled", async (t) => {
  const app = await testApp(t);
  const { id, referee } = await createGame(app, { type: 'pechvogel', seats: [{ name: 'Umberto' }, { name: 'Thea' }, { name: 'Kelly' }], chance: 'supplied' });
  const logLength = async () => (await app.inject({ url: `/games/${id}/events?limit=1000` })).json().events.length;
  const act = (seat: number, body: Record<string, unknown>) => command(app, id, referee, { seat, ...body });

  const before = await logLength();
  const refusals: [Record<string, unknown>, string][] = [
    [{ command: { type: 'throw' }, outcomes: [7, 7, 'raven'] }, 'chance/outcome-missing'],
    [{ command: { type: 'throw' }, outcomes: [7, 7, 'raven', 'raven', 3, 4, 5, 6] }, 'chance/outcome-unused'],
    [{ command: { type: 'throw' }, outcomes: [7, 7, 'raven', 'raven', 3, 4, 9] }, 'chance/outcome-invalid'],
  ];
  for (const [body, code] of refusals) {
    const response = await act(0, body);
    t.equal(response.statusCode, 422, code);
    t.equal(response.json().code, code);
  }
  t.equal(await logLength(), before, 'outcomes that do not fit append nothing');
  const short = (await act(0, { command: { type: 'throw' }, outcomes: [7, 7, 'raven'] })).json();
  t.same(short.need, { kind: 'die', count: 4, values: [3, 4, 5, 6, 7, 'raven'] }, 'outcome-missing says what is missing: four more dice, each one of the faces');
  const wrong = (await act(0, { command: { type: 'throw' }, outcomes: [7, 7, 'raven', 'raven', 3, 4, 9] })).json();
  t.same(wrong.need, { kind: 'die', count: 1, values: [3, 4, 5, 6, 7, 'raven'] }, 'outcome-invalid says what the draw allows');

  // Umberto throws two sevens and two ravens, takes seven as his target, then throws a six and two sevens.
  t.equal((await act(0, { command: { type: 'throw' }, outcomes: [7, 7, 'raven', 'raven', 3, 4, 5] })).statusCode, 200);
  t.equal((await act(0, { command: { type: 'chooseTarget', target: 7 } })).statusCode, 200);
  const last = await act(0, { command: { type: 'throw' }, outcomes: [6, 7, 7] });
  t.equal(last.statusCode, 200);
  const afterUmberto = last.json().view;
  t.same(afterUmberto.players[0].markers, [7], 'Umberto takes a seven-point score marker');
  t.equal(afterUmberto.turn.seat, 1, 'and passes the dice to Thea');

  // Thea gets three ravens on her first throw and takes a frustration.
  t.equal((await act(1, { command: { type: 'throw' }, outcomes: ['raven', 'raven', 'raven', 3, 4, 5, 6] })).statusCode, 200);
  const thea = await act(1, { command: { type: 'chooseTarget', target: 6 } });
  t.equal(thea.statusCode, 200, thea.body);
  t.equal(thea.json().view.players[1].frustrations, 1, 'Thea takes a frustration');
  t.equal(thea.json().view.turn.seat, 2, 'and passes the dice to her left');

  const log = (await app.inject({ url: `/games/${id}/events?limit=1000` })).json();
  t.ok(log.events.filter((e: { actor: string }) => e.actor.startsWith('referee:seat:')).length >= 5, "the log records that the referee acted for the seats");
  const referees = (await app.inject({ url: `/games/${id}`, headers: { authorization: `Bearer ${referee}` } })).json();
  t.same(referees.you, { kind: 'referee' });
});
