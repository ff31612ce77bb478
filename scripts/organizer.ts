// Usage: npm run organizer -- <command> [options]
//   create --name <name> [--scopes a,b] [--expires <ISO time>]   a new organizer and its first key
//   create-key --organizer <id> --name <key name> [--scopes a,b] [--expires <ISO time>]
//   list-keys --organizer <id>
//   revoke --organizer <id> --key <key id>
// Works on the service's database directly (DATABASE_URL, or the embedded one while no
// server holds it), for bootstrapping the first key without SPIELWERK_ADMIN_KEY.
// Scopes default to all of: games:create, tournaments:run, results:read, keys:manage.
// A new key is printed once, on stdout; only its hash is stored.
import { openDatabase } from '../src/db/database.ts';
import { Scope, scopes as allScopes } from '../src/organizers/keys.ts';
import { Organizers } from '../src/organizers/organizers.ts';
import { parseOptions } from './lib.ts';

const command = process.argv[2];
process.argv.splice(2, 1);
const options = parseOptions(import.meta.url, {
  name: { type: 'string' },
  organizer: { type: 'string' },
  key: { type: 'string' },
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
const keyRequest = { name: options.name ?? 'first', scopes: scopeList, ...(expiresAt === undefined ? {} : { expiresAt }) };
const need = (value: string | undefined, flag: string): string => value ?? fail(`${command} needs --${flag}`);

const database = await openDatabase();
const organizers = new Organizers(database.prisma, Date.now);
try {
  switch (command) {
    case 'create': {
      const created = await organizers.createOrganizer(need(options.name, 'name'), { ...keyRequest, name: 'first' });
      console.log(JSON.stringify({ organizer: created.organizer, key: created.key, keyInfo: created.keyInfo }, null, 2));
      break;
    }
    case 'create-key': {
      const created = await organizers.createKey(need(options.organizer, 'organizer'), { ...keyRequest, name: need(options.name, 'name') });
      console.log(JSON.stringify(created, null, 2));
      break;
    }
    case 'list-keys':
      console.log(JSON.stringify(await organizers.listKeys(need(options.organizer, 'organizer')), null, 2));
      break;
    case 'revoke':
      console.log(JSON.stringify(await organizers.revokeKey(need(options.organizer, 'organizer'), need(options.key, 'key')), null, 2));
      break;
    default:
      fail(`unknown command "${command ?? ''}"; run with --help`);
  }
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  await database.close();
}
