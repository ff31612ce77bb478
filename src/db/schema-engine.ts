import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { applicationName } from '../lib/application-name.ts';
import { migrationNames, migrationsDir } from './unapplied-migrations.ts';
import { bindMigrationAwareSqlAdapterFactory, ColumnTypeEnum } from '@prisma/driver-adapter-utils';
import type { SqlDriverAdapter, SqlQueryable } from '@prisma/driver-adapter-utils';
import * as bg from '@prisma/schema-engine-wasm/schema_engine_bg';
import type { MigrationList, SchemaEngine, SchemaFilter } from '@prisma/schema-engine-wasm/schema_engine_bg';

// Prisma's native schema engine is downloaded from Prisma's servers, which these
// machines cannot reach; the same engine ships as WebAssembly on npm.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const schemaPath = path.join(root, 'prisma/schema.prisma');
export const lockfileName = 'migration_lock.toml';
export const noFilter: SchemaFilter = { externalTables: [], externalEnums: [] };

// The project's lib (ES2023, no DOM) carries no WebAssembly types; this is the one call used.
declare const WebAssembly: {
  instantiate(bytes: Uint8Array, imports: object): Promise<{ instance: { exports: Record<string, unknown> } }>;
};

let instantiated: Promise<void> | undefined;

function instantiateWasm(): Promise<void> {
  instantiated ??= (async () => {
    const require = createRequire(import.meta.url);
    const wasmPath = path.join(path.dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg')), 'schema_engine_bg.wasm');
    const { instance } = await WebAssembly.instantiate(await readFile(wasmPath), { './schema_engine_bg.js': bg });
    bg.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
  })();
  return instantiated;
}

export type EngineLog = (line: string) => void;

export interface OpenEngine {
  engine: SchemaEngine;
  /** Frees the engine and closes its connections, which would otherwise keep holding
   * Prisma's migration advisory lock and block CREATE DATABASE … TEMPLATE. */
  close(): Promise<void>;
}

export async function openSchemaEngine(databaseUrl: string, log: EngineLog = () => {}): Promise<OpenEngine> {
  await instantiateWasm();
  const schema = await readFile(schemaPath, 'utf8');
  const opened = new Set<SqlDriverAdapter>();
  const factory = migrationAdapter(databaseUrl, opened);
  const engine = await bg.SchemaEngine.new(
    { datamodels: [[schemaPath, schema]] },
    log,
    bindMigrationAwareSqlAdapterFactory(factory),
  );
  return {
    engine,
    close: async () => {
      engine.free();
      // Newest first: a shadow database is dropped through the connection opened before it.
      for (const adapter of [...opened].reverse()) await adapter.dispose();
    },
  };
}

/**
 * PrismaPg's own connectToShadowDb spreads `database` next to `connectionString`, and pg
 * lets the connection string win: the "shadow" replay of the migrations then runs in the
 * main database. This one connects to the shadow database by its own URL.
 */
function migrationAdapter(databaseUrl: string, opened: Set<SqlDriverAdapter>): PrismaPg {
  const factory = charAwareFactory(databaseUrl, opened);
  factory.connectToShadowDb = async () => {
    const admin = await factory.connect();
    const name = `prisma_migrate_shadow_db_${randomUUID().replaceAll('-', '')}`;
    await admin.executeScript(`CREATE DATABASE "${name}"`);
    const shadowUrl = new URL(databaseUrl);
    shadowUrl.pathname = `/${name}`;
    const shadow = await charAwareFactory(shadowUrl.toString(), opened).connect();
    const disposeShadow = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await disposeShadow();
      await admin.executeScript(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    };
    return shadow;
  };
  return factory;
}

/*
 * Describing a schema, the engine reads catalog columns of Postgres's one-byte type
 * "char" (pg_constraint.contype, …) and wants them typed Character; PrismaPg rejects
 * that type outright. The pg client below reports such a column as text with a marked
 * name, and the adapter wrapper turns the marked columns back into Character.
 */
const CHAR_OID = 18;
const TEXT_OID = 25;
const charMark = '\u0000char';

function charAwareFactory(url: string, opened: Set<SqlDriverAdapter>): PrismaPg {
  // max: 1 — the engine works on one connection, and parallel test setups share a server.
  const factory = new PrismaPg({ connectionString: url, max: 1, Client: CharAsTextClient, application_name: applicationName('migrate'), connectionTimeoutMillis: 10_000 });
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = restoreCharColumns(await connect());
    const dispose = adapter.dispose.bind(adapter);
    adapter.dispose = async () => {
      // The engine may dispose an adapter itself; close() must not do it twice.
      if (opened.delete(adapter)) await dispose();
    };
    opened.add(adapter);
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => restoreCharColumns(await startTransaction(isolationLevel));
    return adapter;
  };
  return factory;
}

function restoreCharColumns<Q extends SqlQueryable>(queryable: Q): Q {
  const queryRaw = queryable.queryRaw.bind(queryable);
  queryable.queryRaw = async (query) => {
    const result = await queryRaw(query);
    result.columnNames.forEach((name, i) => {
      if (!name.endsWith(charMark)) return;
      result.columnNames[i] = name.slice(0, -charMark.length);
      result.columnTypes[i] = ColumnTypeEnum.Character;
    });
    return result;
  };
  return queryable;
}

class CharAsTextClient extends pg.Client {}
const baseQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
function markCharColumns<T>(result: T): T {
  for (const one of Array.isArray(result) ? result : [result]) {
    for (const field of (one as pg.QueryResult | undefined)?.fields ?? []) {
      if (field.dataTypeID !== CHAR_OID) continue;
      field.dataTypeID = TEXT_OID;
      field.name += charMark;
    }
  }
  return result;
}
CharAsTextClient.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const callbackAt = args.findIndex((arg) => typeof arg === 'function');
  if (callbackAt >= 0) {
    const callback = args[callbackAt] as (error: Error | null, result: unknown) => void;
    args[callbackAt] = (error: Error | null, result: unknown) => callback(error, error ? result : markCharColumns(result));
    return baseQuery.apply(this, args);
  }
  const returned = baseQuery.apply(this, args);
  return returned instanceof Promise ? returned.then(markCharColumns) : returned;
} as typeof pg.Client.prototype.query;

export async function readMigrations(): Promise<MigrationList> {
  const lockContent = await readFile(path.join(migrationsDir, lockfileName), 'utf8').catch(() => null);
  const dirs = await migrationNames();
  return {
    baseDir: migrationsDir,
    lockfile: { path: lockfileName, content: lockContent },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      dirs.map(async (dir) => {
        const content = await readFile(path.join(migrationsDir, dir, 'migration.sql'), 'utf8').then(
          (value) => ({ tag: 'ok' as const, value }),
          (error: Error) => ({ tag: 'error' as const, value: error.message }),
        );
        return { path: dir, migrationFile: { path: 'migration.sql', content } };
      }),
    ),
  };
}
