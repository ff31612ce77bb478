// What follows a no-show in later rounds (issue 25, item 7): the player is left out
// of the rounds after it (absent, by default after one no-show) until they check in
// again; the table they never played is not rated for them, and the bot's in-game
// score on their seat is not theirs. (How a no-show is detected is the arrival rule's,
// test/routes/tournament-arrival.test.ts; here the bots at her table play up to her
// turn, and she has not opened it by the table deadline.)
import t from 'tap';
import { bearerHeader, createOrganizer, testApp, testClock } from '../helpers/app.ts';
import { createTournament, playOn, quick } from '../helpers/tournaments.ts';

const hostile = `<img src=x onerror=alert(1)>"'&`;

t.test('a no-show is left out of later rounds, unrated for the table she missed, without the bot\'s score, and back by checking in', async (t) => {
  const clock = testClock();
  const app = await testApp(t, { clock });
  const organizer = await createOrganizer(app);
  const created = await createTournament(app, organizer.key, {
    name: 'Verschlafen', gameType: 'pechvogel', format: { kind: 'swiss', rounds: 3, tableSize: { min: 3, max: 3 }, byes: true },
    settings: { ...quick, advance: 'organizer', noShow: { afterSeconds: 30, action: 'forfeit' } },
    players: [{ name: hostile }, ...Array.from({ length: 5 }, (_, i) => ({ name: `Bot ${i}`, bot: 'greedy' }))],
  });
  const id = created.tournament.id;
  const ada = created.players[0]!.token!;
  const pair = async () => (await app.inject({ method: 'POST', url: `/tournaments/${id}/rounds`, headers: bearerHeader(organizer.key), payload: {} })).json();
  const summary = async () => (await app.inject({ url: `/tournaments/${id}` })).json();
  const roundDone = (round: number) => async () => (await summary()).rounds[round - 1].tables.every((table: { finished: boolean }) => table.finished);

  const round1 = await pair();
  const table = round1.tables.find((tb: { players: string[] }) => tb.players.includes('p1'));
  await app.services.bots.idle();
  clock.now += 31_000;
  await app.services.tournaments.attend();
  const me = (await app.inject({ url: '/tournaments/me', headers: bearerHeader(ada) })).json();
  t.equal(me.player.absent, 'no-show', 'she is told she is left out');
  await playOn(app, clock, roundDone(1));

  const round2 = await pair();
  t.notOk(round2.tables.some((tb: { players: string[] }) => tb.players.includes('p1')), 'round 2 is paired without her');
  t.notOk(round2.tables.length === 0);
  const standings = (await app.inject({ url: `/tournaments/${id}/standings` })).json().standings as { player: string; tieBreaks: { score: number }; rating: unknown; absent: string | null; played: number }[];
  const hers = standings.find((s) => s.player === 'p1')!;
  t.same([hers.played, hers.tieBreaks.score, hers.rating, hers.absent], [1, 0, null, 'no-show'], 'her forfeited table: played, no score of the bot\'s, not rated');
  const game = (await app.inject({ url: `/games/${table.gameId}` })).json();
  const others = standings.filter((s) => table.players.includes(s.player) && s.player !== 'p1');
  t.ok(others.every((s) => s.rating !== null), 'the others at her table are rated for it');
  t.same(others.map((s) => s.tieBreaks.score), others.map((s) => game.game.result.scores[table.players.indexOf(s.player)]), 'and keep their own scores');

  await playOn(app, clock, roundDone(2));
  t.equal((await app.inject({ method: 'POST', url: '/tournaments/me/check-in', headers: bearerHeader(ada) })).statusCode, 200, 'she checks in again');
  const round3 = await pair();
  t.ok(round3.tables.some((tb: { players: string[] }) => tb.players.includes('p1')), 'and is paired in round 3');
});

t.test('absentAfter 0 keeps pairing a no-show; "withdraw" withdraws them', async (t) => {
  const clock = testClock();
  const app = await testApp(t, { clock });
  const organizer = await createOrganizer(app);
  for (const [noShow, expected] of [
    [{ afterSeconds: 30, action: 'bot', absentAfter: 0 }, { withdrawn: false, absent: null }],
    [{ afterSeconds: 30, action: 'forfeit', then: 'withdraw' }, { withdrawn: true, absent: null }],
  ] as const) {
    const { tournament } = await createTournament(app, organizer.key, {
      name: 'Regel', gameType: 'pechvogel', format: { kind: 'swiss', rounds: 2, tableSize: { min: 3, max: 3 }, byes: true },
      settings: { ...quick, advance: 'organizer', noShow }, players: [{ name: 'Ada' }, { name: 'B1', bot: 'greedy' }, { name: 'B2', bot: 'greedy' }],
    });
    await app.inject({ method: 'POST', url: `/tournaments/${tournament.id}/rounds`, headers: bearerHeader(organizer.key), payload: {} });
    await app.services.bots.idle();
    clock.now += 31_000;
    await app.services.tournaments.attend();
    const ada = (await app.inject({ url: `/tournaments/${tournament.id}` })).json().players[0];
    t.match(ada, expected, JSON.stringify(noShow));
  }
});
