import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { products, productSkus } from '../../server/db/schema';
import {
  ACCOUNT_TEST_ENV,
  authHeaders,
  cookieValue,
  loginRequest,
  registerUser,
  type RegisteredUser,
} from '../support/accounts';
import { prepareSku } from '../support/buyers';
import { useTestApp } from '../support/test-server';

const server = useTestApp(ACCOUNT_TEST_ENV);

describe('a visitor cart at login', () => {
  it('joins the account in the login answer itself, and the visitor cookie is retired', async () => {
    const sku = await prepareSku(server, { stock: 20 });
    const member = await registerUser(server);
    const added = await server.request('/v1/cart/items', { method: 'POST', body: { sku_id: sku.id, quantity: 3 } });
    const cartId = cookieValue(added.headers.getSetCookie(), 'cart_id')!;
    expect(cartId).toBeTruthy();

    const login = await loginRequest(server, member.email, member.password, { cookie: `cart_id=${cartId}` });
    expect(login.body.code).toBe(200);
    expect(cookieValue(login.headers.getSetCookie(), 'cart_id')).toBe('');

    const session = { token: login.body.data.access_token, sign: login.body.data.access_sign };
    const count = await server.request('/v1/cart/count', { headers: authHeaders(session) });
    expect(count.body.data).toMatchObject({ count: 3 });
    const visitorCart = await server.request('/v1/cart', { cookies: { cart_id: cartId } });
    expect(visitorCart.body.data.lines).toEqual([]);
  });

  it('adds quantities up, never past the shelf or 99, and keeps a line that was past the shelf already', async () => {
    const member = await registerUser(server);
    const few = await prepareSku(server, { stock: 5 });
    const plenty = await prepareSku(server, { stock: 200 });
    const guestOnly = await prepareSku(server, { stock: 10 });
    const dwindled = await prepareSku(server, { stock: 3 });
    await addAsMember(member, few.id, 4);
    await addAsMember(member, plenty.id, 60);

    const cartId = await visitorCart([
      [few.id, 3],
      [plenty.id, 60],
      [guestOnly.id, 2],
      [dwindled.id, 3],
    ]);
    await server.ctx.db.update(productSkus).set({ stock: 1 }).where(eq(productSkus.id, dwindled.id));

    await logIn(member, cartId);
    const lines = (await server.request('/v1/cart', { headers: authHeaders(member, { lang: 'en' }) })).body.data.lines;
    expect(
      lines.map((line: { sku_id: number; quantity: number; problem: string | null }) => [
        line.sku_id,
        line.quantity,
        line.problem,
      ]),
    ).toEqual([
      [few.id, 5, null],
      [plenty.id, 99, null],
      [guestOnly.id, 2, null],
      [dwindled.id, 3, 'insufficient_stock'],
    ]);
  });

  it("adds the visitor's new items only while the account's cart has room for 50 different items", async () => {
    const member = await registerUser(server);
    const skus = await listedSkus(51);
    const accountSkus = skus.slice(0, 49);
    for (const sku of accountSkus) await addAsMember(member, sku, 1);
    const [shared, fits, overflow] = [accountSkus[0]!, skus[49]!, skus[50]!];
    const cartId = await visitorCart([
      [shared, 2],
      [fits, 1],
      [overflow, 1],
    ]);

    await logIn(member, cartId);
    const lines = (await server.request('/v1/cart', { headers: authHeaders(member) })).body.data.lines as Array<{
      sku_id: number;
      quantity: number;
    }>;
    expect(lines).toHaveLength(50);
    expect(lines.find((line) => line.sku_id === shared)?.quantity).toBe(3);
    expect(lines.find((line) => line.sku_id === fits)?.quantity).toBe(1);
    expect(lines.some((line) => line.sku_id === overflow)).toBe(false);
    expect((await server.request('/v1/cart', { cookies: { cart_id: cartId } })).body.data.lines).toEqual([]);
  });
});

async function addAsMember(member: RegisteredUser, skuId: number, quantity: number) {
  const added = await server.request('/v1/cart/items', {
    method: 'POST',
    body: { sku_id: skuId, quantity },
    headers: authHeaders(member),
  });
  expect(added.status).toBe(200);
}

/** A visitor's cart holding these (SKU, quantity) lines, in this order; answers its cookie value. */
async function visitorCart(lines: Array<[number, number]>): Promise<string> {
  let cartId: string | undefined;
  for (const [skuId, quantity] of lines) {
    const added = await server.request('/v1/cart/items', {
      method: 'POST',
      body: { sku_id: skuId, quantity },
      cookies: cartId ? { cart_id: cartId } : undefined,
    });
    expect(added.status).toBe(200);
    cartId ??= cookieValue(added.headers.getSetCookie(), 'cart_id');
  }
  if (!cartId) throw new Error('the visitor cart got no cookie');
  return cartId;
}

async function logIn(member: RegisteredUser, cartId: string) {
  const login = await loginRequest(server, member.email, member.password, { cookie: `cart_id=${cartId}` });
  expect(login.body.code).toBe(200);
  expect(cookieValue(login.headers.getSetCookie(), 'cart_id')).toBe('');
}

/** The first `count` listed SKUs, each with 50 in stock. */
async function listedSkus(count: number): Promise<number[]> {
  const rows = await server.ctx.db
    .select({ id: productSkus.id })
    .from(productSkus)
    .innerJoin(products, eq(products.id, productSkus.productId))
    .where(eq(products.listed, true))
    .orderBy(productSkus.id)
    .limit(count);
  expect(rows).toHaveLength(count);
  const ids = rows.map((row) => row.id);
  await server.ctx.db.update(productSkus).set({ stock: 50 }).where(inArray(productSkus.id, ids));
  return ids;
}
