// The web front end's pages (built from web/ by scripts/build-web.ts at install): one
// HTML shell for every page route and the content-hashed bundles under /assets/,
// cached for a year since a new build gets new names. The pages talk only to the
// public API, like any other client; nothing here is in the OpenAPI document.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { problem, sendProblem } from './problem.ts';

const builtDist = fileURLToPath(new URL('../../web/dist/', import.meta.url));

/** The tournament pages: public (`/t/{id}`), a player's, the join link's, the organizer's console. */
export const tournamentPageRoutes = ['/t/:id', '/t/:id/me', '/join/:code', '/organize', '/organize/:id'] as const;

/** Page routes; `/games/...` stays the API's, so pages live beside it. */
export const pageRoutes = ['/', '/replay/:id', '/watch/:id', '/play/:id', ...tournamentPageRoutes] as const;

// The shell may not be framed or pull scripts from elsewhere; the API and its socket
// are on the same origin.
const securityHeaders = {
  'content-security-policy': "default-src 'self'; img-src 'self' data:; style-src 'self'; connect-src 'self' ws: wss:; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** `dist`: where the build is (tests point it elsewhere). */
export const webPages: FastifyPluginAsync<{ dist?: string }> = async (app, { dist = builtDist }) => {
  const shellPath = path.join(dist, 'index.html');
  // Read once: the build happens at install, not while the server runs.
  const shell = existsSync(shellPath) ? readFileSync(shellPath, 'utf8') : null;
  if (shell === null) app.log.warn({ path: shellPath }, 'web front end not built (npm run build:web); pages answer 503');
  else {
    await app.register(fastifyStatic, {
      root: path.join(dist, 'assets'),
      prefix: '/assets/',
      index: false,
      immutable: true,
      maxAge: '365d',
    });
  }
  const sendShell = (reply: FastifyReply) =>
    shell === null
      ? sendProblem(reply, problem(503, 'web/not-built', 'the web front end has not been built; run npm run build:web'))
      : reply.headers({ ...securityHeaders, 'cache-control': 'no-cache' }).type('text/html; charset=utf-8').send(shell);
  for (const url of pageRoutes) app.get(url, { schema: { hide: true } }, async (_request, reply) => sendShell(reply));
};
