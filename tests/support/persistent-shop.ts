import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { openDatabase } from '../../server/db/client';
import { asc, eq } from 'drizzle-orm';
import { products, productSkus, users } from '../../server/db/schema';
import { createSession } from '../../server/domains/customers/sessions.service';
import type { AppContext } from '../../server/context';
import { openTestDatabase, postgresAdminUrl, templateDumpPath } from './database';

/**
 * A database that spawned servers share across a kill and a restart: a clone of the seeded
 * template on PostgreSQL, an on-disk PGlite copy in `dataDir` otherwise. `prepare` writes what
 * the test needs before the database is closed for the servers; its answer comes back with
 * the DATABASE_URL to give them (undefined on PGlite, which they open from DATA_DIR).
 */
export async function preparePersistentShop<T extends object>(
  dataDir: string,
  sessionSecret: string,
  prepare: (ctx: AppContext) => Promise<T>,
): Promise<T & { databaseUrl: string | undefined }> {
  const database = postgresAdminUrl
    ? await openTestDatabase({ dataDir: inject('dataDir'), runId: inject('runId') })
    : {
        handle: await openDatabase({
          embeddedDir: path.join(dataDir, 'db'),
          embeddedFrom: new Blob([fs.readFileSync(templateDumpPath(inject('dataDir')))]),
        }),
        url: undefined,
      };
  try {
    const ctx = { db: database.handle.db, env: { SESSION_SECRET: sessionSecret } } as unknown as AppContext;
    return { ...(await prepare(ctx)), databaseUrl: database.url };
  } finally {
    await database.handle.close();
  }
}

/** A buyer row with a live session, and the headers that sign their API calls in. */
export async function buyerWithSession(ctx: AppContext, username: string) {
  const [user] = await ctx.db
    .insert(users)
    .values({ email: `${username}@example.com`, username })
    .returning();
  if (!user) throw new Error(`inserting the buyer ${username} returned no row`);
  const session = await createSession(ctx, user.id);
  return {
    userId: user.id,
    headers: { token: session.token, sign: session.sign, lang: 'en', 'content-type': 'application/json' },
  };
}

/** The first listed SKU of the template, its stock set to `stock`; answers its id. */
async function stockedSku(ctx: AppContext, stock: number): Promise<number> {
  const [sku] = await ctx.db
    .select({ id: productSkus.id })
    .from(productSkus)
    .innerJoin(products, eq(products.id, productSkus.productId))
    .where(eq(products.listed, true))
    .orderBy(asc(productSkus.id))
    .limit(1);
  if (!sku) throw new Error('the template has no listed SKU');
  await ctx.db.update(productSkus).set({ stock }).where(eq(productSkus.id, sku.id));
  return sku.id;
}

/** A persistent shop with a buyer `username` (a live session) and a SKU with plenty of stock to buy. */
export function prepareBuyingShop(dataDir: string, sessionSecret: string, username: string) {
  return preparePersistentShop(dataDir, sessionSecret, async (ctx) => {
    const buyer = await buyerWithSession(ctx, username);
    return { skuId: await stockedSku(ctx, 10_000), headers: buyer.headers };
  });
}
