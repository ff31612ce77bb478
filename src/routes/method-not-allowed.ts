// A known path asked with a method it does not have (`DELETE /games`, `POST /health`)
// is 405 with `Allow` naming the methods it has (RFC 9110 §15.5.5), not 404
// `request/no-route`: the client got the method wrong, not the address.
import type { FastifyInstance } from 'fastify';

interface KnownPath {
  readonly pattern: RegExp;
  readonly methods: Set<string>;
}

/** A route's URL (`/games/:id/commands/pechvogel`, `/docs/*`) as a regular expression
 * of the paths it answers. */
function patternOf(url: string): RegExp {
  const parts = url.split(/(:[A-Za-z0-9_]+|\*)/).map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${parts.join('')}$`);
}

/** Records every route added from now on; answers the methods a path has, by pattern.
 * Call before the routes are registered. */
export function methodsByPath(app: FastifyInstance): (path: string) => string[] {
  const known = new Map<string, KnownPath>();
  app.addHook('onRoute', (route) => {
    const entry = known.get(route.url) ?? { pattern: patternOf(route.url), methods: new Set<string>() };
    for (const method of [route.method].flat()) entry.methods.add(method);
    known.set(route.url, entry);
  });
  return (path) => {
    const methods = new Set<string>();
    for (const { pattern, methods: those } of known.values()) if (pattern.test(path)) for (const method of those) methods.add(method);
    return [...methods].sort();
  };
}
