// Whether a failure means the database could not be reached or answered in time, as
// opposed to a fault in a statement: the former is a 503 a client may retry, the
// latter our bug. Errors reach the service from pg directly (the hot statements) and
// wrapped by Prisma and its driver adapter, so the whole cause chain is looked at.

/** Connection failures (SQLSTATE class 08), the server shutting down or starting
 * (57P01–57P03), too many connections or out of resources (class 53), a database not
 * accepting connections (55000 with ALLOW_CONNECTIONS false), and a server that only
 * reads (25006): during a failover a connection may still reach the old primary, now
 * a standby, before the balancer or the pool has moved on. The service never sets a
 * transaction read-only itself, so 25006 is always that. */
const unavailableStates = /^(08|53|57P0[123]$|55000$|25006$)/;
const networkCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** Prisma's own codes for an unreachable server, a closed connection, a pool timeout. */
const prismaCodes = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
/** pg's and pg-pool's messages for a lost connection and the client-side timeouts. */
const messages = /Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable|Client was closed|Cannot use a pool after calling end/;

export function databaseUnavailable(error: unknown): boolean {
  for (let at = error, depth = 0; at !== null && typeof at === 'object' && depth < 8; depth++) {
    const { code, originalCode, kind, message } = at as { code?: unknown; originalCode?: unknown; kind?: unknown; message?: unknown };
    for (const c of [code, originalCode]) {
      if (typeof c !== 'string') continue;
      if (unavailableStates.test(c) || networkCodes.has(c) || prismaCodes.has(c)) return true;
    }
    if (kind === 'DatabaseNotReachable' || kind === 'ConnectionClosed' || kind === 'SocketTimeout' || kind === 'TooManyConnections') return true;
    if (typeof message === 'string' && messages.test(message)) return true;
    // Prisma keeps the driver adapter's error (with the SQLSTATE in its cause) in meta.
    const { cause, meta } = at as { cause?: unknown; meta?: { driverAdapterError?: unknown } };
    at = cause ?? meta?.driverAdapterError;
  }
  return false;
}
