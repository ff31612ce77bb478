// Self-registration through a join link and check-in before round 1 (issue 25, items 9
// and 10): players register with a name and get their token once; the organizer
// approves, refuses, removes; capacity and closing time hold; a retried registration
// gets the same entry and token; the link is rate-limited. Players who did not check
// in are left out of round 1 and told, and come back by checking in.
import t from 'tap';
import { bearerHeader, createOrganizer, testApp, testClock } from '../helpers/app.ts';
import { testDatabase } from '../helpers/database.ts';
import { createTournament, quick } from '../helpers/tournaments.ts';

const hostile = `<img src=x onerror=alert(1)>"'&`;
const swiss = { kind: 'swiss', rounds: 2, tableSize: { min: 3, max: 3 }, byes: true };
const fast = { ...quick, advance: 'organizer' };

t.test('a join link: automatic and manual approval, capacity, closing time, retries, and what a pending token shows', async (t) => {
  const database = await testDatabase(t);
  const clock = testClock();
  const app = await testApp(t, { clock, database });
  const organizer = await createOrganizer(app);
  const { tournament } = await createTournament(app, organizer.key, { name: hostile, gameType: 'pechvogel', format: swiss, settings: fast, players: [{ name: 'Bot', bot: 'greedy' }] });
  const id = tournament.id;
  const asOrganizer = (url: string, payload: object = {}) => app.inject({ method: 'POST', url, headers: bearerHeader(organizer.key), payload });
  const join = (code: string, name: string, key?: string) => app.inject({ method: 'POST', url: `/registrations/${code}`, headers: key === undefined ? {} : { 'idempotency-key': key }, payload: { name } });

  const closesAt = new Date(clock.now + 3_600_000).toISOString();
  const opened = await asOrganizer(`/tournaments/${id}/registration`, { capacity: 4, closesAt });
  t.equal(opened.statusCode, 200, opened.body);
  const { code } = opened.json();
  t.match(code, /^[a-z2-9]{12}$/);
  const shown = (await app.inject({ url: `/registrations/${code}` })).json();
  t.same([shown.tournament.name, shown.open, shown.placesLeft, shown.registration.approval], [hostile, true, 3, 'automatic'], 'the link shows the tournament, open, 3 places left of 4');
  const log = async () => (await app.inject({ url: `/tournaments/${id}/events` })).body;
  t.notMatch(await log(), code, 'the code is not in the public log');

  const key = '3b0c8a61-1d53-4f8e-9a51-6f0d6f2d9c11';
  const ada = await join(code, hostile, key);
  t.equal(ada.statusCode, 201, ada.body);
  t.same({ ...ada.json(), token: undefined }, { tournament: id, entry: ada.json().entry, status: 'approved', player: 'p2', token: undefined });
  const again = await join(code, hostile, key);
  t.same(again.json(), ada.json(), 'a retry with the same key gets the same entry and token');
  t.equal((await join(code, 'Someone else', key)).json().code, 'command/idempotency-key-reused');
  t.equal((await join(code, 'x', 'short')).json().code, 'request/invalid', 'a join key must be random enough');
  const me = (await app.inject({ url: '/tournaments/me', headers: bearerHeader(ada.json().token) })).json();
  t.same([me.player.name, me.entry.status], [hostile, 'approved'], 'the token is her tournament token');

  // Manual approval from now on: entries wait, and count towards the capacity.
  await asOrganizer(`/tournaments/${id}/registration`, { capacity: 4, closesAt, approval: 'manual' });
  const bea = (await join(code, 'Bea')).json();
  const cem = (await join(code, 'Cem')).json();
  t.same([bea.status, bea.player], ['pending', null]);
  const full = await join(code, 'Dora');
  t.same([full.statusCode, full.json().code], [409, 'tournament/registration-full'], '2 players and 2 waiting: full');
  const pending = (await app.inject({ url: '/tournaments/me', headers: bearerHeader(bea.token) })).json();
  t.same([pending.player, pending.entry.status, pending.name], [null, 'pending', hostile], 'a pending token shows the entry');
  t.notMatch(await log(), 'Bea', "a pending entry's name is not in the public log");
  const listed = (await app.inject({ url: `/tournaments/${id}/entries?status=pending`, headers: bearerHeader(organizer.key) })).json().entries;
  t.same(listed.map((e: { name: string }) => e.name).sort(), ['Bea', 'Cem']);

  const approved = (await asOrganizer(`/tournaments/${id}/entries/${bea.entry}/approve`)).json();
  t.same([approved.entry.status, approved.entry.player], ['approved', 'p3']);
  t.equal((await asOrganizer(`/tournaments/${id}/entries/${bea.entry}/approve`)).json().code, 'tournament/entry-decided');
  t.equal((await asOrganizer(`/tournaments/${id}/entries/${cem.entry}/refuse`)).json().entry.status, 'refused');
  t.same((await app.inject({ url: '/tournaments/me', headers: bearerHeader(cem.token) })).json().entry.status, 'refused');
  t.equal((await app.inject({ url: '/tournaments/me/check-in', method: 'POST', headers: bearerHeader(cem.token) })).json().code, 'tournament/unknown-token', 'a refused token is no player');
  const removed = (await asOrganizer(`/tournaments/${id}/entries/${ada.json().entry}/remove`)).json();
  t.same(removed.entry.status, 'removed');
  const standings = (await app.inject({ url: `/tournaments/${id}/standings` })).json().standings.map((s: { player: string }) => s.player);
  t.notOk(standings.includes('p2'), 'a removed player who never played leaves the standings');

  clock.now += 3_600_000;
  const late = await join(code, 'Late');
  t.same([late.statusCode, late.json().code], [409, 'tournament/registration-closed'], 'past its closing time');
  t.equal((await asOrganizer(`/tournaments/${id}/entries/00000000-0000-4000-8000-000000000000/approve`)).json().code, 'tournament/entry-not-found');
  t.equal((await join('nosuchcode', 'x')).json().code, 'tournament/join-code-unknown');
  const rotated = (await asOrganizer(`/tournaments/${id}/registration`, { newCode: true })).json();
  t.not(rotated.code, code);
  t.equal((await app.inject({ url: `/registrations/${code}` })).json().code, 'tournament/join-code-unknown', 'a new code retires the old link');
  t.equal((await asOrganizer(`/tournaments/${id}/registration/close`)).json().registration.open, false);
  t.equal((await join(rotated.code, 'Zoe')).json().code, 'tournament/registration-closed');
  const entries = await database.prisma.tournamentEntry.count();
  const refusedBody = await app.inject({ method: 'POST', url: `/registrations/${rotated.code}`, payload: { name: '' } });
  t.same([refusedBody.statusCode, refusedBody.json().code, await database.prisma.tournamentEntry.count()], [400, 'request/invalid', entries], 'an empty name changes nothing');
});

t.test('two registrations with one key at once make one entry', async (t) => {
  const app = await testApp(t);
  const organizer = await createOrganizer(app);
  const { tournament } = await createTournament(app, organizer.key, { name: 'Race', gameType: 'pechvogel', format: swiss, settings: fast, players: [] });
  const { code } = (await app.inject({ method: 'POST', url: `/tournaments/${tournament.id}/registration`, headers: bearerHeader(organizer.key), payload: {} })).json();
  const headers = { 'idempotency-key': 'a7f3b1c2-9e3d-4c8a-b1f2-0d9e8c7b6a59' };
  const [a, b] = await Promise.all([0, 1].map(() => app.inject({ method: 'POST', url: `/registrations/${code}`, headers, payload: { name: 'Twice' } })));
  t.same(b!.json(), a!.json());
  t.equal((await app.inject({ url: `/tournaments/${tournament.id}` })).json().players.length, 1);
});

t.test('the join link is rate-limited per address', async (t) => {
  const app = await testApp(t, { rateLimits: { gamesPerMinute: 0, commandsPerSecond: 0, joinsPerMinute: 3 } });
  const organizer = await createOrganizer(app);
  const { tournament } = await createTournament(app, organizer.key, { name: 'Flood', gameType: 'pechvogel', format: swiss, settings: fast, players: [] });
  const { code } = (await app.inject({ method: 'POST', url: `/tournaments/${tournament.id}/registration`, headers: bearerHeader(organizer.key), payload: {} })).json();
  const statuses = [];
  for (let i = 0; i < 4; i++) statuses.push((await app.inject({ method: 'POST', url: `/registrations/${code}`, payload: { name: `P${i}` } })).statusCode);
  t.same(statuses, [201, 201, 201, 429]);
});

t.test('check-in: who did not check in is left out of round 1 and told, and comes back by checking in', async (t) => {
  const clock = testClock();
  const app = await testApp(t, { clock });
  const organizer = await createOrganizer(app);
  const created = await createTournament(app, organizer.key, {
    name: 'Einlass', gameType: 'pechvogel', format: swiss, settings: fast,
    players: [{ name: hostile }, { name: 'Bea' }, { name: 'Cem' }, { name: 'Dan' }, { name: 'Bot', bot: 'greedy' }],
  });
  const id = created.tournament.id;
  const [ada, bea, cem, dan] = created.players.map((p) => p.token!) as [string, string, string, string];
  const asOrganizer = (url: string, payload: object = {}) => app.inject({ method: 'POST', url, headers: bearerHeader(organizer.key), payload });
  const checkIn = (token: string) => app.inject({ method: 'POST', url: '/tournaments/me/check-in', headers: bearerHeader(token) });
  t.equal((await checkIn(ada)).json().code, 'tournament/check-in-closed', 'not before it opens');
  const opened = (await asOrganizer(`/tournaments/${id}/check-in/open`, { closesAt: new Date(clock.now + 600_000).toISOString() })).json();
  t.same(opened.outlook, { round: 1, players: 1, tables: [], byes: 0, blocked: opened.outlook.blocked }, 'only the bot is in yet');
  t.same((await checkIn(ada)).json(), { player: 'p1', checkedIn: true, absent: null });
  await checkIn(bea);
  t.equal((await asOrganizer(`/tournaments/${id}/players/p3/check-in`)).statusCode, 200, 'Cem at the desk');
  const summary = (await app.inject({ url: `/tournaments/${id}` })).json();
  t.same(summary.players.map((p: { checkedIn: boolean }) => p.checkedIn), [true, true, true, false, true]);
  t.same(summary.outlook, { round: 1, players: 4, tables: [3], byes: 1, blocked: null });

  const round = (await asOrganizer(`/tournaments/${id}/rounds`)).json();
  t.same(round.leftOut, ['p4'], 'Dan did not check in: left out of round 1');
  t.notOk(round.tables.some((table: { players: string[] }) => table.players.includes('p4')));
  const told = (await app.inject({ url: '/tournaments/me', headers: bearerHeader(dan) })).json();
  t.same([told.player.absent, told.table], ['not-checked-in', null], 'and told so');
  const log = (await app.inject({ url: `/tournaments/${id}/events` })).json().events.map((e: { event: { type: string } }) => e.event);
  t.ok(log.some((e: { type: string; player?: string; reason?: string }) => e.type === 'PlayerAbsent' && e.player === 'p4' && e.reason === 'not-checked-in'));
  t.same((await checkIn(cem)).json(), { player: 'p3', checkedIn: true, absent: null }, 'checking in again changes nothing');
  t.equal((await checkIn(dan)).statusCode, 200, 'Dan checks in late');
  const back = (await app.inject({ url: `/tournaments/${id}` })).json();
  t.same([back.players[3].absent, back.outlook.players], [null, 5], 'and is paired from round 2');
});
