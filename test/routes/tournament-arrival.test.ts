// Presence at a tournament's table is arrival (issue 25 item 2): a player who read her
// table with her token is present though she has not moved; one who never opened it is
// the no-show. A tournament's table does not wait for arrival: its clock runs from the pairing.
import t from 'tap';
import { bearerHeader, createOrganizer, testApp, testClock } from '../helpers/app.ts';
import { createTournament, quick } from '../helpers/tournaments.ts';

t.test('players who only read their table are present; the one who never opens it is the no-show', async (t) => {
  const clock = testClock();
  const app = await testApp(t, { clock });
  const organizer = await createOrganizer(app);
  const created = await createTournament(app, organizer.key, {
    name: 'Anwesend', gameType: 'pechvogel', format: { kind: 'swiss', rounds: 1, tableSize: { min: 3, max: 3 }, byes: true },
    settings: { ...quick, advance: 'organizer', noShow: { afterSeconds: 30, action: 'forfeit' } },
    players: [{ name: 'Ada' }, { name: 'Bea' }, { name: 'Cem' }],
  });
  const id = created.tournament.id;
  const tokens = created.players.map((p) => p.token!);
  const round = (await app.inject({ method: 'POST', url: `/tournaments/${id}/rounds`, headers: bearerHeader(organizer.key), payload: {} })).json();
  const gameId = round.tables[0].gameId as string;
  t.equal((await app.inject({ url: `/games/${gameId}` })).json().game.status, 'running', 'a tournament table starts at once');
  for (const token of tokens.slice(0, 2)) t.equal((await app.inject({ url: `/games/${gameId}`, headers: bearerHeader(token) })).statusCode, 200);
  clock.now += 31_000;
  await app.services.tournaments.attend();
  const absent = await Promise.all(tokens.map(async (token: string) => (await app.inject({ url: '/tournaments/me', headers: bearerHeader(token) })).json().player.absent ?? null));
  t.same(absent, [null, null, 'no-show'], 'only the player who never opened her table is a no-show');
});
