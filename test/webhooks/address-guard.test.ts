// Which addresses webhooks are never delivered to, and which URLs are refused outright.
import t from 'tap';
import { isPrivateAddress, urlRefusal } from '../../src/webhooks/address-guard.ts';
import { signatureValue, verifySignature } from '../../src/webhooks/signing.ts';

t.test('loopback, private, link-local and special addresses are private; public ones are not', async (t) => {
  for (const address of ['127.0.0.1', '127.8.9.10', '10.0.0.1', '172.16.5.4', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'not-an-ip']) {
    t.ok(isPrivateAddress(address), `${address} is private`);
  }
  for (const address of ['93.184.215.14', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) t.notOk(isPrivateAddress(address), `${address} is public`);
});

t.test('a URL is refused unless http(s), without credentials, on a public address (or private ones are allowed)', async (t) => {
  const resolve = async (host: string) => ({ 'public.example': ['93.184.215.14'], 'sneaky.example': ['93.184.215.14', '10.0.0.7'] })[host] ?? [];
  t.equal(await urlRefusal('https://public.example/hook', false, resolve), null);
  t.equal(await urlRefusal('http://93.184.215.14:8080/hook', false, resolve), null);
  t.match(await urlRefusal('https://sneaky.example/hook', false, resolve), /private or special address \(10\.0\.0\.7\)/, 'any private address of a name refuses it');
  t.match(await urlRefusal('http://127.0.0.1:9/', false, resolve), /loopback/);
  t.match(await urlRefusal('http://[::1]/', false, resolve), /loopback/);
  t.match(await urlRefusal('ftp://public.example/', false, resolve), /not http or https/);
  t.match(await urlRefusal('https://user:secret@public.example/', false, resolve), /credentials/);
  t.match(await urlRefusal('https://nowhere.example/', false, resolve), /does not resolve/);
  t.match(await urlRefusal('not a url', false, resolve), /not a URL/);
  t.equal(await urlRefusal('http://127.0.0.1:9/', true, resolve), null, 'WEBHOOK_ALLOW_PRIVATE lets loopback through');
});

t.test('a signature verifies on the body as sent, within the tolerance, with the secret', async (t) => {
  const body = '{"type":"TableFinished"}';
  const header = signatureValue('whsec_test', 1_000_000, body);
  t.ok(verifySignature('whsec_test', header, body, 1_000_010));
  t.notOk(verifySignature('whsec_other', header, body, 1_000_010), 'another secret');
  t.notOk(verifySignature('whsec_test', header, `${body} `, 1_000_010), 'another body');
  t.notOk(verifySignature('whsec_test', header, body, 1_000_400), 'too old');
  t.notOk(verifySignature('whsec_test', undefined, body, 1_000_010));
});
