// The database nodes of the failover test as hosts of their own: each in a network
// namespace (ip netns) with one veth link to a bridge on this machine, where etcd and
// HAProxy run. Taking a node's link down cuts it off the network without a reset:
// packets to and from it are dropped, as in a real partition. Everything here is named
// after this process's id, and removed at teardown.
import { run, type Teardown } from './processes.ts';

export interface NodeHost {
  /** The node's address, reachable from this machine and from the other nodes. */
  readonly address: string;
  /** Runs a command inside the node's namespace: the prefix to put before it. */
  readonly exec: readonly string[];
  /** This machine's end of the node's link. */
  readonly link: string;
}

export interface Network {
  /** This machine's address on the bridge: etcd listens here. */
  readonly gateway: string;
  readonly hosts: readonly NodeHost[];
  cut(host: NodeHost): Promise<void>;
  heal(host: NodeHost): Promise<void>;
}

/** Whether this machine lets us make network namespaces (root, and a kernel that has them). */
export async function namespacesWork(): Promise<boolean> {
  const probe = `swha${process.pid}probe`;
  try {
    await run('ip', ['netns', 'add', probe]);
    await run('ip', ['netns', 'delete', probe]);
    return true;
  } catch {
    return false;
  }
}

/** A /24 on 10.254.x.0 that no route of this machine uses yet. */
async function freeSubnet(): Promise<string> {
  const routes = await run('ip', ['-4', 'route', 'show', 'table', 'all']);
  for (let i = 0; i < 250; i++) {
    const third = (process.pid + i) % 250;
    const prefix = `10.254.${third}`;
    if (!routes.includes(`${prefix}.`)) return prefix;
  }
  throw new Error('no free 10.254.x.0/24 for the test network');
}

export async function createNetwork(teardown: Teardown, count: number): Promise<Network> {
  const tag = `sw${process.pid}`;
  const subnet = await freeSubnet();
  const bridge = `${tag}br`;
  const gateway = `${subnet}.1`;
  await run('ip', ['link', 'add', bridge, 'type', 'bridge']);
  teardown.add(`removing bridge ${bridge}`, () => run('ip', ['link', 'delete', bridge]));
  await run('ip', ['addr', 'add', `${gateway}/24`, 'dev', bridge]);
  await run('ip', ['link', 'set', bridge, 'up']);
  const hosts: NodeHost[] = [];
  for (let n = 1; n <= count; n++) {
    const namespace = `swha-${process.pid}-n${n}`;
    const link = `${tag}h${n}`;
    const inside = `${tag}n${n}`;
    const address = `${subnet}.${10 + n}`;
    await run('ip', ['netns', 'add', namespace]);
    teardown.add(`removing namespace ${namespace}`, async () => {
      // Whatever still runs in it (a postmaster whose Patroni was killed) is ours.
      const pids = (await run('ip', ['netns', 'pids', namespace])).split('\n').filter((pid) => pid !== '');
      for (const pid of pids) process.kill(Number(pid), 'SIGKILL');
      await run('ip', ['netns', 'delete', namespace]);
    });
    await run('ip', ['link', 'add', link, 'type', 'veth', 'peer', 'name', inside]);
    teardown.add(`removing link ${link}`, () => run('ip', ['link', 'delete', link]).catch(() => undefined));
    await run('ip', ['link', 'set', inside, 'netns', namespace]);
    await run('ip', ['link', 'set', link, 'master', bridge, 'up']);
    const exec = ['ip', 'netns', 'exec', namespace];
    await run(exec[0]!, [...exec.slice(1), 'ip', 'addr', 'add', `${address}/24`, 'dev', inside]);
    await run(exec[0]!, [...exec.slice(1), 'ip', 'link', 'set', inside, 'up']);
    await run(exec[0]!, [...exec.slice(1), 'ip', 'link', 'set', 'lo', 'up']);
    hosts.push({ address, exec, link });
  }
  return {
    gateway,
    hosts,
    cut: async (host) => void (await run('ip', ['link', 'set', host.link, 'down'])),
    heal: async (host) => void (await run('ip', ['link', 'set', host.link, 'up'])),
  };
}

/** Without namespaces every node is on this machine's loopback, and none can be cut off. */
export function loopbackNetwork(count: number): Network {
  const refuse = async () => {
    throw new Error('a node on loopback cannot be cut off the network');
  };
  return { gateway: '127.0.0.1', hosts: Array.from({ length: count }, () => ({ address: '127.0.0.1', exec: [], link: '' })), cut: refuse, heal: refuse };
}
