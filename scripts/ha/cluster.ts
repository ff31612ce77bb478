// The HA stack of docs/ha.md on one machine, from Debian's packages: one etcd, a
// PostgreSQL 15 node per Patroni (a primary and its synchronous standby), and HAProxy,
// which routes to whichever node Patroni's REST API names primary. Every port is in
// 55400-55499, every file in the run's folder; teardown stops and removes all of it.
import { chmod, chown, mkdir, readFile, writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createNetwork, loopbackNetwork, namespacesWork, type Network, type NodeHost } from './network.ts';
import { spawnLogged, waitFor, type Logged, type Teardown } from './processes.ts';

export const ports = {
  etcdClient: 55400,
  etcdPeer: 55401,
  /** HAProxy: the primary's Postgres. */
  primary: 55402,
  /** HAProxy: the service's instances. */
  service: 55403,
  postgres: (node: number) => 55401 + 10 * node,
  rest: (node: number) => 55402 + 10 * node,
  instance: (n: number) => 55440 + n,
} as const;

/** How fast Patroni notices and acts: see docs/ha.md, "The settings that matter". */
const patroniTiming = { ttl: 10, loop_wait: 1, retry_timeout: 4 } as const;

const binDir = '/usr/lib/postgresql/15/bin';

export interface HaNode {
  readonly name: string;
  readonly host: NodeHost;
  readonly dataDir: string;
  readonly restUrl: string;
  readonly patroni: Logged;
}

export interface ClusterState {
  readonly leader: HaNode | null;
  /** The node Patroni would promote: the synchronous standby, streaming. */
  readonly syncStandby: HaNode | null;
}

export interface HaCluster {
  /** The superuser's URL of database `name`, through HAProxy to the primary. */
  url(name: string): string;
  /** Whether nodes can be cut off the network (network namespaces work here). */
  readonly canCut: boolean;
  readonly network: Network;
  /** Patroni's view of the cluster, asked of any node that answers. */
  state(): Promise<ClusterState>;
  /** Waits for a leader and a synchronous standby that streams from it. */
  healthy(timeoutMs: number): Promise<{ leader: HaNode; syncStandby: HaNode }>;
  /** kill -9 of the node's postmaster; returns its pid. */
  killPostmaster(node: HaNode): Promise<number>;
}

export interface ClusterOptions {
  readonly dir: string;
  readonly nodes: number;
  /** Synchronous replication (the default); off for a comparison's single node. */
  readonly synchronous?: boolean;
  /** The service's instances HAProxy balances over (default 3). */
  readonly instances?: number;
}

export async function startCluster(teardown: Teardown, options: ClusterOptions): Promise<HaCluster> {
  const { dir } = options;
  // Postgres refuses to run as root: Patroni, and the servers it starts, run as postgres.
  const postgres = await postgresUser();
  await chmod(dir, 0o755);
  const canCut = await namespacesWork();
  const network = canCut ? await createNetwork(teardown, options.nodes) : loopbackNetwork(options.nodes);
  const etcdUrl = `http://${network.gateway}:${ports.etcdClient}`;
  const etcdDir = path.join(dir, 'etcd');
  await mkdir(etcdDir, { mode: 0o700 });
  const peer = `http://${network.gateway}:${ports.etcdPeer}`;
  spawnLogged(teardown, 'etcd', [
    '--name', 'etcd1', '--data-dir', etcdDir,
    '--listen-client-urls', etcdUrl, '--advertise-client-urls', etcdUrl,
    '--listen-peer-urls', peer, '--initial-advertise-peer-urls', peer,
    '--initial-cluster', `etcd1=${peer}`, '--initial-cluster-token', `spielwerk-ha-${process.pid}`,
  ], path.join(dir, 'etcd.log'));
  await waitFor('etcd to answer', 20_000, async () => ((await fetch(`${etcdUrl}/health`)).ok ? true : undefined));

  const nodes: HaNode[] = [];
  for (let n = 1; n <= options.nodes; n++) {
    const name = `node${n}`;
    const host = network.hosts[n - 1]!;
    const nodeDir = path.join(dir, name);
    const dataDir = path.join(nodeDir, 'data');
    await mkdir(nodeDir, { mode: 0o700 });
    await chown(nodeDir, postgres.uid, postgres.gid);
    const configFile = path.join(nodeDir, 'patroni.yml');
    // JSON is YAML.
    await writeFile(configFile, JSON.stringify(patroniConfig({ name, host, nodeDir, dataDir, etcdUrl, synchronous: options.synchronous ?? true, node: n })));
    const command = [...host.exec, 'setpriv', `--reuid=${postgres.uid}`, `--regid=${postgres.gid}`, '--init-groups', 'patroni', configFile];
    // A postmaster outlives a Patroni that was killed: it is stopped after its Patroni.
    teardown.add(`killing what is left of ${name}'s postmaster`, () => killPostmasterOf(dataDir).catch(() => undefined));
    const patroni = spawnLogged(teardown, command[0]!, command.slice(1), path.join(dir, `${name}.log`), { ...process.env, HOME: nodeDir });
    nodes.push({ name, host, dataDir, restUrl: `http://${host.address}:${ports.rest(n)}`, patroni });
    // The first node bootstraps the cluster; the others copy it once it leads.
    if (n === 1) await waitFor('the first node to lead', 60_000, async () => ((await fetch(`${nodes[0]!.restUrl}/primary`)).ok ? true : undefined), 300);
  }
  // All at once, while etcd and the network are still there: each Patroni stops its
  // Postgres cleanly (what a kill left running is killed after it, above).
  teardown.add('stopping the Patroni nodes', () => Promise.all(nodes.map((node) => node.patroni.stop(15_000))));

  const haproxyConfig = path.join(dir, 'haproxy.cfg');
  await writeFile(haproxyConfig, haproxyConfigText(dir, nodes, options.instances ?? 3));
  await writeFile(path.join(dir, '503.http'), retryLater);
  spawnLogged(teardown, 'haproxy', ['-db', '-f', haproxyConfig], path.join(dir, 'haproxy.log'));

  const byName = (name: unknown) => nodes.find((node) => node.name === name) ?? null;
  const state = async (): Promise<ClusterState> => {
    let failure: unknown;
    for (const node of nodes) {
      try {
        const response = await fetch(`${node.restUrl}/cluster`, { signal: AbortSignal.timeout(1000) });
        const { members } = (await response.json()) as { members: { name: string; role: string; state: string }[] };
        const running = (role: string) => byName(members.find((m) => m.role === role && m.state === 'running')?.name);
        return { leader: running('leader'), syncStandby: running('sync_standby') };
      } catch (error) {
        failure = error;
      }
    }
    throw failure;
  };
  const cluster: HaCluster = {
    url: (name) => `postgresql://postgres@127.0.0.1:${ports.primary}/${name}`,
    canCut,
    network,
    state,
    healthy: (timeoutMs) =>
      waitFor('a primary with a synchronous standby', timeoutMs, async () => {
        const { leader, syncStandby } = await state();
        if (leader === null || syncStandby === null) return undefined;
        // Patroni names the standby; the primary says it streams synchronously.
        const streaming = await queryOnce(cluster.url('postgres'), "SELECT count(*)::int AS n FROM pg_stat_replication WHERE sync_state = 'sync' AND state = 'streaming'");
        return streaming[0]?.n === 1 ? { leader, syncStandby } : undefined;
      }, 250),
    killPostmaster: (node) => killPostmasterOf(node.dataDir),
  };
  await waitFor('HAProxy to reach the primary', 20_000, async () => ((await queryOnce(cluster.url('postgres'), 'SELECT 1 AS n'))[0]?.n === 1 ? true : undefined));
  return cluster;
}

/** kill -9 of the postmaster of `dataDir`, found by its postmaster.pid; a stale file
 * (the pid reused by some other process since) is refused. */
async function killPostmasterOf(dataDir: string): Promise<number> {
  const pid = Number((await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8');
  if (!commandLine.includes(dataDir)) throw new Error(`pid ${pid} is not the postmaster of ${dataDir}`);
  process.kill(pid, 'SIGKILL');
  return pid;
}

async function postgresUser(): Promise<{ uid: number; gid: number }> {
  if (userInfo().uid !== 0) throw new Error('the failover test runs as root: it makes network namespaces and starts Postgres as the postgres user');
  const line = (await readFile('/etc/passwd', 'utf8')).split('\n').find((l) => l.startsWith('postgres:'));
  if (line === undefined) throw new Error('there is no postgres user: is Debian\'s postgresql-15 installed?');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** One statement on a connection of its own, closed again; fails within 2 s. */
export async function queryOnce(url: string, sql: string): Promise<any[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000, query_timeout: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.query(sql)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

interface NodeConfig {
  readonly name: string;
  readonly node: number;
  readonly host: NodeHost;
  readonly nodeDir: string;
  readonly dataDir: string;
  readonly etcdUrl: string;
  readonly synchronous: boolean;
}

/** A Patroni node's configuration; docs/ha.md explains the settings. */
function patroniConfig({ name, node, host, nodeDir, dataDir, etcdUrl, synchronous }: NodeConfig) {
  const rest = `${host.address}:${ports.rest(node)}`;
  const postgresAt = `${host.address}:${ports.postgres(node)}`;
  const trust = ['local all all trust', 'host all all 0.0.0.0/0 trust', 'host replication all 0.0.0.0/0 trust'];
  return {
    scope: 'spielwerk',
    name,
    log: { level: 'INFO' },
    restapi: { listen: rest, connect_address: rest },
    etcd3: { hosts: [etcdUrl.replace('http://', '')], protocol: 'http' },
    bootstrap: {
      dcs: {
        ...patroniTiming,
        primary_start_timeout: 0,
        maximum_lag_on_failover: 1048576,
        synchronous_mode: synchronous,
        synchronous_mode_strict: false,
        postgresql: {
          use_pg_rewind: true,
          use_slots: true,
          parameters: {
            synchronous_commit: 'on',
            wal_log_hints: 'on',
            wal_keep_size: '128MB',
            max_connections: 100,
            max_wal_senders: 10,
            max_replication_slots: 10,
            shared_buffers: '64MB',
            // A standby that vanished (or a primary cut off) is given up after this, not 60 s.
            wal_sender_timeout: '5s',
            wal_receiver_timeout: '5s',
          },
        },
      },
      initdb: [{ encoding: 'UTF8' }, { locale: 'C' }],
    },
    postgresql: {
      listen: postgresAt,
      connect_address: postgresAt,
      data_dir: dataDir,
      bin_dir: binDir,
      pgpass: path.join(nodeDir, 'pgpass'),
      use_unix_socket: true,
      remove_data_directory_on_rewind_failure: true,
      remove_data_directory_on_diverged_timelines: true,
      pg_hba: trust,
      authentication: {
        superuser: { username: 'postgres', password: 'postgres' },
        replication: { username: 'replicator', password: 'replicator' },
        rewind: { username: 'postgres', password: 'postgres' },
      },
      parameters: { unix_socket_directories: nodeDir, port: ports.postgres(node) },
    },
    watchdog: { mode: 'off' },
  };
}

/** HAProxy's own answer when no instance can serve: the service's problem document for
 * an unavailable database, with Retry-After, so a client sees one contract. */
const retryLater = [
  'HTTP/1.1 503 Service Unavailable',
  'Content-Type: application/problem+json',
  'Retry-After: 2',
  'Cache-Control: no-store',
  'Connection: close',
  '',
  JSON.stringify({ type: 'about:blank', status: 503, title: 'Service Unavailable', code: 'server/unavailable', detail: 'no instance can serve right now; retry shortly (a command with the same Idempotency-Key)', retryAfter: 2 }),
  '',
].join('\r\n');

function haproxyConfigText(dir: string, nodes: readonly HaNode[], instances: number): string {
  const servers = Array.from({ length: instances }, (_, i) => `  server instance${i + 1} 127.0.0.1:${ports.instance(i + 1)} check`);
  return `global
  maxconn 2000

defaults
  timeout connect 1s
  timeout check 1s

# The primary's Postgres: only the node whose Patroni answers /primary with 200. When a
# node stops being primary its connections are cut at once, so nothing goes on talking
# to a node that is no longer primary.
listen postgres
  mode tcp
  bind 127.0.0.1:${ports.primary}
  timeout client 30m
  timeout server 30m
  option httpchk OPTIONS /primary
  http-check expect status 200
  default-server inter 500ms fastinter 250ms fall 2 rise 1 on-marked-down shutdown-sessions
${nodes.map((node, i) => `  server ${node.name} ${node.host.address}:${ports.postgres(i + 1)} check port ${ports.rest(i + 1)}`).join('\n')}

# The service's instances, each taken out while /ready says it cannot serve.
listen service
  mode http
  bind 127.0.0.1:${ports.service}
  balance roundrobin
  timeout client 60s
  timeout server 60s
  timeout tunnel 1h
  option httpchk GET /ready
  errorfile 503 ${path.join(dir, '503.http')}
  default-server inter 1s fall 2 rise 1
${servers.join('\n')}
`;
}
