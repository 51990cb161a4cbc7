import { randomUUID } from 'node:crypto';
import { users } from '../../server/db/schema';
import { createSession } from '../../server/domains/customers/sessions.service';
import { chinaAddress, germanAddress, usAddress } from '../../scripts/lib/demo-fixtures.mjs';
import type { RequestOptions, TestApp, TestResponse } from './test-server';

export interface Buyer {
  id: number;
  email: string;
  username: string;
  /** The header-token credentials; `token` is also the web session cookie's value. */
  headers: { token: string; sign: string; lang: string };
  /** `server.request` with this buyer's token + sign headers (and lang en unless given). */
  call<T = any>(path: string, options?: RequestOptions): Promise<TestResponse<T>>;
}

/** A user row and a live session, talking to the API through the header-token path. */
export async function makeBuyer(server: TestApp, name = `buyer-${randomUUID().slice(0, 8)}`): Promise<Buyer> {
  const email = `${name}@example.com`;
  const [user] = await server.ctx.db.insert(users).values({ email, username: name }).returning();
  if (!user) throw new Error(`inserting the buyer ${email} returned no user row`);
  const session = await createSession(server.ctx, user.id);
  const headers = { token: session.token, sign: session.sign, lang: 'en' };
  return {
    id: user.id,
    email,
    username: name,
    headers,
    call: (path, options = {}) => server.request(path, { ...options, headers: { ...headers, ...options.headers } }),
  };
}

export { chinaAddress, germanAddress, usAddress };

const usedProducts = new Set<number>();

/**
 * A listed SKU of a product no other caller in this test file got, with its stock set. Its product
 * has no free-shipping note unless `freeShipping` is asked for. A test that writes amounts out by
 * hand sets the SKU's price and its product's weight too.
 */
export async function prepareSku(
  server: TestApp,
  options: { stock: number; freeShipping?: boolean; priceMinor?: number; weightGrams?: number },
) {
  const { products, productSkus } = await import('../../server/db/schema');
  const { eq, asc, sql } = await import('drizzle-orm');
  const rows = await server.ctx.db
    .select({
      id: productSkus.id,
      priceMinor: productSkus.priceMinor,
      productId: products.id,
      weightGrams: products.weightGrams,
    })
    .from(productSkus)
    .innerJoin(products, eq(products.id, productSkus.productId))
    .where(
      options.freeShipping
        ? sql`${products.listed} and 4 = any(${products.serviceNotes})`
        : sql`${products.listed} and not (4 = any(${products.serviceNotes}))`,
    )
    .orderBy(asc(productSkus.id));
  let sku = rows.find((row) => !usedProducts.has(row.productId));
  if (!sku) {
    usedProducts.clear();
    sku = rows[0];
  }
  if (!sku) throw new Error(`no listed SKU to prepare (freeShipping: ${Boolean(options.freeShipping)})`);
  usedProducts.add(sku.productId);
  const priceMinor = options.priceMinor ?? sku.priceMinor;
  await server.ctx.db.update(productSkus).set({ stock: options.stock, priceMinor }).where(eq(productSkus.id, sku.id));
  if (options.weightGrams !== undefined) {
    await server.ctx.db
      .update(products)
      .set({ weightGrams: options.weightGrams })
      .where(eq(products.id, sku.productId));
  }
  return { ...sku, priceMinor, weightGrams: options.weightGrams ?? sku.weightGrams };
}

export async function stockOf(server: TestApp, skuId: number): Promise<number> {
  const { productSkus } = await import('../../server/db/schema');
  const { eq } = await import('drizzle-orm');
  const [row] = await server.ctx.db
    .select({ stock: productSkus.stock })
    .from(productSkus)
    .where(eq(productSkus.id, skuId));
  if (!row) throw new Error(`no SKU row with id ${skuId}`);
  return row.stock;
}

/** A buyer with a saved address (CN unless given) who can place orders. */
export async function makeShopper(
  server: TestApp,
  address: Record<string, unknown> = chinaAddress,
): Promise<Buyer & { addressId: number }> {
  const buyer = await makeBuyer(server);
  const created = await buyer.call('/v1/useraddress', { method: 'POST', body: address });
  if (created.status !== 200) throw new Error(`address refused: ${created.text}`);
  return Object.assign(buyer, { addressId: created.body.data.id as number });
}

/** Places an order through the API and returns its detail. */
export async function placeOrderFor(buyer: Buyer, skuId: number, quantity = 1, headers: Record<string, string> = {}) {
  const placed = await buyer.call('/v2/order', {
    method: 'POST',
    body: { items: [{ sku_id: skuId, quantity }] },
    headers,
  });
  if (placed.status !== 200) throw new Error(`order refused: ${placed.text}`);
  return placed.body.data as { id: number; order_no: string; status: number; total: { amount_minor: number } };
}
