// `npm run bench:replication -- [--games 1,50] [--seconds 20] [--warmup 3]`
// What synchronous replication costs a command: `npm run bench` against one instance of
// the service on the HA stack of docs/ha.md (Patroni, etcd, HAProxy; as root, on ports
// 55400-55499), first with one PostgreSQL node, then with a primary and a synchronous
// standby (each node in a network namespace of its own, as `npm run test:failover`
// sets them up), the same settings otherwise. Each --games value is one bench run per
// layout; each run prints the bench's JSON line with the layout added. Everything is
// removed at the end.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { queryOnce, startCluster } from './ha/cluster.ts';
import { ensurePackages } from './ha/debian.ts';
import { Teardown } from './ha/processes.ts';
import { parseOptions } from './lib.ts';
import { build, root, startServer } from './server-process.ts';

const args = parseOptions(import.meta.url, {
  games: { type: 'string', default: '1,50' },
  seconds: { type: 'string', default: '20' },
  warmup: { type: 'string', default: '3' },
}, ['seconds', 'warmup']);
const games = args.games.split(',').map(Number);

/** What the layout being measured has started, taken down after it or on a signal. */
let current = new Teardown();
process.once('SIGINT', () => void current.run().then(() => process.exit(130)));
process.once('SIGTERM', () => void current.run().then(() => process.exit(143)));

/** `npm run bench` against `url`; its JSON line. */
async function bench(url: string, concurrent: number): Promise<Record<string, unknown>> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench.ts', '--url', url, '--games', String(concurrent), '--seconds', String(args.seconds), '--warmup', String(args.warmup)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await once(child, 'exit');
  return JSON.parse(output.trim().split('\n').at(-1) ?? '{}');
}

await ensurePackages((line) => console.error(`# ${line}`));
build();
for (const nodes of [1, 2]) {
  const layout = nodes === 1 ? 'one node' : 'primary + synchronous standby';
  const dir = await mkdtemp(path.join(os.tmpdir(), 'spielwerk-ha-bench-'));
  current = new Teardown();
  current.add('removing the run folder', () => rm(dir, { recursive: true, force: true }));
  try {
    const cluster = await startCluster(current, { dir, nodes, synchronous: nodes > 1, instances: 0 });
    if (nodes > 1) await cluster.healthy(90_000);
    await queryOnce(cluster.url('postgres'), 'CREATE DATABASE spielwerk');
    const server = await startServer(cluster.url('spielwerk'), { env: { RATE_LIMIT_COMMANDS_PER_SECOND: '0', RATE_LIMIT_GAMES_PER_MINUTE: '0' } });
    current.add('stopping the instance', () => server.stop());
    for (const concurrent of games) console.log(JSON.stringify({ layout, ...(await bench(server.base, concurrent)) }));
  } finally {
    await current.run();
  }
}
