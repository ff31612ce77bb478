// The web pages as HTTP: the shell at every page route (never cached, no framing, no
// scripts from elsewhere), its hashed bundles cached for a year, and the API's own
// routes untouched by them.
import Fastify from 'fastify';
import t from 'tap';
import { testApp } from '../helpers/app.ts';
import { pageRoutes, webPages } from '../../src/routes/pages.ts';

t.test('pages and their assets', async (t) => {
  const app = await testApp(t);
  const id = '00000000-0000-4000-8000-000000000000';
  for (const route of pageRoutes) {
    const url = route.replace(':id', id);
    const page = await app.inject({ url });
    t.equal(page.statusCode, 200, `${url} is a page`);
    t.match(page.headers['content-type'], /^text\/html/);
    t.equal(page.headers['cache-control'], 'no-cache', 'the shell is revalidated, so a new build shows at once');
    t.match(page.headers['content-security-policy'], /default-src 'self'/);
    t.match(page.headers['content-security-policy'], /frame-ancestors 'none'/);
  }
  const shell = (await app.inject({ url: '/' })).body;
  const assets = [...shell.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
  t.equal(assets.length, 2, 'the shell names a script and a stylesheet');
  for (const asset of assets) {
    t.match(asset, /-[A-Z0-9]{8}\.(js|css)$/, `${asset} is named by its content`);
    const response = await app.inject({ url: asset });
    t.equal(response.statusCode, 200);
    t.match(response.headers['cache-control'], /max-age=31536000/, 'cached for a year');
    t.match(response.headers['cache-control'], /immutable/);
  }

  // The API keeps its JSON and its problem documents.
  const game = await app.inject({ url: `/games/${id}` });
  t.equal(game.statusCode, 404);
  t.match(game.headers['content-type'], /application\/problem\+json/);
  const missing = await app.inject({ url: '/assets/none-AAAAAAAA.js' });
  t.equal(missing.statusCode, 404, 'an unknown asset is a 404');
});

t.test('without a build the pages say so and the server still starts', async (t) => {
  const app = Fastify();
  await app.register(webPages, { dist: '/nonexistent/spielwerk-web-dist' });
  t.teardown(() => app.close());
  const page = await app.inject({ url: '/' });
  t.equal(page.statusCode, 503);
  t.match(page.headers['content-type'], /application\/problem\+json/);
  t.equal(page.json().code, 'web/not-built');
});
