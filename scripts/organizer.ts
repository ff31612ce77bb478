// Usage: npm run organizer -- <command> [options]
//   create --name <name> [--scopes a,b] [--expires <ISO time>]   a new organizer and its first key
//   create-key --organizer <id> --name <key name> [--scopes a,b] [--expires <ISO time>]
//   list-keys --organizer <id>
//   revoke --organizer <id> --key-id <key id>
// With a key it asks the running server over HTTP (--url, default $SPIELWERK_URL or
// http://127.0.0.1:3000), so it works while the server runs: create with --admin-key
// (default $SPIELWERK_ADMIN_KEY, the server's admin key), the others with --key (default
// $SPIELWERK_KEY: an organizer's key with keys:manage, for its own keys) or the admin key.
// Without a key it works on the service's database directly (DATABASE_URL, or the
// embedded one while no server holds it): bootstrapping the first key without
// SPIELWERK_ADMIN_KEY.
// Scopes default to all of: games:create, tournaments:run, results:read, keys:manage.
// A new key is printed once, on stdout; only its hash is stored.
import { Scope, scopes as allScopes } from '../src/organizers/keys.ts';
import { callApi, parseCommand } from './lib.ts';

const { command, options } = parseCommand(import.meta.url, {
  url: { type: 'string', default: process.env.SPIELWERK_URL ?? 'http://127.0.0.1:3000' },
  'admin-key': { type: 'string', default: process.env.SPIELWERK_ADMIN_KEY || undefined },
  key: { type: 'string', default: process.env.SPIELWERK_KEY || undefined },
  name: { type: 'string' },
  organizer: { type: 'string' },
  'key-id': { type: 'string' },
  scopes: { type: 'string' },
  expires: { type: 'string' },
});

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const scopeList = (options.scopes?.split(',') ?? [...allScopes]).map((s) => {
  const parsed = Scope.safeParse(s.trim());
  return parsed.success ? parsed.data : fail(`unknown scope "${s}"; scopes are ${allScopes.join(', ')}`);
});
const expiresAt = options.expires === undefined ? undefined : new Date(options.expires);
if (expiresAt !== undefined && Number.isNaN(expiresAt.getTime())) fail(`--expires is not a time: ${options.expires}`);
const need = (value: string | undefined, flag: string): string => value ?? fail(`${command} needs --${flag}`);

/** What each command does, the same over HTTP and on the database. */
interface Organizers {
  create(name: string, scopes: string[], expiresAt?: Date): Promise<unknown>;
  createKey(organizerId: string, name: string, scopes: string[], expiresAt?: Date): Promise<unknown>;
  listKeys(organizerId: string): Promise<unknown>;
  revoke(organizerId: string, keyId: string): Promise<unknown>;
}

const newKey = (name: string, scopes: string[], expires?: Date) => ({ name, scopes, ...(expires === undefined ? {} : { expiresAt: expires.toISOString() }) });

function overHttp(key: string): Organizers {
  const call = (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) => callApi(options.url, key, method, path, body);
  const keys = (organizerId: string) => `/organizers/${encodeURIComponent(organizerId)}/keys`;
  return {
    create: (name, scopes, expires) => call('POST', '/organizers', { name, key: newKey('first', scopes, expires) }),
    createKey: (organizerId, name, scopes, expires) => call('POST', keys(organizerId), newKey(name, scopes, expires)),
    listKeys: async (organizerId) => ((await call('GET', keys(organizerId))) as { keys: unknown[] }).keys,
    revoke: (organizerId, keyId) => call('DELETE', `${keys(organizerId)}/${encodeURIComponent(keyId)}`),
  };
}

/** On the database itself: imported only then, so that the HTTP path never opens it. */
async function onDatabase(): Promise<Organizers & { close(): Promise<void> }> {
  const [{ openDatabase }, { Organizers }] = await Promise.all([import('../src/db/database.ts'), import('../src/organizers/organizers.ts')]);
  const database = await openDatabase();
  const organizers = new Organizers(database.prisma, Date.now);
  const request = (name: string, scopes: string[], expires?: Date) => ({ name, scopes: scopes as Scope[], ...(expires === undefined ? {} : { expiresAt: expires }) });
  return {
    create: async (name, scopes, expires) => {
      const { organizer, key, keyInfo } = await organizers.createOrganizer(name, request('first', scopes, expires));
      return { organizer, key, keyInfo };
    },
    createKey: (organizerId, name, scopes, expires) => organizers.createKey(organizerId, request(name, scopes, expires)),
    listKeys: (organizerId) => organizers.listKeys(organizerId),
    revoke: (organizerId, keyId) => organizers.revokeKey(organizerId, keyId),
    close: () => database.close(),
  };
}

const commands: Record<string, (organizers: Organizers) => Promise<unknown>> = {
  create: (o) => o.create(need(options.name, 'name'), scopeList, expiresAt),
  'create-key': (o) => o.createKey(need(options.organizer, 'organizer'), need(options.name, 'name'), scopeList, expiresAt),
  'list-keys': (o) => o.listKeys(need(options.organizer, 'organizer')),
  revoke: (o) => o.revoke(need(options.organizer, 'organizer'), need(options['key-id'], 'key-id')),
};
const run = commands[command ?? ''] ?? fail(`unknown command "${command ?? ''}"; run with --help`);

// create is the admin key's; an organizer's own keys are better managed with its own key.
const key = command === 'create' ? (options['admin-key'] ?? options.key) : (options.key ?? options['admin-key']);
const organizers: Organizers & { close?(): Promise<void> } = key === undefined ? await onDatabase() : overHttp(key);
try {
  console.log(JSON.stringify(await run(organizers), null, 2));
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  await organizers.close?.();
}
