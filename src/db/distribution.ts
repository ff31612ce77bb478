// The service's tables on Citus (distributed PostgreSQL, see docs/scaling.md): the games
// spread over the workers by id, every table that holds a game's rows beside its game
// (co-located by game_id, so a game's statements touch one shard), and the rest reference
// tables that every node holds whole. A new table is one line in one of the lists below;
// test/db/distribution.test.ts fails on a table that is in none, or whose keys Citus
// would refuse. `distribute` turns a migrated database into this layout, and does
// nothing where it is in place already.
import type pg from 'pg';

export interface Layout {
  readonly games: { readonly table: string; readonly column: string };
  readonly gameRows: readonly string[];
  readonly reference: readonly string[];
  readonly local: readonly string[];
}

export const layout: Layout = {
  /** Spread over the workers by `id`: where a game's shard is, all its rows are. */
  games: { table: 'game', column: 'id' },
  /** A game's rows, by `game_id`, co-located with `game`. */
  gameRows: ['seat', 'event', 'command_record', 'state_snapshot', 'race_refusal', 'tournament_table'],
  /** Organizers, keys, tournaments and ratings: not a game's, small beside the logs, read with any game's rows. */
  reference: [
    'organizer',
    'api_key',
    'tournament',
    'tournament_player',
    'tournament_event',
    'tournament_command',
    'tournament_registration',
    'tournament_entry',
    'rating',
    'webhook',
    'webhook_delivery',
  ],
  /** Left on the coordinator: Prisma's record of the applied migrations, which only the migrations read. */
  local: ['_prisma_migrations'],
};

/** The column a game's rows are distributed by. */
export const gameRowColumn = 'game_id';

/** A function Citus runs on the worker that holds the shard of its first argument, a game's id. */
export interface DistributedFunction {
  /** name(argument types), as regprocedure reads it. */
  readonly signature: string;
  /** CREATE OR REPLACE FUNCTION … */
  readonly definition: string;
}

export interface DistributeOptions {
  /** Shards of `game` when it is distributed now; Citus's citus.shard_count (32) otherwise. */
  readonly shardCount?: number;
  /** Functions delegated to a game's worker (the event store's writes, events/citus.ts). */
  readonly functions?: readonly DistributedFunction[];
}

/** What `distribute` changed: tables it distributed or made reference tables, functions it delegated. */
export interface Distributed {
  readonly tables: string[];
  readonly functions: string[];
}

/** A database the layout cannot be applied to, in words an operator acts on. */
export class DistributionError extends Error {
  override readonly name = 'DistributionError';
}

/** Whether the citus extension is installed in the database `client` is connected to. */
export async function citusInstalled(client: pg.ClientBase | pg.Pool): Promise<boolean> {
  const { rows } = await client.query(`SELECT 1 FROM pg_extension WHERE extname = 'citus'`);
  return rows.length > 0;
}

interface CitusTable {
  table: string;
  type: string;
  column: string | null;
  colocation: number;
}

/** Turns a migrated database into the layout, in one transaction. Tables already in
 * place are left alone, so it may run after every migration; a table of the wrong kind
 * (distributed by another column, or not co-located with game) is an error. */
export async function distribute(client: pg.ClientBase, options: DistributeOptions = {}): Promise<Distributed> {
  if (!(await citusInstalled(client))) throw new DistributionError('the citus extension is not installed in this database (CREATE EXTENSION citus, see docs/scaling.md)');
  await client.query('BEGIN');
  try {
    // One distribution at a time: two servers starting together would both distribute.
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('spielwerk distribute'))`);
    const changed = await distributeIn(client, options);
    await client.query('COMMIT');
    return changed;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

async function distributeIn(client: pg.ClientBase, options: DistributeOptions): Promise<Distributed> {
  const problems = await layoutProblems(client);
  if (problems.length > 0) throw new DistributionError(`the schema does not fit the distributed layout: ${problems.join('; ')}`);
  const tables = await publicTables(client);
  const { rows: citus } = await client.query<CitusTable>(
    `SELECT table_name::text AS table, citus_table_type AS type, nullif(distribution_column, '<none>') AS column, colocation_id AS colocation
       FROM citus_tables WHERE table_name::regclass::oid IN (SELECT oid FROM pg_class WHERE relnamespace = 'public'::regnamespace)`,
  );
  const placed = new Map(citus.map((row) => [row.table, row]));
  const games = placed.get(layout.games.table);
  const wanted = tables.filter((table) => kindOf(table) !== 'local');
  const todo = wanted.filter((table) => !inPlace(table, placed.get(table), games));
  for (const table of todo) {
    const now = placed.get(table);
    // A table Citus took into its metadata by itself (a local table tied by a foreign key
    // to a reference table) is made over below; any other placement is someone's choice.
    if (now === undefined || now.type === 'local') continue;
    if (kindOf(table) === 'gameRows' && now.type === 'distributed' && now.column === gameRowColumn) {
      throw new DistributionError(`${table} is not co-located with ${layout.games.table}: SELECT update_distributed_table_colocation('${table}', colocate_with => '${layout.games.table}')`);
    }
    throw new DistributionError(`${table} is a ${now.type} table${now.column === null ? '' : ` by ${now.column}`}, which the layout does not expect (docs/scaling.md)`);
  }
  if (todo.length > 0) {
    // A table with foreign keys to or from tables that are still local cannot be
    // distributed, whichever goes first: the keys are dropped and made again once every
    // table is in place (Citus then creates them on the shards).
    await client.query(`SET LOCAL citus.multi_shard_modify_mode TO 'sequential'`);
    const { rows: keys } = await client.query<{ table: string; name: string; definition: string }>(
      `SELECT conrelid::regclass::text AS table, conname AS name, pg_get_constraintdef(oid) AS definition
         FROM pg_constraint
        WHERE contype = 'f' AND (conrelid::regclass::text = ANY($1) OR confrelid::regclass::text = ANY($1))`,
      [todo],
    );
    for (const key of keys) await client.query(`ALTER TABLE ${ident(key.table)} DROP CONSTRAINT ${ident(key.name)}`);
    for (const table of todo.filter((t) => placed.get(t)?.type === 'local')) await client.query(`SELECT undistribute_table($1)`, [table]);
    for (const table of todo.filter((t) => kindOf(t) === 'reference')) await client.query(`SELECT create_reference_table($1)`, [table]);
    if (todo.includes(layout.games.table)) {
      await client.query(`SELECT create_distributed_table($1, $2, shard_count => coalesce($3::int, current_setting('citus.shard_count')::int))`, [layout.games.table, layout.games.column, options.shardCount ?? null]);
    }
    for (const table of todo.filter((t) => kindOf(t) === 'gameRows')) {
      await client.query(`SELECT create_distributed_table($1, $2, colocate_with => $3)`, [table, gameRowColumn, layout.games.table]);
    }
    for (const key of keys) await client.query(`ALTER TABLE ${ident(key.table)} ADD CONSTRAINT ${ident(key.name)} ${key.definition}`);
  }
  const functions: string[] = [];
  for (const fn of options.functions ?? []) {
    await client.query(fn.definition);
    const { rows } = await client.query(`SELECT 1 FROM pg_dist_object WHERE classid = 'pg_proc'::regclass AND objid = $1::regprocedure AND distribution_argument_index IS NOT NULL`, [fn.signature]);
    if (rows.length > 0) continue;
    await client.query(`SELECT create_distributed_function($1, '$1', colocate_with => $2)`, [fn.signature, layout.games.table]);
    functions.push(fn.signature);
  }
  return { tables: todo, functions };
}

interface Key {
  table: string;
  kind: 'p' | 'u' | 'f';
  columns: string[];
  /** A foreign key's table, and what it does on update and on delete (pg_constraint's letters). */
  references: string | null;
  onUpdate: string;
  onDelete: string;
}

/** Why the schema, as the migrations made it, would not go into the layout; none when
 * it fits. It reads Postgres's catalog only, so plain PostgreSQL can tell (the test
 * suite does): every table has a place; a table holding a game's rows (it has a
 * game_id, or a foreign key to a game's rows) is co-located with the games, and each
 * of its unique keys includes game_id, as Citus requires, and its foreign keys to
 * other games' rows go by game_id and never cascade an update of it; no reference
 * table points at a game's rows. */
export async function layoutProblems(client: pg.ClientBase | pg.Pool, of: Layout = layout): Promise<string[]> {
  const tables = await publicTables(client);
  const { rows: columns } = await client.query<{ table: string; column: string }>(
    `SELECT table_name AS table, column_name AS column FROM information_schema.columns WHERE table_schema = 'public'`,
  );
  const { rows: keys } = await client.query<Key>(
    `SELECT c.conrelid::regclass::text AS table, c.contype AS kind,
            array(SELECT a.attname::text FROM unnest(c.conkey) k JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k) AS columns,
            c.confrelid::regclass::text AS references, c.confupdtype AS "onUpdate", c.confdeltype AS "onDelete"
       FROM pg_constraint c
      WHERE c.connamespace = 'public'::regnamespace AND c.contype IN ('p', 'u', 'f')
     UNION ALL
     SELECT i.indrelid::regclass::text, 'u',
            array(SELECT a.attname::text FROM unnest(i.indkey) k JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k),
            NULL, '', ''
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE c.relnamespace = 'public'::regnamespace AND i.indisunique
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid AND k.contype IN ('p', 'u'))`,
  );
  const problems: string[] = [];
  const gameRows = (table: string | null) => table !== null && (kindOf(table, of) === 'games' || kindOf(table, of) === 'gameRows');
  for (const table of tables) {
    const kind = kindOf(table, of);
    const has = (column: string) => columns.some((c) => c.table === table && c.column === column);
    const own = keys.filter((key) => key.table === table);
    const holdsGameRows = has(gameRowColumn) || own.some((key) => key.kind === 'f' && gameRows(key.references));
    if (kind === null) {
      problems.push(`${table} has no place in the layout: add it to layout in src/db/distribution.ts${holdsGameRows ? ' (gameRows: it holds a game\'s rows)' : ''}`);
      continue;
    }
    if (kind === 'reference' || kind === 'local') {
      for (const key of own) if (key.kind === 'f' && gameRows(key.references)) problems.push(`${table} is a ${kind} table with a foreign key to ${key.references}, whose rows are distributed`);
      if (holdsGameRows) problems.push(`${table} holds a game's rows but is a ${kind} table: it belongs to gameRows`);
      continue;
    }
    const column = kind === 'games' ? of.games.column : gameRowColumn;
    if (!has(column)) {
      problems.push(`${table} holds a game's rows but has no ${column} column to be distributed by`);
      continue;
    }
    for (const key of own) {
      if ((key.kind === 'p' || key.kind === 'u') && !key.columns.includes(column)) problems.push(`${table}: the unique key (${key.columns.join(', ')}) does not include ${column}`);
      if (key.kind !== 'f' || !gameRows(key.references)) continue;
      if (!key.columns.includes(column)) problems.push(`${table}: the foreign key (${key.columns.join(', ')}) to ${key.references} does not go by ${column}`);
      // a: no action, r: restrict; c (cascade), n (set null), d (set default) Citus refuses on the distribution column.
      if (!'ar'.includes(key.onUpdate)) problems.push(`${table}: the foreign key to ${key.references} must not cascade an update of ${column} (onUpdate: NoAction)`);
      if ('nd'.includes(key.onDelete)) problems.push(`${table}: the foreign key to ${key.references} must not set ${column} on delete`);
    }
  }
  return problems;
}

/** The tables of the public schema, which the migrations made. */
export async function publicTables(client: pg.ClientBase | pg.Pool): Promise<string[]> {
  const { rows } = await client.query<{ table: string }>(`SELECT tablename AS table FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`);
  return rows.map((row) => row.table);
}

/** Where a table belongs in the layout; null: nowhere yet. */
export function kindOf(table: string, of: Layout = layout): 'games' | 'gameRows' | 'reference' | 'local' | null {
  if (table === of.games.table) return 'games';
  if (of.gameRows.includes(table)) return 'gameRows';
  if (of.reference.includes(table)) return 'reference';
  if (of.local.includes(table)) return 'local';
  return null;
}

function inPlace(table: string, now: CitusTable | undefined, games: CitusTable | undefined): boolean {
  if (now === undefined) return false;
  switch (kindOf(table)) {
    case 'games':
      return now.type === 'distributed' && now.column === layout.games.column;
    case 'gameRows':
      return now.type === 'distributed' && now.column === gameRowColumn && games !== undefined && now.colocation === games.colocation;
    case 'reference':
      return now.type === 'reference';
    default:
      return true;
  }
}

const ident = (name: string): string => `"${name.replace(/"/g, '""')}"`;
