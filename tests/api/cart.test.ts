import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { products } from '../../server/db/schema';
import { mergeGuestCart } from '../../server/domains/cart/cart.service';
import { makeBuyer, prepareSku, type Buyer } from '../support/buyers';
import { useTestApp } from '../support/test-server';

const server = useTestApp();
let buyer: Buyer;

beforeAll(async () => {
  buyer = await makeBuyer(server, 'cart-buyer');
});

function cookieFrom(response: { headers: Headers }, name: string): string | undefined {
  const match = response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${name}=`));
  return match?.split(';')[0]!.split('=')[1];
}

describe('cart of a signed-in buyer', () => {
  it('adds, adds again (quantities add up), changes, counts and removes lines', async () => {
    const sku = await prepareSku(server, { stock: 10 });
    const added = await buyer.call('/v1/cart/items', { method: 'POST', body: { sku_id: sku.id, quantity: 2 } });
    expect(added.status).toBe(200);
    expect(added.body.data.lines).toEqual([
      expect.objectContaining({ sku_id: sku.id, quantity: 2, problem: null, price_minor: sku.priceMinor }),
    ]);
    await buyer.call('/v1/cart/items', { method: 'POST', body: { sku_id: sku.id, quantity: 3 } });
    expect((await buyer.call('/v1/cart/count')).body.data.count).toBe(5);
    const changed = await buyer.call(`/v1/cart/items/${sku.id}`, { method: 'PUT', body: { quantity: 7 } });
    expect(changed.body.data.lines[0].quantity).toBe(7);
    expect(changed.body.data.goods_amount_minor).toBe(7 * sku.priceMinor);
    const removed = await buyer.call(`/v1/cart/items/${sku.id}`, { method: 'DELETE' });
    expect(removed.body.data.lines).toEqual([]);
    expect((await buyer.call(`/v1/cart/items/${sku.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it.each([
    [{ quantity: 0 }, 'Quantity must be at least 1'],
    [{ quantity: -1 }, 'Quantity must be at least 1'],
    [{ quantity: 1.5 }, 'Quantity must be a whole number'],
    [{ quantity: 100 }, 'Quantity must be at most 99'],
  ])('refuses quantity %j', async (body, message) => {
    const sku = await prepareSku(server, { stock: 5 });
    const response = await buyer.call('/v1/cart/items', { method: 'POST', body: { sku_id: sku.id, ...body } });
    expect(response.status).toBe(400);
    expect(response.body.msg).toBe(message);
  });

  it('refuses a SKU that does not exist, more than the stock, and a sold-out SKU', async () => {
    const missing = await buyer.call('/v1/cart/items', { method: 'POST', body: { sku_id: 99_999_999, quantity: 1 } });
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe('This product option does not exist');
    const few = await prepareSku(server, { stock: 3 });
    const tooMany = await buyer.call('/v1/cart/items', { method: 'POST', body: { sku_id: few.id, quantity: 4 } });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.msg).toMatch(/^Only 3 left of /);
    const none = await prepareSku(server, { stock: 0 });
    const soldOut = await buyer.call('/v1/cart/items', {
      method: 'POST',
      body: { sku_id: none.id, quantity: 1 },
      headers: { lang: 'zh-cn' },
    });
    expect(soldOut.status).toBe(409);
    expect(soldOut.body.msg).toMatch(/已售罄$/);
  });

  it('shows stock problems on lines that went bad after they were added', async () => {
    const soon = await prepareSku(server, { stock: 5 });
    const fewer = await prepareSku(server, { stock: 5 });
    const gone = await prepareSku(server, { stock: 5 });
    const other = await makeBuyer(server);
    for (const sku of [soon, fewer, gone])
      await other.call('/v1/cart/items', { method: 'POST', body: { sku_id: sku.id, quantity: 3 } });
    const { productSkus } = await import('../../server/db/schema');
    await server.ctx.db.update(productSkus).set({ stock: 0 }).where(eq(productSkus.id, soon.id));
    await server.ctx.db.update(productSkus).set({ stock: 2 }).where(eq(productSkus.id, fewer.id));
    await server.ctx.db.update(products).set({ listed: false, status: 'draft' }).where(eq(products.id, gone.productId));
    try {
      const cart = (await other.call('/v1/cart')).body.data;
      const bySku = Object.fromEntries(cart.lines.map((line: { sku_id: number }) => [line.sku_id, line]));
      expect(bySku[soon.id]).toMatchObject({ problem: 'sold_out', problem_text: 'Sold out' });
      expect(bySku[fewer.id]).toMatchObject({ problem: 'insufficient_stock', problem_text: 'Only 2 left' });
      expect(bySku[gone.id]).toMatchObject({ problem: 'unlisted', problem_text: 'No longer available' });
      expect(cart.has_problems).toBe(true);
      expect(cart.goods_amount_minor).toBe(0);
    } finally {
      await server.ctx.db
        .update(products)
        .set({ listed: true, status: 'published' })
        .where(eq(products.id, gone.productId));
    }
  });
});

describe('cart of a visitor', () => {
  it('keeps the cart under an httpOnly cookie and merges it into the account at login', async () => {
    const sku = await prepareSku(server, { stock: 20 });
    const first = await server.request('/v1/cart/items', { method: 'POST', body: { sku_id: sku.id, quantity: 2 } });
    expect(first.status).toBe(200);
    const setCookie = first.headers.getSetCookie().find((cookie) => cookie.startsWith('cart_id='))!;
    expect(setCookie).toMatch(/HttpOnly/i);
    const cartId = cookieFrom(first, 'cart_id')!;
    const again = await server.request('/v1/cart', { cookies: { cart_id: cartId } });
    expect(again.body.data.lines[0].quantity).toBe(2);
    expect((await server.request('/v1/cart')).body.data.lines).toEqual([]);

    const member = await makeBuyer(server);
    await member.call('/v1/cart/items', { method: 'POST', body: { sku_id: sku.id, quantity: 1 } });
    await mergeGuestCart(server.ctx, { guestCartId: cartId, userId: member.id });
    await mergeGuestCart(server.ctx, { guestCartId: cartId, userId: member.id });
    expect((await member.call('/v1/cart')).body.data.lines[0].quantity).toBe(3);
    expect((await server.request('/v1/cart', { cookies: { cart_id: cartId } })).body.data.lines).toEqual([]);
  });

  it('merges a guest cart a signed-in request still carries, and clears the cookie', async () => {
    const sku = await prepareSku(server, { stock: 20 });
    const first = await server.request('/v1/cart/items', { method: 'POST', body: { sku_id: sku.id, quantity: 4 } });
    const cartId = cookieFrom(first, 'cart_id')!;
    const member = await makeBuyer(server);
    const cart = await member.call('/v1/cart', { cookies: { cart_id: cartId } });
    expect(cart.body.data.lines[0]).toMatchObject({ sku_id: sku.id, quantity: 4 });
    expect(cookieFrom(cart, 'cart_id')).toBe('');
  });
});

/** `server.request` as an English-speaking visitor (the API answers Chinese by default). */
const asVisitor: typeof server.request = (path, options = {}) =>
  server.request(path, { ...options, headers: { lang: 'en', ...options.headers } });

/** A visitor who added `quantity` of a SKU: the cookie its cart lives under. */
async function visitorWith(skuId: number, quantity: number): Promise<{ cart_id: string }> {
  const added = await asVisitor('/v1/cart/items', { method: 'POST', body: { sku_id: skuId, quantity } });
  expect(added.status).toBe(200);
  return { cart_id: cookieFrom(added, 'cart_id')! };
}

describe("a visitor's own cart (issue 18)", () => {
  it('reads, changes and removes lines under the guest cookie, with totals and stock problems', async () => {
    const tea = await prepareSku(server, { stock: 10, priceMinor: 4_500 });
    const cup = await prepareSku(server, { stock: 4, priceMinor: 1_200 });
    const cookies = await visitorWith(tea.id, 2);
    await asVisitor('/v1/cart/items', { method: 'POST', body: { sku_id: cup.id, quantity: 3 }, cookies });

    const read = await asVisitor('/v1/cart', { cookies });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ count: 5, goods_amount_minor: 12_600, has_problems: false });
    expect(
      read.body.data.lines.map((line: { sku_id: number; quantity: number }) => [line.sku_id, line.quantity]),
    ).toEqual([
      [tea.id, 2],
      [cup.id, 3],
    ]);

    const changed = await asVisitor(`/v1/cart/items/${tea.id}`, { method: 'PUT', body: { quantity: 4 }, cookies });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ count: 7, goods_amount_minor: 21_600 });
    const tooMany = await asVisitor(`/v1/cart/items/${cup.id}`, { method: 'PUT', body: { quantity: 5 }, cookies });
    // The one stock refusal every path gives (docs/api.md).
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.msg).toMatch(/^Only 4 left of /);

    const { productSkus } = await import('../../server/db/schema');
    await server.ctx.db.update(productSkus).set({ stock: 0 }).where(eq(productSkus.id, cup.id));
    const soldOut = (await asVisitor('/v1/cart', { cookies })).body.data;
    expect(soldOut.lines[1]).toMatchObject({ sku_id: cup.id, problem: 'sold_out', problem_text: 'Sold out' });
    expect(soldOut).toMatchObject({ has_problems: true, goods_amount_minor: 18_000 });

    const removed = await asVisitor(`/v1/cart/items/${cup.id}`, { method: 'DELETE', cookies });
    expect(removed.status).toBe(200);
    expect(removed.body.data).toMatchObject({ count: 4, goods_amount_minor: 18_000, has_problems: false });
    expect((await asVisitor('/v1/cart/count', { cookies })).body.data).toEqual({ count: 4 });
  });

  it("never reaches another visitor's cart: their lines are 404 to anyone else and stay as they were", async () => {
    const sku = await prepareSku(server, { stock: 10 });
    const owner = await visitorWith(sku.id, 3);
    const stranger = await visitorWith((await prepareSku(server, { stock: 10 })).id, 1);

    for (const cookies of [stranger, undefined]) {
      const changed = await asVisitor(`/v1/cart/items/${sku.id}`, {
        method: 'PUT',
        body: { quantity: 9 },
        cookies,
      });
      expect(changed.status).toBe(404);
      expect(changed.body.msg).toBe('This item is not in your cart');
      const removed = await asVisitor(`/v1/cart/items/${sku.id}`, { method: 'DELETE', cookies });
      expect(removed.status).toBe(404);
      // Changing a line makes no cart for a visitor who has none.
      expect(cookieFrom(removed, 'cart_id')).toBeUndefined();
    }
    const theirs = (await asVisitor('/v1/cart', { cookies: stranger })).body.data;
    expect(theirs.lines.map((line: { sku_id: number }) => line.sku_id)).not.toContain(sku.id);
    const mine = (await asVisitor('/v1/cart', { cookies: owner })).body.data;
    expect(mine.lines).toEqual([expect.objectContaining({ sku_id: sku.id, quantity: 3 })]);
  });

  it.each([
    ['empty', ''],
    ['too short', 'abc'],
    ['too long', 'A'.repeat(65)],
    ['a path', '..%2F..%2Fetc%2Fpasswd'],
    ['broken percent-encoding', '%E0%A4%A'],
    ['quoted', '"AAAAAAAAAAAAAAAAAAAAAAAA"'],
    ['SQL', "x'%20or%20'1'%3D'1"],
  ])('treats a malformed cart cookie (%s) as no cart, never a 5xx', async (_name, value) => {
    const cookie = `cart_id=${value}`;
    const read = await asVisitor('/v1/cart', { headers: { cookie } });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ lines: [], count: 0 });
    expect((await asVisitor('/v1/cart/count', { headers: { cookie } })).body.data).toEqual({ count: 0 });
    const sku = await prepareSku(server, { stock: 5 });
    const changed = await asVisitor(`/v1/cart/items/${sku.id}`, {
      method: 'PUT',
      body: { quantity: 1 },
      headers: { cookie },
    });
    expect(changed.status).toBe(404);
    const added = await asVisitor('/v1/cart/items', {
      method: 'POST',
      body: { sku_id: sku.id, quantity: 1 },
      headers: { cookie },
    });
    expect(added.status).toBe(200);
    expect(cookieFrom(added, 'cart_id')).toMatch(/^[A-Za-z0-9_-]{24}$/);
  });

  it('holds at most 50 different items, also when many adds arrive at once', async () => {
    const { productSkus, products } = await import('../../server/db/schema');
    const skus = await server.ctx.db
      .select({ id: productSkus.id })
      .from(productSkus)
      .innerJoin(products, eq(products.id, productSkus.productId))
      .where(eq(products.listed, true))
      .limit(56);
    expect(skus).toHaveLength(56);
    await server.ctx.db
      .update(productSkus)
      .set({ stock: 50 })
      .where(
        inArray(
          productSkus.id,
          skus.map((sku) => sku.id),
        ),
      );
    const [first, ...rest] = skus;
    const cookies = await visitorWith(first!.id, 1);
    const answers = await Promise.all(
      rest.map((sku) =>
        asVisitor('/v1/cart/items', { method: 'POST', body: { sku_id: sku.id, quantity: 1 }, cookies }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(49);
    const refused = answers.filter((answer) => answer.status === 400);
    expect(refused).toHaveLength(6);
    expect(refused[0]!.body.msg).toBe('Your cart can hold at most 50 different items');
    expect((await asVisitor('/v1/cart', { cookies })).body.data.lines).toHaveLength(50);
  });
});
