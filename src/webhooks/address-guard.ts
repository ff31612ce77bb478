// Where webhooks may be delivered: http(s) URLs without credentials whose host is a
// public address. Loopback, private, link-local and other special ranges are refused
// (a key holder could otherwise make the server call its own network), unless the
// operator allows them (WEBHOOK_ALLOW_PRIVATE, for tests and development). A name is
// checked when registered and again at every delivery, on the address actually
// connected to, so a name that later resolves somewhere private is refused then.
import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2001:db8::', 32]] as const) blocked.addSubnet(network, prefix, 'ipv6');

/** Whether an IP address is one the server does not deliver to. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped !== null) return blocked.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  return family === 0 || blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Why the URL is refused, or null. `resolve` looks a name up (every address it has). */
export async function urlRefusal(raw: string, allowPrivate: boolean, resolve = resolveAll): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not a URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `${url.protocol} is not http or https`;
  if (url.username !== '' || url.password !== '') return 'a URL with credentials in it is refused: authenticate by the signature';
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) !== 0 ? [host] : await resolve(host).catch(() => null);
  if (addresses === null || addresses.length === 0) return `${host} does not resolve`;
  const internal = addresses.find(isPrivateAddress);
  return internal === undefined ? null : `${host} is a loopback, private or special address (${internal})`;
}

function resolveAll(host: string): Promise<string[]> {
  return new Promise((resolve, reject) => dnsLookup(host, { all: true }, (error, found) => (error ? reject(error) : resolve(found.map((a) => a.address)))));
}

/** A `lookup` for http.request that refuses private addresses as it connects. */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 4);
    const refused = addresses.find((a) => isPrivateAddress(a.address));
    if (refused !== undefined) return callback(Object.assign(new Error(`${hostname} resolves to ${refused.address}, a private address`), { code: 'EPRIVATE' }), '', 4);
    if (options.all === true) return (callback as unknown as (e: null, a: typeof addresses) => void)(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};
