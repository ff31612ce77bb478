// Webhooks against a real HTTP receiver on loopback (issue 25, item 12): an organizer's
// tournament events arrive signed, a failed delivery is tried again after its backoff,
// the organizer reads the delivery log, deliveries survive a restart and two instances
// never both send one; private addresses are refused unless allowed.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { verifySignature } from '../../src/webhooks/signing.ts';
import { bearerHeader, createOrganizer, testApp, testClock, type TestClock } from '../helpers/app.ts';
import { testDatabase, type TestLike } from '../helpers/database.ts';
import { createTournament, playOn, quick } from '../helpers/tournaments.ts';

const hostile = `<img src=x onerror=alert(1)>"'&`;

interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A receiver on 127.0.0.1: records every request; `answer` picks each one's status. */
async function receiver(t: TestLike, answer: (received: Received, count: number) => number = () => 204) {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const entry = { headers: request.headers, body };
      received.push(entry);
      response.statusCode = answer(entry, received.filter((r) => r.headers['spielwerk-delivery'] === request.headers['spielwerk-delivery']).length);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

const verified = (secret: string, clock: TestClock, r: Received) => verifySignature(secret, r.headers['spielwerk-signature'] as string, r.body, Math.floor(clock.now / 1000));

t.test('events arrive signed; a failed delivery is tried again after its backoff; the log shows every attempt', async (t) => {
  const clock = testClock();
  const app = await testApp(t, { clock, webhooks: { allowPrivate: true } });
  // The first try of each StandingsChanged fails.
  const { url, received } = await receiver(t, (r, count) => (JSON.parse(r.body).type === 'StandingsChanged' && count === 1 ? 500 : 200));
  const organizer = await createOrganizer(app);
  const created = await app.inject({ method: 'POST', url: '/webhooks', headers: bearerHeader(organizer.key), payload: { url } });
  t.equal(created.statusCode, 201, created.body);
  const { webhook, secret } = created.json();
  t.same(webhook.events, ['RoundPaired', 'TableFinished', 'StandingsChanged', 'TournamentBlocked', 'TournamentFinished']);
  t.notOk(JSON.stringify((await app.inject({ url: '/webhooks', headers: bearerHeader(organizer.key) })).json()).includes(secret), 'the list never shows the secret');

  const { tournament } = await createTournament(app, organizer.key, {
    name: hostile, gameType: 'pechvogel', format: { kind: 'swiss', rounds: 2, tableSize: { min: 3, max: 3 }, byes: false }, settings: quick,
    players: Array.from({ length: 6 }, (_, i) => ({ name: `Bot ${i}`, bot: 'greedy' })),
  });
  await app.inject({ method: 'POST', url: `/tournaments/${tournament.id}/rounds`, headers: bearerHeader(organizer.key), payload: {} });
  await app.inject({ method: 'POST', url: `/tournaments/${tournament.id}/players/p6/withdraw`, headers: bearerHeader(organizer.key) });
  await playOn(app, clock, async () => (await app.inject({ url: `/tournaments/${tournament.id}` })).json().blocked !== null);
  await app.services.dispatcher.idle();
  const types = () => received.filter((r) => r.headers['spielwerk-event'] !== undefined).map((r) => JSON.parse(r.body).type as string);
  t.same([...new Set(types())].sort(), ['RoundPaired', 'StandingsChanged', 'TableFinished', 'TournamentBlocked'], 'round paired, tables finished, standings, blocked');
  t.ok(received.every((r) => verified(secret, clock, r)), 'every delivery verifies with the secret');
  const blocked = received.map((r) => JSON.parse(r.body)).find((b) => b.type === 'TournamentBlocked');
  t.match(blocked, { tournament: { id: tournament.id, name: hostile }, event: { type: 'TournamentBlocked', round: 2 } });
  t.equal(blocked.id, received.find((r) => JSON.parse(r.body).type === 'TournamentBlocked')!.headers['spielwerk-delivery']);

  const log = async (status?: string) => (await app.inject({ url: `/webhooks/${webhook.id}/deliveries${status ? `?status=${status}` : ''}`, headers: bearerHeader(organizer.key) })).json().deliveries;
  const waiting = await log('pending');
  t.same(waiting.map((d: { type: string }) => d.type), ['StandingsChanged'], 'the failed one waits for its retry');
  t.same(waiting[0].log.map((a: { status: number }) => a.status), [500]);
  clock.now += 9_000;
  app.services.dispatcher.wake();
  await app.services.dispatcher.idle();
  t.equal((await log('pending')).length, 1, 'not before its backoff');
  clock.now += 1_000;
  app.services.dispatcher.wake();
  await app.services.dispatcher.idle();
  const standings = (await log()).find((d: { type: string }) => d.type === 'StandingsChanged');
  t.same([standings.status, standings.attempts, standings.log.map((a: { status: number }) => a.status)], ['delivered', 2, [500, 200]], 'delivered on the second attempt');
  t.equal(new Set(received.map((r) => r.headers['spielwerk-delivery'])).size, (await log()).length, 'one delivery per event, whatever the retries');
});

t.test('deliveries survive a restart, and two instances never both send one', async (t) => {
  const database = await testDatabase(t);
  const clock = testClock();
  let failing = true;
  const { url, received } = await receiver(t, () => (failing ? 503 : 200));
  const first = await testApp(t, { clock, database, webhooks: { allowPrivate: true } });
  const organizer = await createOrganizer(first);
  const { webhook } = (await first.inject({ method: 'POST', url: '/webhooks', headers: bearerHeader(organizer.key), payload: { url, events: ['PlayerRegistered', 'RoundPaired'] } })).json();
  const { tournament } = await createTournament(first, organizer.key, { name: 'Zwei', gameType: 'pechvogel', format: { kind: 'swiss', rounds: 1, tableSize: { min: 3, max: 3 }, byes: true }, settings: { advance: 'organizer' }, players: Array.from({ length: 12 }, (_, i) => ({ name: `Bot ${i}`, bot: 'greedy' })) });
  await first.services.dispatcher.idle();
  t.equal(received.length, 12, 'twelve registrations tried once, refused by the receiver');
  await first.close();

  // The instance is gone; the deliveries are in the database. Two new instances take over.
  failing = false;
  const second = await testApp(t, { clock, database, webhooks: { allowPrivate: true } });
  const third = await testApp(t, { clock, database, webhooks: { allowPrivate: true } });
  await second.inject({ method: 'POST', url: `/tournaments/${tournament.id}/rounds`, headers: bearerHeader(organizer.key), payload: {} });
  clock.now += 10_000;
  for (let i = 0; i < 5; i++) {
    second.services.dispatcher.wake();
    third.services.dispatcher.wake();
  }
  await Promise.all([second.services.dispatcher.idle(), third.services.dispatcher.idle()]);
  const deliveries = (await third.inject({ url: `/webhooks/${webhook.id}/deliveries`, headers: bearerHeader(organizer.key) })).json().deliveries;
  t.equal(deliveries.length, 13, 'twelve registrations and the round');
  t.ok(deliveries.every((d: { status: string }) => d.status === 'delivered'), 'all delivered after the restart');
  const delivered = received.slice(12).map((r) => r.headers['spielwerk-delivery']);
  t.equal(delivered.length, 13, 'each sent once more in all, by one of the two instances');
  t.equal(new Set(delivered).size, 13);
});

t.test('loopback and private URLs are refused unless allowed; bad input changes nothing', async (t) => {
  const database = await testDatabase(t);
  const app = await testApp(t, { database });
  const organizer = await createOrganizer(app);
  const reader = await createOrganizer(app, ['results:read'], 'Leser');
  const post = (payload: object, key = organizer.key) => app.inject({ method: 'POST', url: '/webhooks', headers: bearerHeader(key), payload });
  for (const [url, code] of [
    ['http://127.0.0.1:9/hook', 'webhook/url-refused'],
    ['http://localhost:9/hook', 'webhook/url-refused'],
    ['http://[::1]:9/hook', 'webhook/url-refused'],
    ['http://10.1.2.3/hook', 'webhook/url-refused'],
    ['http://169.254.169.254/latest/meta-data', 'webhook/url-refused'],
    ['ftp://93.184.215.14/hook', 'webhook/url-refused'],
    ['http://user:pw@93.184.215.14/hook', 'webhook/url-refused'],
    [hostile, 'request/invalid'],
  ] as const) {
    const refused = await post({ url });
    t.same([refused.statusCode >= 400, refused.json().code], [true, code], url);
  }
  t.equal((await post({ url: 'http://93.184.215.14/hook', events: ['NoSuchEvent'] })).json().code, 'request/invalid');
  t.equal((await post({ url: 'http://93.184.215.14/hook' }, reader.key)).json().code, 'auth/scope-missing');
  t.equal(await database.prisma.webhook.count(), 0, 'nothing was stored');
  const ok = await post({ url: 'http://93.184.215.14/hook' });
  t.equal(ok.statusCode, 201, 'a public address is taken');
  const other = await createOrganizer(app, undefined, 'Andere');
  t.equal((await app.inject({ url: `/webhooks/${ok.json().webhook.id}/deliveries`, headers: bearerHeader(other.key) })).json().code, 'webhook/not-found', "another organizer's webhook is not found");
  t.equal((await app.inject({ method: 'DELETE', url: `/webhooks/${ok.json().webhook.id}`, headers: bearerHeader(organizer.key) })).json().deleted, ok.json().webhook.id);
  t.equal(await database.prisma.webhook.count(), 0);
});
