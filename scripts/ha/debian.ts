// The Debian packages the HA stack runs on, installed with apt-get when missing (as
// .ci/run installs Chromium). Other jobs on the machine may hold dpkg's lock: apt-get
// waits for it rather than failing.
import { existsSync } from 'node:fs';
import { run } from './processes.ts';

/** Each package by a file it installs. */
const packages: readonly { readonly file: string; readonly name: string }[] = [
  { file: '/usr/lib/postgresql/15/bin/postgres', name: 'postgresql-15' },
  { file: '/usr/bin/patroni', name: 'patroni' },
  { file: '/usr/lib/python3/dist-packages/etcd/__init__.py', name: 'python3-etcd' },
  { file: '/usr/bin/etcd', name: 'etcd-server' },
  { file: '/usr/sbin/haproxy', name: 'haproxy' },
];

export async function ensurePackages(log: (line: string) => void): Promise<void> {
  const missing = packages.filter(({ file }) => !existsSync(file)).map(({ name }) => name);
  if (missing.length === 0) return;
  log(`installing ${missing.join(' ')} with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () => run('apt-get', ['-o', 'DPkg::Lock::Timeout=600', 'install', '-y', '--no-install-recommends', ...missing], env);
  try {
    await install();
  } catch {
    // The package lists may be stale or absent on a fresh machine.
    await run('apt-get', ['-o', 'DPkg::Lock::Timeout=600', 'update'], env);
    await install();
  }
}
