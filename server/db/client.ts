import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { queryTallyLogger } from './query-tally';
import * as schema from './schema';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Cheap round trip used by /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const here = path.dirname(fileURLToPath(import.meta.url));
/** Beside this file when run from source; up from the bundled server in build/app-server (and its cli/). */
export const MIGRATIONS_DIR =
  [
    path.join(here, 'migrations'),
    path.resolve(here, '../../server/db/migrations'),
    path.resolve(here, '../../../server/db/migrations'),
  ].find((dir) => fs.existsSync(path.join(dir, 'meta', '_journal.json'))) ?? path.join(here, 'migrations');

export interface OpenDatabaseOptions {
  databaseUrl?: string;
  /** Directory for the embedded database; `memory://` keeps it in memory (tests). */
  embeddedDir?: string;
  /** A PGlite data-dir dump to start from (tests clone one migrated template). */
  embeddedFrom?: Blob;
  poolMax?: number;
  onPoolError?: (error: Error) => void;
}

/**
 * PostgreSQL over `pg` when a URL is given, otherwise PGlite (PostgreSQL compiled to WASM)
 * stored on disk. Both speak the same SQL, so the rest of the code cannot tell them apart.
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  const opened = options.databaseUrl ? await openPostgres(options.databaseUrl, options) : await openPglite(options);
  return {
    ...opened,
    async ping() {
      await opened.db.execute(sql`select 1`);
    },
  };
}

/** What differs between the two drivers; the ping is the same query on either. */
type OpenedDatabase = Omit<DatabaseHandle, 'ping'>;

async function openPostgres(url: string, options: OpenDatabaseOptions): Promise<OpenedDatabase> {
  const { createPostgresPool } = await import('./postgres-pool');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const pool = createPostgresPool({
    connectionString: url,
    max: options.poolMax ?? 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    application_name: 'overseas-shop',
  });
  // An idle client losing its connection (database restart) must not crash the process;
  // the pool replaces it and the next query reports the outage to its caller.
  pool.on('error', (error) => options.onPoolError?.(error));
  return {
    db: drizzle(pool, { schema, logger: queryTallyLogger }) as unknown as Database,
    kind: 'postgres',
    close: () => pool.end(),
  };
}

/**
 * The embedded database's buffer cache lives inside the shop's own process, so PostgreSQL's
 * default of 128 MB added that much to the shop's memory (423 MB after start, issue 13's limit is
 * 250). A small shop's hot rows fit in 16 MB, and its files stay in the operating system's cache.
 */
const EMBEDDED_SHARED_BUFFERS = '16MB';

async function openPglite(options: OpenDatabaseOptions): Promise<OpenedDatabase> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { drizzleWithNamedStatements } = await import('./pglite-named-statements');
  const dataDir = options.embeddedDir ?? 'memory://';
  if (!dataDir.startsWith('memory://')) fs.mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create({
    dataDir,
    loadDataDir: options.embeddedFrom,
    extensions: { pg_trgm },
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`],
  });
  return {
    db: drizzleWithNamedStatements(client, { schema, logger: queryTallyLogger }) as unknown as Database,
    kind: 'pglite',
    async close() {
      if (!client.closed) await client.close();
    },
  };
}

/**
 * Applies the SQL migrations in server/db/migrations. On PostgreSQL an advisory lock makes
 * several copies starting at once take turns instead of racing on the same DDL.
 */
export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  if (handle.kind === 'pglite') {
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(handle.db as never, { migrationsFolder: MIGRATIONS_DIR });
    return;
  }
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  await handle.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`);
    await migrate(tx as never, { migrationsFolder: MIGRATIONS_DIR });
  });
}

const MIGRATION_LOCK_ID = 7_031_996_001;
