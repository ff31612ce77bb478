// Before migrating, the service connects once itself, so that a wrong DATABASE_URL is
// told in one sentence (which host, which user, which database) rather than as the
// schema engine's stack trace.
import pg from 'pg';
import { applicationName } from '../lib/application-name.ts';
import { unappliedMigrations } from './unapplied-migrations.ts';

/** What stops the service from starting, in words an operator acts on. */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

const connectTimeoutMs = 10_000;

export function parseDatabaseUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new StartupError('DATABASE_URL is not a URL: expected postgresql://user:password@host:port/database');
  }
  if (parsed.protocol !== 'postgresql:' && parsed.protocol !== 'postgres:') {
    throw new StartupError(`DATABASE_URL must start with postgresql://, not ${parsed.protocol}//`);
  }
  return parsed;
}

/** Where a URL points, without its password: fit for a log line. */
export const describeDatabase = (url: URL): string => `${decodeURIComponent(url.pathname.slice(1)) || '(default database)'} at ${url.hostname}:${url.port || 5432}`;

/** Connects once; answers the migrations of this checkout the database has not applied. */
export async function checkConnection(url: string): Promise<string[]> {
  const parsed = parseDatabaseUrl(url);
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs, application_name: applicationName('startup') });
  client.on('error', () => {});
  try {
    await client.connect();
    return await unappliedMigrations(client);
  } catch (error) {
    throw new StartupError(explain(error, parsed), { cause: error });
  } finally {
    await client.end().catch(() => undefined);
  }
}

function explain(error: unknown, url: URL): string {
  const { code, message } = error as { code?: string; message?: string };
  const host = `${url.hostname}:${url.port || 5432}`;
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the database host ${url.hostname} cannot be resolved (DATABASE_URL)`;
    case 'ECONNREFUSED':
      return `no database server accepts connections at ${host} (DATABASE_URL)`;
    case '28P01':
    case '28000':
      return `the database server at ${host} refused the credentials of user ${decodeURIComponent(url.username) || '(none)'} (DATABASE_URL)`;
    case '3D000':
      return `there is no database ${decodeURIComponent(url.pathname.slice(1))} at ${host} (DATABASE_URL)`;
  }
  if (/timeout/i.test(message ?? '')) return `the database server at ${host} did not answer within ${connectTimeoutMs / 1000} s (DATABASE_URL)`;
  return `cannot connect to the database server at ${host}: ${message ?? String(error)}`;
}

/** The schema engine's refusal, in one line: a database that holds tables the
 * migrations did not create is not this service's to change. */
export function explainMigrationFailure(error: unknown, url: URL): StartupError {
  const firstLine = ((error as Error).message ?? String(error)).split('\n')[0]!;
  if (/schema is not empty/i.test(String((error as Error).message ?? error))) {
    return new StartupError(`the database ${describeDatabase(url)} holds tables that this service's migrations did not create; give the service an empty database of its own`, { cause: error });
  }
  return new StartupError(`applying the migrations to ${describeDatabase(url)} failed: ${firstLine}`, { cause: error });
}
