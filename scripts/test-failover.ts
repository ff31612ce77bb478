// `npm run test:failover -- [--short] [--kills 3] [--cut] [--no-cut] [--games 8]
//                            [--instances 3] [--keep]`
// The database fails over under load and nothing acknowledged is lost (docs/ha.md).
// Sets up on this machine (as root; Debian's packages installed when missing) etcd,
// two PostgreSQL 15 nodes under Patroni with synchronous replication, each in a
// network namespace of its own, and HAProxy in front of the primary and of --instances
// instances of the service (`node dist/server.js`). Plays --games games at once over
// HTTP through the balancer (expectedVersion, Idempotency-Key, retried), each with a
// live spectator that reconnects with after=N, while it kills the primary's postmaster
// with kill -9 --kills times and then cuts the primary off the network once (unless
// --no-cut, or where namespaces cannot be made), each time once the standby has caught
// up. Then it checks the ledger: every acknowledged command in the log exactly once,
// every spectator pushed every version once and in order, no 5xx but 503, every 503
// with Retry-After. --short (CI): 3 kills, no cut, 4 games. Everything runs on ports
// 55400-55499 and in a temporary folder, all removed at the end (--keep keeps the
// folder with every log). Prints a report, then one JSON line; exits 1 on any fault.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startCluster, queryOnce, ports, type HaNode } from './ha/cluster.ts';
import { ensurePackages } from './ha/debian.ts';
import { checkLedger } from './ha/ledger.ts';
import { Load, type Watched } from './ha/load.ts';
import { run, Teardown, waitFor } from './ha/processes.ts';
import { parseOptions, percentiles } from './lib.ts';
import { build, startServer } from './server-process.ts';

const args = parseOptions(
  import.meta.url,
  {
    short: { type: 'boolean', default: false },
    kills: { type: 'string' },
    cut: { type: 'boolean' },
    'no-cut': { type: 'boolean', default: false },
    games: { type: 'string' },
    instances: { type: 'string', default: '3' },
    keep: { type: 'boolean', default: false },
  },
  ['kills', 'games', 'instances'],
);
const kills = args.kills ?? 3;
const games = args.games ?? (args.short ? 4 : 8);
const instances = Math.min(3, Math.max(1, args.instances));
const wantCut = args['no-cut'] ? false : (args.cut ?? !args.short);
/** How long the load runs between failovers, so each one meets commands in flight. */
const steadyMs = args.short ? 2000 : 5000;

const log = (line: string) => console.log(`# ${new Date().toISOString().slice(11, 23)} ${line}`);
const teardown = new Teardown();
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true;
    log(`${signal}: taking everything down`);
    void teardown.run().then(() => process.exit(130));
  });
}
// Whatever throws outside the recipe below still takes everything down.
const crashed = (error: unknown) => {
  console.error(`the failover test crashed: ${error instanceof Error ? error.stack : String(error)}`);
  void teardown.run().then(() => process.exit(1));
};
process.on('uncaughtException', crashed);
process.on('unhandledRejection', crashed);

interface Failover {
  readonly kind: 'kill -9' | 'network cut';
  readonly from: string;
  readonly to: string;
  /** When the primary was killed or cut off (Date.now() ms). */
  readonly at: number;
  /** From the failure to Patroni naming the new primary running. */
  readonly promotedMs: number;
}

const started = Date.now();
let dir = '';
let failed = true;
try {
  await ensurePackages(log);
  log('building dist/');
  build();
  dir = await mkdtemp(path.join(os.tmpdir(), 'spielwerk-ha-'));
  teardown.add('removing the run folder', () => (args.keep ? log(`kept ${dir}`) : rm(dir, { recursive: true, force: true })));
  await refuseTakenPorts();
  log(`starting etcd, 2 Patroni nodes and HAProxy in ${dir}`);
  const cluster = await startCluster(teardown, { dir, nodes: 2, instances });
  await cluster.healthy(90_000);
  await queryOnce(cluster.url('postgres'), 'CREATE DATABASE spielwerk');
  const databaseUrl = cluster.url('spielwerk');
  for (let n = 1; n <= instances; n++) {
    // The first one migrates the new database; the others find it migrated.
    const server = await startServer(databaseUrl, {
      port: ports.instance(n),
      logFile: path.join(dir, `instance${n}.log`),
      env: { LOG_LEVEL: 'info', RATE_LIMIT_COMMANDS_PER_SECOND: '0', RATE_LIMIT_GAMES_PER_MINUTE: '0' },
    });
    teardown.add(`stopping instance ${n}`, () => server.stop());
  }
  const baseUrl = `http://127.0.0.1:${ports.service}`;
  await waitFor('the balancer to find the instances ready', 20_000, async () => ((await fetch(`${baseUrl}/ready`)).ok ? true : undefined));
  log(`${instances} instances behind ${baseUrl}; ${games} games at once`);

  const load = new Load(baseUrl);
  load.start(games);
  const failovers: Failover[] = [];
  const failOver = async (kind: Failover['kind'], fail: (primary: HaNode) => Promise<void>, restore?: (old: HaNode) => Promise<void>) => {
    const { leader } = await cluster.healthy(120_000);
    const ackedBefore = load.acked.length;
    await waitFor('commands to flow', 30_000, async () => (load.acked.length > ackedBefore + 20 ? true : undefined), 50);
    await sleep(steadyMs);
    const at = Date.now();
    await fail(leader);
    // Every spectator reconnects (after=N) while there is no primary.
    load.dropSpectators();
    const promoted = await waitFor('a new primary', 60_000, async () => {
      const { leader: now } = await cluster.state();
      return now !== null && now !== leader ? { node: now, at: Date.now() } : undefined;
    }, 100);
    const ackedAt = await load.firstAckSince(at, 60_000);
    failovers.push({ kind, from: leader.name, to: promoted.node.name, at, promotedMs: promoted.at - at });
    log(`${kind} of ${leader.name}: ${promoted.node.name} primary after ${promoted.at - at} ms, a command sent since acknowledged after ${ackedAt - at} ms`);
    await restore?.(leader);
  };
  for (let k = 1; k <= kills; k++) {
    await failOver('kill -9', async (primary) => {
      const pid = await cluster.killPostmaster(primary);
      log(`kill -9 ${pid}: the postmaster of ${primary.name}`);
    });
  }
  const cut = wantCut && cluster.canCut;
  if (cut) {
    await failOver(
      'network cut',
      async (primary) => {
        await cluster.network.cut(primary.host);
        log(`${primary.name} cut off the network`);
      },
      async (old) => {
        // Healed once the old primary has demoted itself, as a partition that outlasts
        // Patroni's leader lease does.
        await waitFor(`${old.name} to demote itself`, 60_000, async () => ((await roleInside(old)) === 'replica' ? true : undefined), 500);
        await cluster.network.heal(old.host);
        log(`${old.name} back on the network`);
      },
    );
  }
  await cluster.healthy(120_000);
  await sleep(steadyMs);
  log('stopping the load');
  await load.stop();
  // Every spectator catches up with what its game's log holds once the server has
  // settled: a bot's or a deadline's move can land after the player's last command,
  // and a spectator closed before it is pushed would count it as missed.
  const behind = await settleSpectators(databaseUrl, load.watched);
  await load.close();
  const ledger = await checkLedger(databaseUrl, load.acked, load.watched);
  // Each outage lasts until commands are acknowledged again after its last failed
  // answer, looked for up to the next failover.
  const unavailableMs = failovers.map(({ at }, i) => {
    const recovered = load.recoveredAt(at, failovers[i + 1]?.at ?? Date.now());
    return recovered === null ? Infinity : recovered - at;
  });
  const unavailable = percentiles(unavailableMs);
  const fiveHundreds = [...load.answers].filter(([answer]) => answer.startsWith('5') && !answer.startsWith('503')).reduce((n, [, count]) => n + count, 0);
  const faults = [...load.faults, ...ledger.faults, ...behind.map((id) => `the spectator of game ${id} did not catch up`)];
  if (failovers.length < kills + (cut ? 1 : 0)) faults.push(`only ${failovers.length} failovers happened`);
  const slow = unavailableMs.filter((ms) => ms > 15_000);
  if (slow.length > 0) faults.push(`${slow.length} failovers took more than 15 s`);

  console.log('answers:');
  for (const [answer, count] of [...load.answers].sort()) console.log(`  ${answer}: ${count}`);
  for (const fault of faults.slice(0, 30)) console.log(`FAULT ${fault}`);
  failed = faults.length > 0;
  if (failed) await printLogs(dir);
  const report = {
    ok: !failed,
    failovers: failovers.length,
    acked: ledger.acked,
    lost: ledger.lost,
    duplicated: ledger.duplicated,
    unavailable_ms_p50: unavailable.p50 ?? null,
    unavailable_ms_max: unavailable.max ?? null,
    kills: failovers.filter((f) => f.kind === 'kill -9').length,
    network_cuts: failovers.filter((f) => f.kind === 'network cut').length,
    unavailable_ms: unavailableMs,
    promoted_ms: failovers.map((f) => f.promotedMs),
    retries: load.retries,
    acked_after_retry: ledger.retried,
    answered_from_first_attempt: ledger.replayed,
    answered_503: [...load.answers].filter(([answer]) => answer.startsWith('503')).reduce((n, [, count]) => n + count, 0),
    answered_5xx_other: fiveHundreds,
    games: load.gamesCreated,
    spectators: ledger.spectators,
    spectator_reconnects: load.spectatorReconnects,
    spectator_gaps: ledger.spectatorGaps,
    spectator_duplicates: ledger.spectatorDuplicates,
    spectator_mismatches: ledger.spectatorMismatches,
    faults: faults.length,
    seconds: Math.round((Date.now() - started) / 1000),
  };
  await teardown.run();
  console.log(JSON.stringify(report));
} catch (error) {
  console.error(`the failover test failed: ${error instanceof Error ? error.stack : String(error)}`);
  if (dir !== '' && !interrupted) await printLogs(dir);
  await teardown.run();
  console.log(JSON.stringify({ ok: false, error: String(error), seconds: Math.round((Date.now() - started) / 1000) }));
}
process.exit(failed ? 1 : 0);

/** Waits until every spectator has been pushed its game's last version and no game
 * moved meanwhile (at most five rounds of 15 s); each one's `playedTo` becomes the
 * version the ledger holds it to. The games of spectators that fell behind. */
async function settleSpectators(url: string, watched: readonly Watched[]): Promise<string[]> {
  const heads = async () => {
    const rows = (await queryOnce(url, `SELECT game_id::text AS game, max(seq)::int AS head FROM event WHERE game_id = ANY('{${watched.map((w) => w.gameId).join(',')}}'::uuid[]) GROUP BY game_id`)) as { game: string; head: number }[];
    return new Map(rows.map(({ game, head }) => [game, head]));
  };
  let before = await heads();
  for (let round = 0; round < 5; round++) {
    const caughtUp = await Promise.all(watched.map((w) => w.reached(Math.max(w.playedTo, before.get(w.gameId) ?? 0), 15_000)));
    const after = await heads();
    const settled = watched.every((w) => after.get(w.gameId) === before.get(w.gameId));
    for (const w of watched) w.playedTo = Math.max(w.playedTo, before.get(w.gameId) ?? 0);
    if (settled || caughtUp.some((ok) => !ok)) return watched.filter((_, i) => !caughtUp[i]).map((w) => w.gameId);
    before = after;
  }
  return [];
}

/** The end of every log of the run, for a failure's report. */
async function printLogs(folder: string): Promise<void> {
  for (const name of (await readdir(folder)).filter((file) => file.endsWith('.log')).sort()) {
    const lines = (await readFile(path.join(folder, name), 'utf8')).trimEnd().split('\n').slice(-15);
    console.error(`--- ${name}\n${lines.join('\n')}`);
  }
}

/** Another run (or anything else) on our ports would make this one's results meaningless. */
async function refuseTakenPorts(): Promise<void> {
  const listening = await run('ss', ['-Hltn']);
  const taken = [...listening.matchAll(/:(554\d\d)\s/g)].map((m) => Number(m[1])).filter((port) => port >= 55400 && port <= 55499);
  if (taken.length > 0) throw new Error(`ports ${[...new Set(taken)].join(', ')} are in use: is another failover test running?`);
}

/** The role Patroni gives itself on `node`, asked from inside its namespace (a node
 * cut off the network is reachable from there alone). */
async function roleInside(node: HaNode): Promise<string | undefined> {
  const script = `fetch(${JSON.stringify(`${node.restUrl}/patroni`)}).then(r => r.json()).then(j => console.log(j.role + ' ' + j.state))`;
  const answer = (await run(node.host.exec[0]!, [...node.host.exec.slice(1), process.execPath, '-e', script])).trim();
  const [role, state] = answer.split(' ');
  return state === 'running' ? role : undefined;
}
