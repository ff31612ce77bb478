// The service's tables on Citus (distributed PostgreSQL, see docs/scaling.md): the games
// spread over the workers by id, every table that holds a game's rows beside its game
// (co-located by game_id, so a game's statements touch one shard), and the rest reference
// tables that every node holds whole. A new table is one line in one of the lists below;
// test/db/distribution.test.ts fails on a table that is in none, or whose keys Citus
// would refuse. `distribute` turns a migrated database into this layout, and does
// nothing where it is in place already.
import type pg from 'pg';

export const layout = {
  /** Spread over the workers by `id`: where a game's shard is, all its rows are. */
  games: { table: 'game', column: 'id' },
  /** A game's rows, by `game_id`, co-located with `game`. */
  gameRows: ['seat', 'event', 'command_record', 'state_snapshot', 'race_refusal', 'tournament_table'],
  /** Organizers, keys, tournaments and ratings: not a game's, small beside the logs, read with any game's rows. */
  reference: ['organizer', 'api_key', 'tournament', 'tournament_player', 'tournament_event', 'tournament_command', 'rating'],
  /** Left on the coordinator: Prisma's record of the applied migrations, which only the migrations read. */
  local: ['_prisma_migrations'],
} as const;

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
  const tables = await publicTables(client);
  const unplaced = tables.filter((table) => kindOf(table) === null);
  if (unplaced.length > 0) {
    throw new DistributionError(`no place in the distributed layout for ${unplaced.join(', ')}: add each to layout in src/db/distribution.ts`);
  }
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

/** The tables of the public schema, which the migrations made. */
export async function publicTables(client: pg.ClientBase | pg.Pool): Promise<string[]> {
  const { rows } = await client.query<{ table: string }>(`SELECT tablename AS table FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`);
  return rows.map((row) => row.table);
}

/** Where a table belongs in the layout; null: nowhere yet. */
export function kindOf(table: string): 'games' | 'gameRows' | 'reference' | 'local' | null {
  if (table === layout.games.table) return 'games';
  if ((layout.gameRows as readonly string[]).includes(table)) return 'gameRows';
  if ((layout.reference as readonly string[]).includes(table)) return 'reference';
  if ((layout.local as readonly string[]).includes(table)) return 'local';
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
