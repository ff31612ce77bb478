// On Citus (npm run test:citus): every hot statement of the event store is planned for
// one shard. The statements are the ones the service sends while a game is created,
// played with idempotent commands, read, raced and snapshotted; each is explained with
// the values it was sent with, and its plan must be a single task with no
// intermediate results.
import type pg from 'pg';
import t from 'tap';
import { testApp, createGame, command, bearerHeader } from '../helpers/app.ts';
import { testDatabase } from '../helpers/database.ts';
import { onCitus } from '../helpers/citus.ts';
import { withAdmin } from '../helpers/test-server.ts';

if (!onCitus()) {
  t.plan(0, 'needs a Citus cluster: npm run test:citus');
  process.exit(0);
}

interface Sent {
  readonly name: string | undefined;
  readonly text: string;
  readonly values: readonly unknown[];
}

/** The pool, with every statement sent through `query` kept. */
function recording(pool: pg.Pool, sent: Sent[]): pg.Pool {
  return new Proxy(pool, {
    get(target, property) {
      if (property === 'query') {
        return (config: string | pg.QueryConfig, values?: unknown[]) => {
          const text = typeof config === 'string' ? config : config.text;
          sent.push({ name: typeof config === 'string' ? undefined : config.name, text, values: values ?? [] });
          return (target.query as (...args: unknown[]) => unknown)(config, values);
        };
      }
      const value = Reflect.get(target, property) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Why a plan is not one shard's, or null: one task and no intermediate results. */
function notRouted(plan: string): string | null {
  const steps = plan.match(/Custom Scan \(Citus [^)]*\)/g) ?? [];
  if (steps.length === 0) return 'not planned by Citus';
  if (plan.includes('Distributed Subplan')) return 'split into subplans with intermediate results';
  if (steps.length > 1 || steps[0] !== 'Custom Scan (Citus Adaptive)') return `in steps: ${steps.join(', ')}`;
  const counts = [...plan.matchAll(/Task Count: (\d+)/g)].map((m) => Number(m[1]));
  if (counts.length !== 1 || counts[0] !== 1) return `task counts ${counts.join(', ')}`;
  return null;
}

/** The hot statements (docs/scaling.md), by the names they are prepared under. */
const hot = [
  'spielwerk_create_game_citus',
  'spielwerk_append_citus',
  'spielwerk_find_command_record',
  'spielwerk_load_game',
  'spielwerk_load_game_with_snapshot',
  'spielwerk_read_events',
  'spielwerk_race_refusals',
  'spielwerk_save_snapshot',
  'spielwerk_versions',
];

t.test('every hot statement is planned for one shard', async (t) => {
  const database = await testDatabase(t);
  const sent: Sent[] = [];
  const app = await testApp(t, { database: { ...database, pool: recording(database.pool, sent) } });
  const store = app.services.store;

  const { id, tokens } = await createGame(app, { type: 'pechvogel', seats: [{}, {}, {}] });
  const view = (await app.inject({ url: `/games/${id}`, headers: bearerHeader(tokens[0]) })).json();
  const move = view.legalCommands[0];
  const headers = { 'idempotency-key': 'plans-1' };
  t.equal((await command(app, id, tokens[0], { command: move, expectedVersion: view.version }, headers)).statusCode, 200, 'a command with an Idempotency-Key');
  t.equal((await command(app, id, tokens[0], { command: move, expectedVersion: view.version }, headers)).statusCode, 200, 'and its retry');
  t.equal((await app.inject({ url: `/games/${id}/events?after=0` })).statusCode, 200);
  // A race command refused: its record rides with a statement of its own game.
  const refusal = store.raceRefusals.reserve({ gameId: id, version: view.version + 1, seat: 1, actor: 'seat:1', command: move, code: 'test/refused', receivedAt: 1, ord: 0 });
  await refusal.confirm();
  t.equal((await store.raceRefusals.list(id)).length, 1, 'the refusal is recorded');
  await store.saveSnapshot(id, { version: 1, rulesVersion: 'test', state: {} });
  t.not(await store.loadGameWithSnapshot(id), null);
  t.equal(await store.version(id), view.version + 1);

  const plans = new Map<string, string>();
  await withAdmin(database.url, async (client) => {
    for (const statement of sent) {
      if (statement.name === undefined || !hot.includes(statement.name) || plans.has(statement.name)) continue;
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${statement.text}`, [...statement.values]);
      plans.set(statement.name, rows.map((row) => row['QUERY PLAN']).join('\n'));
    }
  });
  for (const name of hot) {
    const plan = plans.get(name);
    if (plan === undefined) {
      t.fail(`${name} was not sent`);
      continue;
    }
    t.equal(notRouted(plan), null, `${name} runs on one shard`, { plan });
  }
});

t.test('the check tells a statement that spans shards, or is split, from one that does not', async (t) => {
  const database = await testDatabase(t);
  const explain = (sql: string) =>
    withAdmin(database.url, async (client) => (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`)).rows.map((row) => row['QUERY PLAN']).join('\n'));
  t.match(notRouted(await explain('SELECT count(*) FROM event')), /task counts 4/, 'all shards of the event log');
  t.match(notRouted(await explain(`WITH g AS (UPDATE game SET version = version WHERE id = '00000000-0000-0000-0000-000000000001' RETURNING id) INSERT INTO event (game_id, seq, type, data, actor, at) SELECT id, 1, 'x', '{}', 'system', now() FROM g`)), /subplans|steps/, 'an inserting statement of one game');
  t.equal(notRouted(await explain(`SELECT * FROM event WHERE game_id = '00000000-0000-0000-0000-000000000001'`)), null, 'one game');
});
