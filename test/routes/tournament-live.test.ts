// The live tournament feed: every event of the log in order, and a reconnect with
// `after` first receives what it missed, without gaps or repeats.
import t, { type Test } from 'tap';
import type { z } from 'zod';
import { ErrorMessage } from '../../src/routes/live-messages.ts';
import { TournamentEventsMessage } from '../../src/routes/tournament-live-messages.ts';
import { bearerHeader, createOrganizer, testApp, testClock } from '../helpers/app.ts';
import { botPlayers, createTournament, playOn } from '../helpers/tournaments.ts';
import { connect } from '../helpers/ws.ts';

/** The message is what asyncapi/asyncapi.json says: it fits its schema and parses to
 * itself (a field the schema lacks fails). */
function fits(t: Test, schema: z.ZodType, message: unknown, what: string): void {
  const parsed = schema.safeParse(message);
  if (!parsed.success) return void t.fail(`${what}: ${parsed.error.message.slice(0, 2000)}`);
  t.strictSame(parsed.data, message, `${what} fits its documented schema`, { diagnostic: false });
}

t.test('the feed pushes rounds, finished tables and standings, and resumes after N', async (t) => {
  const clock = testClock();
  const app = await testApp(t, { clock });
  const organizer = await createOrganizer(app);
  const { tournament } = await createTournament(app, organizer.key, {
    name: 'Live', gameType: 'pechvogel', format: { kind: 'swiss', rounds: 2, tableSize: { min: 4, max: 4 }, byes: false }, settings: { options: { reactionSeconds: 1 }, advance: 'organizer' }, players: botPlayers(8),
  });
  const id = tournament.id;
  const first = await connect(app, `/tournaments/${id}/live`);
  const opening = await first.next();
  fits(t, TournamentEventsMessage, opening, 'the opening events');
  t.same(opening.events.map((e: { seq: number; event: { type: string } }) => [e.seq, e.event.type]), [[1, 'TournamentCreated'], ...Array.from({ length: 8 }, (_, i) => [i + 2, 'PlayerRegistered'])], 'first the log so far');
  await app.inject({ method: 'POST', url: `/tournaments/${id}/rounds`, headers: bearerHeader(organizer.key), payload: {} });
  const paired = await first.next();
  fits(t, TournamentEventsMessage, paired, 'a round paired');
  t.same(paired.events.map((e: { seq: number; event: { type: string } }) => [e.seq, e.event.type]), [[10, 'RoundPaired']], 'then each commit as it happens');
  first.socket.close();
  await first.closed;

  await playOn(app, clock, async () => (await app.inject({ url: `/tournaments/${id}` })).json().rounds[0].tables.every((tb: { finished: boolean }) => tb.finished));
  const again = await connect(app, `/tournaments/${id}/live?after=10`);
  const missed = await again.next();
  fits(t, TournamentEventsMessage, missed, 'tables finished and standings');
  const types = missed.events.map((e: { event: { type: string } }) => e.event.type);
  t.same(missed.events.map((e: { seq: number }) => e.seq), [11, 12, 13], 'a reconnect gets exactly what it missed');
  t.same(types, ['TableFinished', 'TableFinished', 'StandingsChanged']);
  again.socket.close();
  await again.closed;

  const unknown = await connect(app, '/tournaments/00000000-0000-4000-8000-000000000000/live');
  const refusal = await unknown.next();
  fits(t, ErrorMessage, refusal, 'a refusal');
  t.equal(refusal.problem.code, 'tournament/not-found');
  t.equal((await unknown.closed).code, 4404);
});

t.test('at shutdown the feed is closed with 1001 like a game socket, not cut', async (t) => {
  const app = await testApp(t);
  const organizer = await createOrganizer(app);
  const { tournament } = await createTournament(app, organizer.key, {
    name: 'Feierabend', gameType: 'pechvogel', format: { kind: 'swiss', rounds: 1, tableSize: { min: 4, max: 4 }, byes: false }, settings: { advance: 'organizer' }, players: botPlayers(4),
  });
  const feed = await connect(app, `/tournaments/${tournament.id}/live`);
  await feed.next();
  t.equal(app.services.sockets.open, 1, 'counted among the open sockets');
  await app.services.sockets.closeAll(Date.now() + 2000);
  t.equal((await feed.closed).code, 1001);
});
