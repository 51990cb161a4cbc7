import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import { migrateDatabase, openDatabase, type DatabaseHandle } from './db/client';
import { backfillUsernameKeys } from './domains/customers/accounts.service';
import { ensureBuiltInRoles } from './domains/staff/staff.service';
import { appSecrets } from './db/schema';
import type { AppContext } from './context';
import type { ConfiguredEnv, Env } from './shared/env';
import { createMemoryStore, createRedisStore, type KeyValueStore } from './shared/kv-store';

export class StartupError extends Error {}

/**
 * A shop started with no SESSION_SECRET still gets a strong one: generated once, stored in
 * the database, and so the same for every copy that shares that database.
 */
async function loadOrCreateSecret(database: DatabaseHandle, name: string): Promise<string> {
  await database.db
    .insert(appSecrets)
    .values({ name, value: randomBytes(48).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await database.db.select().from(appSecrets).where(eq(appSecrets.name, name));
  if (!row) throw new Error(`The secret ${name} was neither stored nor found`);
  return row.value;
}

async function openKeyValueStore(env: Env, log: Logger): Promise<KeyValueStore> {
  if (!env.REDIS_URL) return createMemoryStore();
  const { Redis } = await import('ioredis');
  const redis = new Redis(env.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: true });
  redis.on('error', (error) => log.warn({ err: error }, 'redis error'));
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new StartupError(`Cannot connect to Redis at REDIS_URL (${(error as Error).message}).`);
  }
  return createRedisStore(redis, env.REDIS_KEY_PREFIX);
}

/** Opens and migrates the database and the shared-state store: everything the app needs before it listens. */
export async function openAppContext(env: ConfiguredEnv, log: Logger): Promise<AppContext> {
  let database: DatabaseHandle;
  try {
    database = await openDatabase({
      databaseUrl: env.DATABASE_URL,
      embeddedDir: path.join(env.dataDir, 'db'),
      poolMax: env.DATABASE_POOL_MAX,
      onPoolError: (error) => log.warn({ err: error }, 'database connection lost; the pool will reconnect'),
    });
    await database.ping();
  } catch (error) {
    const where = env.DATABASE_URL
      ? 'PostgreSQL at DATABASE_URL'
      : `the embedded database in ${path.join(env.dataDir, 'db')}`;
    throw new StartupError(`Cannot open ${where}: ${(error as Error).message}`);
  }
  return createAppContext(env, log, database);
}

/** Migrates an open database, settles the session secret and connects shared state. */
export async function createAppContext(
  configured: ConfiguredEnv,
  log: Logger,
  database: DatabaseHandle,
): Promise<AppContext> {
  let env: Env;
  try {
    await migrateDatabase(database);
    env = {
      ...configured,
      SESSION_SECRET: configured.SESSION_SECRET ?? (await loadOrCreateSecret(database, 'session')),
      SANDBOX_WEBHOOK_SECRET:
        configured.SANDBOX_WEBHOOK_SECRET ?? (await loadOrCreateSecret(database, 'sandbox-webhook')),
    };
  } catch (error) {
    await database.close().catch(() => {});
    throw new StartupError(`Database migration failed: ${(error as Error).message}`);
  }
  const kv = await openKeyValueStore(env, log).catch(async (error) => {
    await database.close().catch(() => {});
    throw error;
  });
  const ctx: AppContext = { env, db: database.db, database, kv, log };
  await ensureBuiltInRoles(ctx);
  const backfilled = await backfillUsernameKeys(ctx);
  if (backfilled > 0) log.info({ accounts: backfilled }, 'username keys filled in for older accounts');
  return ctx;
}

export async function closeAppContext(ctx: AppContext): Promise<void> {
  await Promise.allSettled([ctx.database.close(), ctx.kv.close()]);
}
