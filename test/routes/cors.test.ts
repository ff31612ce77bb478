// CORS: a browser page on an allowed origin may call the API (its preflight is
// answered, answers carry the headers); another origin, or a server without
// CORS_ORIGINS, gets no Access-Control header. Nothing here needs the database.
import t, { type Test } from 'tap';
import { buildApp, parseCorsOrigins, type AppOptions } from '../../src/app.ts';
import { createClients } from '../../src/db/client.ts';

async function appWith(t: Test, cors: Pick<AppOptions, 'corsOrigins'>) {
  const clients = createClients('postgresql://unused@127.0.0.1:1/unused');
  const app = await buildApp({ ...clients, ...cors, background: false });
  t.teardown(async () => {
    await app.close();
    await clients.close();
  });
  return app;
}

const preflight = {
  method: 'OPTIONS' as const,
  url: '/games/00000000-0000-4000-8000-000000000000/commands',
  headers: { origin: 'https://play.example.org', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type,idempotency-key' },
};

t.test('an allowed origin gets its preflight answered and the headers on every answer', async (t) => {
  const app = await appWith(t, { corsOrigins: ['https://play.example.org'] });
  const answer = await app.inject(preflight);
  t.equal(answer.statusCode, 204);
  t.equal(answer.headers['access-control-allow-origin'], 'https://play.example.org');
  t.match(answer.headers['access-control-allow-methods'], /POST/);
  t.match(answer.headers['access-control-allow-headers'], /authorization.*content-type.*idempotency-key/);
  const catalog = await app.inject({ url: '/catalog', headers: { origin: 'https://play.example.org' } });
  t.equal(catalog.statusCode, 200);
  t.equal(catalog.headers['access-control-allow-origin'], 'https://play.example.org');
  // What the README tells clients to read: Retry-After (429, 503), ETag (finished games), Location.
  t.same(String(catalog.headers['access-control-expose-headers']).split(/,\s*/).sort(), ['etag', 'location', 'retry-after', 'x-request-id']);
  const stranger = await app.inject({ ...preflight, headers: { ...preflight.headers, origin: 'https://elsewhere.example' } });
  t.equal(stranger.headers['access-control-allow-origin'], undefined, 'another origin is not allowed');
});

t.test("'*' allows any origin", async (t) => {
  const app = await appWith(t, { corsOrigins: '*' });
  const answer = await app.inject(preflight);
  t.equal(answer.statusCode, 204);
  t.equal(answer.headers['access-control-allow-origin'], '*');
});

t.test('without CORS_ORIGINS no cross-origin call is allowed', async (t) => {
  const app = await appWith(t, {});
  const answer = await app.inject(preflight);
  t.equal(answer.headers['access-control-allow-origin'], undefined);
  t.equal(answer.statusCode, 405, 'OPTIONS is no method of the path then');
  t.equal(answer.headers.allow, 'POST');
});

t.test('CORS_ORIGINS is a comma-separated list, or *', async (t) => {
  t.same(parseCorsOrigins('https://a.example, http://localhost:5173'), ['https://a.example', 'http://localhost:5173']);
  t.equal(parseCorsOrigins(' * '), '*');
  t.equal(parseCorsOrigins(undefined), undefined);
  t.equal(parseCorsOrigins(' , '), undefined, 'nothing named: no CORS');
});
