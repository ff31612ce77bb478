// HTTP caching of game reads. A finished game never changes, so what a read of it
// answers is immutable: it carries an ETag and may be kept for a year, and a request
// whose `If-None-Match` names that tag is answered 304 before the answer is built. Its
// summary is the exception until a rematch is made (the link is new then): tagged, but
// `no-cache`, so a client revalidates it each time. A
// running game's answers are never kept long: `no-cache` (public ones) or `no-store`
// (anything asked with a token). Hidden information: every answer that depends on the
// caller's token says `Vary: Authorization`, and one asked with a token is `private`,
// so no shared cache hands one seat's view to anybody else.
import type { FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import { unchanged, type Holds, type Unchanged } from '../reads/game-reads.ts';

/** A year: the longest max-age caches honour. */
export const IMMUTABLE_SECONDS = 31_536_000;

/** The `Holds` of a read answering `request`: sets the answer's caching headers and
 * says whether the client's `If-None-Match` names the answer already. `vary` lists
 * the request headers the answer depends on. */
export function conditional(request: FastifyRequest, reply: FastifyReply, vary: readonly string[]): Holds {
  const withToken = request.headers.authorization !== undefined;
  return (tag, revalidate = false) => {
    addVary(reply, vary);
    if (tag === null) {
      reply.header('cache-control', withToken ? 'private, no-store' : 'no-cache');
      return false;
    }
    const etag = `W/"${tag}"`;
    reply.header('etag', etag);
    reply.header('cache-control', `${withToken ? 'private' : 'public'}, ${revalidate ? 'no-cache' : `max-age=${IMMUTABLE_SECONDS}, immutable`}`);
    return matches(request.headers['if-none-match'], etag);
  };
}

/** The read's answer, or 304 when the client holds it already. */
export function answer<T>(reply: FastifyReply, result: T | Unchanged): T | FastifyReply {
  return result === unchanged ? reply.code(304).send() : result;
}

/** A refusal or a failure is never cached, whatever the read had said before it failed. */
export const uncachedErrors: onSendHookHandler = async (_request, reply, payload) => {
  if (reply.statusCode >= 400) {
    reply.removeHeader('etag');
    reply.header('cache-control', 'no-store');
  }
  return payload;
};

/** Adds to what Vary says already (CORS's `Origin`, say) instead of replacing it. */
function addVary(reply: FastifyReply, names: readonly string[]): void {
  const present = String(reply.getHeader('vary') ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '');
  const added = names.filter((name) => !present.some((p) => p.toLowerCase() === name.toLowerCase()));
  if (added.length > 0) reply.header('vary', [...present, ...added].join(', '));
}

/** Weak comparison (RFC 9110 §13.1.2): `W/` aside, the tags must be equal. */
function matches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}
