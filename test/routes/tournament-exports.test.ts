// Exports: every game as NDJSON (plain and gzipped), and a whole-tournament archive
// that another instance, on another database, imports and replays identically.
import { gunzipSync } from 'node:zlib';
import t from 'tap';
import { EventStore } from '../../src/events/store.ts';
import { TournamentArchives } from '../../src/tournaments/archive.ts';
import { countingPool, testDatabase } from '../helpers/database.ts';
import { bearerHeader, createOrganizer, testApp, testClock } from '../helpers/app.ts';
import { acceptsGzip } from '../../src/routes/tournaments.ts';
import { botPlayers, createTournament, playOn, tournamentStatus } from '../helpers/tournaments.ts';

const text = async (chunks: AsyncIterable<string>) => {
  let all = '';
  for await (const chunk of chunks) all += chunk;
  return all;
};

t.test('an archive exported from one database imports into another and replays identically', async (t) => {
  const clock = testClock();
  const sourceDatabase = await testDatabase(t);
  const source = await testApp(t, { clock, database: sourceDatabase });
  const organizer = await createOrganizer(source);
  const { tournament } = await createTournament(source, organizer.key, {
    name: 'Export', gameType: 'pechvogel', format: { kind: 'swiss', rounds: 2, tableSize: { min: 3, max: 4 }, byes: false }, settings: { options: { reactionSeconds: 1 } }, players: botPlayers(7),
  });
  const id = tournament.id;
  await source.inject({ method: 'POST', url: `/tournaments/${id}/rounds`, headers: bearerHeader(organizer.key), payload: {} });
  await playOn(source, clock, async () => (await tournamentStatus(source, id)) === 'finished');
  // A table's own bot think time goes with it (tables take the server's, null, as the
  // others here; the archive's format carries any game's).
  const paced = (await source.inject({ url: `/games?limit=1` })).json().games[0].id as string;
  await sourceDatabase.pool.query('UPDATE game SET bot_think_ms = 700 WHERE id = $1::uuid', [paced]);

  const ndjson = await source.inject({ url: `/tournaments/${id}/games.ndjson`, headers: bearerHeader(organizer.key) });
  t.equal(ndjson.statusCode, 200);
  t.equal(ndjson.headers['content-type'], 'application/x-ndjson; charset=utf-8');
  t.equal(ndjson.headers['content-disposition'], `attachment; filename="tournament-${id}-games.ndjson"`);
  t.equal(ndjson.headers['vary'], 'accept-encoding', 'the answer depends on Accept-Encoding, gzipped or not');
  t.notOk(ndjson.headers['content-encoding'], 'not gzipped unless asked');
  const lines = ndjson.body.trim().split('\n').map((line) => JSON.parse(line));
  t.equal(lines.length, 4, '7 players at a table of 4 and one of 3, twice');
  t.ok(lines.every((g) => g.status === 'finished' && g.events.length === g.version && g.seed !== null), 'each finished game with all its events and its seed');
  t.notOk(ndjson.body.includes('tokenHash') || ndjson.body.includes('refereeTokenHash'), 'no token hashes in the games export');
  const zipped = await source.inject({ url: `/tournaments/${id}/games.ndjson`, headers: { ...bearerHeader(organizer.key), 'accept-encoding': 'gzip' } });
  t.equal(zipped.headers['content-encoding'], 'gzip');
  t.equal(gunzipSync(zipped.rawPayload).toString(), ndjson.body, 'gzipped, the same lines');
  const noGzip = await source.inject({ url: `/tournaments/${id}/games.ndjson`, headers: { ...bearerHeader(organizer.key), 'accept-encoding': 'gzip;q=0, identity' } });
  t.notOk(noGzip.headers['content-encoding'], 'gzip;q=0 refuses gzip');
  t.equal(noGzip.body, ndjson.body);
  const csv = await source.inject({ url: `/tournaments/${id}/standings?format=csv` });
  t.equal(csv.headers['content-type'], 'text/csv; charset=utf-8');
  t.equal(csv.headers['content-disposition'], `attachment; filename="tournament-${id}-standings.csv"`);
  t.equal((await source.inject({ url: `/tournaments/${id}/games.ndjson` })).json().code, 'auth/key-required', 'exports need a key');

  // Reading the games: one query for a batch's records and one for their events, not two a game.
  const counting = countingPool(sourceDatabase.pool);
  const counted = new TournamentArchives(source.services.tournamentStore, new EventStore(sourceDatabase.prisma, counting.pool), 3);
  const state = await source.services.tournaments.state(id);
  t.equal(await text(counted.gameLines(state)), ndjson.body, 'the same lines, read in batches of 3');
  t.equal(counting.queries, 4, `the ${lines.length} games' lines in two batches of two queries`);
  const streamedArchive = JSON.parse(await text(counted.export(state)));
  t.equal(counting.queries, 8, 'and the archive in two more batches');
  t.same(streamedArchive.games.map((g: { record: { id: string } }) => g.record.id), lines.map((g) => g.id), 'every game once, in table order');

  const archived = await source.inject({ url: `/tournaments/${id}/archive`, headers: { ...bearerHeader(organizer.key), 'accept-encoding': 'gzip' } });
  t.equal(archived.headers['content-encoding'], 'gzip');
  t.equal(archived.headers['content-type'], 'application/json; charset=utf-8');
  t.equal(archived.headers['content-disposition'], `attachment; filename="tournament-${id}-archive.json"`);
  const archive = JSON.parse(gunzipSync(archived.rawPayload).toString());
  t.same(archive, streamedArchive, 'the archive route sends what the export streams');

  const targetDatabase = await testDatabase(t);
  const target = await testApp(t, { database: targetDatabase });
  const importer = await createOrganizer(target);
  const imported = await target.inject({ method: 'POST', url: '/tournaments/import', headers: bearerHeader(importer.key), payload: archive });
  t.equal(imported.statusCode, 201, 'imported');

  const before = (await source.inject({ url: `/tournaments/${id}` })).json();
  const after = (await target.inject({ url: `/tournaments/${id}` })).json();
  t.same({ ...after, organizerId: null }, { ...before, organizerId: null }, 'the same tournament, owned by the importer');
  t.equal(after.organizerId, importer.id);
  const strip = (view: { standings: { rating: unknown }[] }) => view.standings.map((s) => ({ ...s, rating: null }));
  t.same(strip((await target.inject({ url: `/tournaments/${id}/standings` })).json()), strip((await source.inject({ url: `/tournaments/${id}/standings` })).json()), 'the same standings');
  t.same((await target.inject({ url: `/tournaments/${id}/events` })).json(), (await source.inject({ url: `/tournaments/${id}/events` })).json(), 'the same log');
  t.equal((await target.inject({ url: `/games/${paced}` })).json().game.botThinkMs, 700, "a table's think time is imported with it");
  for (const line of lines) {
    const there = (await target.inject({ url: `/games/${line.id}/replay` })).json();
    const here = (await source.inject({ url: `/games/${line.id}/replay` })).json();
    t.same({ ...there, game: { ...there.game, organizerId: null } }, { ...here, game: { ...here.game, organizerId: null } }, `game ${line.id} replays step by step the same`);
  }

  const again = await target.inject({ method: 'POST', url: '/tournaments/import', headers: bearerHeader(importer.key), payload: archive });
  t.equal(again.json().code, 'tournament/invalid-archive', 'importing twice is refused');

  const otherDatabase = await testDatabase(t);
  const other = await testApp(t, { database: otherDatabase });
  const third = await createOrganizer(other);
  const tampered = structuredClone(archive);
  tampered.games[0].events.pop();
  const refused = await other.inject({ method: 'POST', url: '/tournaments/import', headers: bearerHeader(third.key), payload: tampered });
  t.equal(refused.json().code, 'tournament/invalid-archive', 'a game that does not replay to its record is refused');
  t.equal(await otherDatabase.prisma.tournament.count() + await otherDatabase.prisma.game.count(), 0, 'and nothing is written');
});

t.test('gzip is sent only when Accept-Encoding takes it', async (t) => {
  for (const header of ['gzip', 'br, gzip', 'deflate, gzip;q=0.5', 'x-gzip', '*', 'GZIP ; q=1.0']) t.ok(acceptsGzip(header), header);
  for (const header of [undefined, '', 'identity', 'br', 'gzip;q=0', '*;q=0', 'gzip;q=0, *', 'br, *;q=0', 'gzip;q=0.000', 'gzipped']) t.notOk(acceptsGzip(header), String(header));
});
