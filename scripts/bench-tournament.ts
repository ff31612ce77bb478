// `npm run bench:tournament -- [--game all|pechvogel,…] [--players 1024] [--table 4|4-5] [--rounds 7] [--exports 1] [--max-seconds 900]`
// Swiss tournaments played end to end by server bots through the service (the app in
// this process, driven through app.inject, on a fresh database): creating each with
// every player, each round paired and its games created in one transaction, every
// table played by the bots, the standings and every export. Deadlines are passed by
// moving the app's clock, so no game waits on real time. `--game all` (the default)
// plays the four games one after another at their usual table sizes (Pechvogel 4,
// Fackel+Keule 4–5, Mistkäfer 3–4, Porca Miseria 5–6; `--table` sets one for all).
// Prints one JSON line per game. `--exports N` times each export N times. Bounded:
// past --max-seconds a game stops after the round under way and says so.
// Database: $DATABASE_URL's server (the role needs CREATEDB), else an embedded one.
import os from 'node:os';
import { buildApp } from '../src/app.ts';
import { createClients } from '../src/db/client.ts';
import { pairRound } from '../src/domain/tournament/pairing.ts';
import { fold } from '../src/tournaments/log.ts';
import { activePlayers, allByes, allResults } from '../src/tournaments/log.ts';
import { databaseUrl, startTestServer, withAdmin } from '../test/helpers/test-server.ts';
import { parseOptions } from './lib.ts';

const values = parseOptions(import.meta.url, {
  game: { type: 'string', default: 'all' },
  players: { type: 'string', default: '1024' },
  table: { type: 'string' },
  rounds: { type: 'string', default: '7' },
  exports: { type: 'string', default: '1' },
  'max-seconds': { type: 'string', default: '900' },
});
const players = Number(values.players);
const rounds = Number(values.rounds);
const exportRuns = Number(values.exports);
const maxMs = Number(values['max-seconds']) * 1000;
/** Each game at the table size it is usually played at. */
const usualTable: Record<string, string> = { pechvogel: '4', 'fackel-und-keule': '4-5', mistkaefer: '3-4', 'porca-miseria': '5-6' };
const games = values.game === 'all' ? Object.keys(usualTable) : values.game.split(',');
const fastOptions: Record<string, Record<string, unknown>> = { pechvogel: { reactionSeconds: 1 }, 'porca-miseria': { windowMs: 500, revealMs: 500 } };
const adminKey = `sw_bench_${'x'.repeat(40)}`;

const server = await startTestServer();
const database = `${server.prefix}bench`;
await withAdmin(server.adminUrl, (client) => client.query(`CREATE DATABASE ${client.escapeIdentifier(database)} TEMPLATE ${client.escapeIdentifier(server.template)}`));
const clients = createClients(databaseUrl(server.adminUrl, database), { poolSize: 10 });
let offset = 0;
const clock = () => Date.now() + offset;
const app = await buildApp({ prisma: clients.prisma, pool: clients.pool, clock, adminKey, scheduler: { timers: false }, tournamentPollMs: 0 });
await app.ready();

const ms = (since: number) => Math.round(performance.now() - since);
const inject = async (method: 'GET' | 'POST', url: string, key: string, payload?: unknown, headers: Record<string, string> = {}) => {
  const response = await app.inject({ method, url, headers: { authorization: `Bearer ${key}`, ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body.slice(0, 500)}`);
  return response;
};
/** Milliseconds of each of `--exports` requests, and the size of the last answer. */
const timed = async (url: string, key: string, headers: Record<string, string> = {}) => {
  const runs: number[] = [];
  let bytes = 0;
  for (let k = 0; k < exportRuns; k++) {
    const started = performance.now();
    bytes = (await inject('GET', url, key, undefined, headers)).rawPayload.length;
    runs.push(ms(started));
  }
  return { ms: runs, bytes };
};

async function bench(organizerKey: string, game: string, figures: Record<string, unknown>): Promise<void> {
  const [min, max = min] = (values.table ?? usualTable[game] ?? '4').split('-').map(Number);
  figures.tableSize = { min, max };
  const bots = ['greedy', 'random'];
  let started = performance.now();
  const created = (await inject('POST', '/tournaments', organizerKey, {
    name: `Bench ${game}`, gameType: game, format: { kind: 'swiss', rounds, tableSize: { min, max }, byes: true },
    settings: { options: fastOptions[game] ?? {}, advance: 'organizer' },
    players: Array.from({ length: players }, (_, i) => ({ name: `Bot ${i + 1}`, bot: bots[i % 2]!, externalId: `bench-${game}-${i + 1}` })),
  })).json();
  figures.createTournamentMs = ms(started);
  const id: string = created.tournament.id;
  const perRound: Record<string, unknown>[] = [];
  const runStarted = performance.now();
  for (let round = 1; round <= rounds; round++) {
    // The pairing alone, on the same input the service is about to pair.
    const state = fold(id, (await app.services.tournamentStore.readEvents(id)).map((e) => e.event));
    started = performance.now();
    const pairing = pairRound({ format: state.format, round, players: activePlayers(state).map((p) => ({ id: p.id })), results: allResults(state), byes: allByes(state), seed: state.seed });
    const pairingMs = ms(started);
    started = performance.now();
    const paired = (await inject('POST', `/tournaments/${id}/rounds`, organizerKey, { round })).json();
    const pairAndCreateMs = ms(started);
    started = performance.now();
    let steps = 0;
    for (;;) {
      await app.services.bots.idle();
      await app.services.tournaments.idle();
      const summary = (await inject('GET', `/tournaments/${id}`, organizerKey)).json();
      if (summary.rounds[round - 1].tables.every((t: { finished: boolean }) => t.finished)) break;
      offset += 60_000;
      await app.services.scheduler.runDue();
      steps++;
    }
    perRound.push({ round, tables: paired.tables.length, pairingMs, pairAndCreateMs, repeats: 'violation' in pairing ? null : pairing.repeats, playMs: ms(started), deadlineSteps: steps });
    if (performance.now() - runStarted > maxMs && round < rounds) {
      figures.stoppedEarly = `after round ${round}: --max-seconds ${values['max-seconds']} passed`;
      break;
    }
  }
  figures.rounds = perRound;
  figures.maxPairingMs = Math.max(...perRound.map((r) => r.pairingMs as number));
  figures.maxPairAndCreateMs = Math.max(...perRound.map((r) => r.pairAndCreateMs as number));
  figures.playAllMs = ms(runStarted);
  const { rows } = await clients.pool.query(
    `SELECT count(*)::int AS games, coalesce(sum(g.version), 0)::int AS events FROM game g JOIN tournament_table t ON t.game_id = g.id WHERE t.tournament_id = $1`,
    [id],
  );
  figures.games = rows[0].games;
  figures.gameEvents = rows[0].events;
  started = performance.now();
  const standings = (await inject('GET', `/tournaments/${id}/standings`, organizerKey)).json();
  figures.standingsMs = ms(started);
  figures.leader = standings.standings[0];
  figures.standingsCsv = await timed(`/tournaments/${id}/standings?format=csv`, organizerKey);
  figures.gamesNdjsonGzip = await timed(`/tournaments/${id}/games.ndjson`, organizerKey, { 'accept-encoding': 'gzip' });
  figures.archiveGzip = await timed(`/tournaments/${id}/archive`, organizerKey, { 'accept-encoding': 'gzip' });
}

try {
  const organizer = (await inject('POST', '/organizers', adminKey, { name: 'Bench', key: { name: 'bench', scopes: ['tournaments:run', 'results:read'] } })).json();
  for (const game of games) {
    const figures: Record<string, unknown> = { game, players, roundsAsked: rounds };
    try {
      await bench(organizer.key, game, figures);
    } finally {
      figures.machine = { cpus: os.cpus().length, loadavg: os.loadavg().map((l) => Math.round(l * 100) / 100), note: 'the CPU is shared with other engineers\' work: figures are noisy' };
      console.log(JSON.stringify(figures));
    }
  }
} finally {
  await app.close();
  await clients.close();
  await server.stop();
}
