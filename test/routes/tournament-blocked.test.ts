// A withdrawal never stalls a tournament silently (issue 25, item 1): the format's
// fallback seats the field when it has one (a rotation's bye), otherwise the tournament
// is blocked, with the reason in its log, its feed, its summary and its standings; the
// withdrawal's answer says so up front, and the organizer unblocks it by changing the
// format, registering a player, or ending it. A round owed is paired after a restart.
import t from 'tap';
import type { TournamentEvent } from '../../src/tournaments/log.ts';
import { bearerHeader, createOrganizer, testApp, testClock } from '../helpers/app.ts';
import { createTournament, playOn, quick, tournamentStatus } from '../helpers/tournaments.ts';

const hostile = `<img src=x onerror=alert(1)>"'&`;
const greedy = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `${hostile} ${i + 1}`, bot: 'greedy' }));

t.test('a Swiss of exactly 3 without byes, one of 6 withdraws: blocked, said up front, told everywhere, unblocked by allowing byes', async (t) => {
  const clock = testClock();
  const app = await testApp(t, { clock });
  const organizer = await createOrganizer(app);
  const { tournament } = await createTournament(app, organizer.key, {
    name: hostile, gameType: 'pechvogel', format: { kind: 'swiss', rounds: 3, tableSize: { min: 3, max: 3 }, byes: false }, settings: quick, players: greedy(6),
  });
  const id = tournament.id;
  const fed: TournamentEvent[] = [];
  app.services.feed.watch(id, (_seq, events) => fed.push(...events));
  const post = (url: string, payload: object = {}) => app.inject({ method: 'POST', url, headers: bearerHeader(organizer.key), payload });
  t.equal((await post(`/tournaments/${id}/rounds`)).statusCode, 200);

  const withdrew = (await post(`/tournaments/${id}/players/p2/withdraw`)).json();
  t.equal(withdrew.outlook?.round, 2);
  t.equal(withdrew.outlook?.players, 5);
  t.match(withdrew.outlook?.blocked, /5 players cannot be seated at tables of 3 without byes/, 'the answer says up front that round 2 cannot be paired');

  const summary = async () => (await app.inject({ url: `/tournaments/${id}` })).json();
  await playOn(app, clock, async () => (await summary()).rounds[0].tables.every((table: { finished: boolean }) => table.finished));
  const blocked = await summary();
  t.equal(blocked.status, 'running');
  t.equal(blocked.rounds.length, 1, 'round 2 is not paired');
  t.equal(blocked.blocked?.round, 2, 'the summary says the tournament is blocked at round 2');
  t.match(blocked.blocked?.reason, /change the format/, 'and what the organizer may do');
  const log = (await app.inject({ url: `/tournaments/${id}/events` })).json().events.map((e: { event: TournamentEvent }) => e.event);
  t.equal(log.at(-1).type, 'TournamentBlocked', 'the log says so');
  t.ok(fed.some((e) => e.type === 'TournamentBlocked'), 'and so does the feed');
  t.equal((await app.inject({ url: `/tournaments/${id}/standings` })).json().blocked?.round, 2, 'and the standings');

  // Nothing changes by itself: attending writes no second TournamentBlocked.
  await app.services.tournaments.attend();
  t.equal((await summary()).version, blocked.version, 'a blocked tournament waits without writing anything more');

  const refused = await post(`/tournaments/${id}/format`, { format: { kind: 'rotation', rounds: 3, tableSize: { min: 3, max: 3 } } });
  t.equal(refused.json().code, 'tournament/invalid-format', 'a format of another kind is refused');
  const allowed = await post(`/tournaments/${id}/format`, { format: { kind: 'swiss', rounds: 3, tableSize: { min: 3, max: 3 }, byes: true } });
  t.equal(allowed.statusCode, 200, allowed.body);
  t.same(allowed.json().outlook, { round: 2, players: 5, tables: [3], byes: 2, blocked: null });
  await app.services.tournaments.idle();
  const unblocked = await summary();
  t.equal(unblocked.blocked, null);
  t.same([unblocked.rounds[1].tables.length, unblocked.rounds[1].byes.length], [1, 2], 'round 2: one table of 3 and two byes');
  await playOn(app, clock, async () => (await tournamentStatus(app, id)) === 'finished');
  t.equal((await summary()).rounds.length, 3);
});

t.test('a 6-player rotation at 2-seat tables, one withdraws: the next round has a bye, as the answer said', async (t) => {
  const clock = testClock();
  const app = await testApp(t, { clock });
  const organizer = await createOrganizer(app);
  const { tournament } = await createTournament(app, organizer.key, {
    name: 'Rundlauf', gameType: 'pechvogel', format: { kind: 'rotation', rounds: 3, tableSize: { min: 2, max: 2 } }, settings: quick, players: greedy(6),
  });
  const id = tournament.id;
  await app.inject({ method: 'POST', url: `/tournaments/${id}/rounds`, headers: bearerHeader(organizer.key), payload: {} });
  const withdrew = (await app.inject({ method: 'POST', url: `/tournaments/${id}/players/p4/withdraw`, headers: bearerHeader(organizer.key) })).json();
  t.same(withdrew.outlook, { round: 2, players: 5, tables: [2, 2], byes: 1, blocked: null });
  await playOn(app, clock, async () => (await tournamentStatus(app, id)) === 'finished');
  const summary = (await app.inject({ url: `/tournaments/${id}` })).json();
  t.same(summary.rounds.map((r: { tables: unknown[]; byes: unknown[] }) => [r.tables.length, r.byes.length]), [[3, 0], [2, 1], [2, 1]]);
  t.not(summary.rounds[1].byes[0], summary.rounds[2].byes[0], 'the bye rotates');
});

t.test('a blocked tournament is unblocked by a new player, or ended by the organizer', async (t) => {
  const clock = testClock();
  const app = await testApp(t, { clock });
  const organizer = await createOrganizer(app);
  const post = (url: string, payload: object = {}) => app.inject({ method: 'POST', url, headers: bearerHeader(organizer.key), payload });
  const start = async (name: string) => {
    const { tournament } = await createTournament(app, organizer.key, { name, gameType: 'pechvogel', format: { kind: 'swiss', rounds: 3, tableSize: { min: 3, max: 3 }, byes: false }, settings: quick, players: greedy(6) });
    await post(`/tournaments/${tournament.id}/rounds`);
    await post(`/tournaments/${tournament.id}/players/p1/withdraw`);
    await playOn(app, clock, async () => (await app.inject({ url: `/tournaments/${tournament.id}` })).json().blocked !== null);
    return tournament.id;
  };
  const a = await start('A');
  t.equal((await post(`/tournaments/${a}/players`, { players: [{ name: 'Late', bot: 'greedy' }] })).statusCode, 200);
  await app.services.tournaments.idle();
  const summary = (await app.inject({ url: `/tournaments/${a}` })).json();
  t.same([summary.blocked, summary.rounds.length], [null, 2], 'a sixth player again: round 2 is paired');

  const b = await start('B');
  const ended = await post(`/tournaments/${b}/end`, { reason: 'Not enough players' });
  t.same(ended.json(), { finished: true, round: 1 });
  const over = (await app.inject({ url: `/tournaments/${b}` })).json();
  t.same([over.status, over.blocked], ['finished', null]);
  const last = (await app.inject({ url: `/tournaments/${b}/events` })).json().events.at(-1).event;
  t.same(last, { type: 'TournamentFinished', round: 1, endedBy: 'organizer', reason: 'Not enough players' });
  t.equal((await post(`/tournaments/${b}/end`, { reason: 'again' })).json().code, 'tournament/finished');
});

t.test('a round owed when the server stopped is paired by the next attend', async (t) => {
  const clock = testClock();
  const app = await testApp(t, { clock });
  const organizer = await createOrganizer(app);
  const { tournament } = await createTournament(app, organizer.key, { name: 'Neustart', gameType: 'pechvogel', format: { kind: 'swiss', rounds: 2, tableSize: { min: 3, max: 3 }, byes: false }, settings: quick, players: greedy(6) });
  const tournaments = app.services.tournaments as unknown as { advance: (id: string) => Promise<unknown> };
  const advance = tournaments.advance;
  // The process "dies" between recording the round's last table and pairing the next.
  tournaments.advance = async () => undefined;
  await app.inject({ method: 'POST', url: `/tournaments/${tournament.id}/rounds`, headers: bearerHeader(organizer.key), payload: {} });
  await playOn(app, clock, async () => (await app.inject({ url: `/tournaments/${tournament.id}` })).json().rounds[0].tables.every((table: { finished: boolean }) => table.finished));
  t.equal((await app.inject({ url: `/tournaments/${tournament.id}` })).json().rounds.length, 1);
  tournaments.advance = advance;
  await app.services.tournaments.attend();
  t.equal((await app.inject({ url: `/tournaments/${tournament.id}` })).json().rounds.length, 2, 'round 2 is paired by attend');
});
