import { eq } from 'drizzle-orm';
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
    await server.ctx.db.update(products).set({ listed: false }).where(eq(products.id, gone.productId));
    try {
      const cart = (await other.call('/v1/cart')).body.data;
      const bySku = Object.fromEntries(cart.lines.map((line: { sku_id: number }) => [line.sku_id, line]));
      expect(bySku[soon.id]).toMatchObject({ problem: 'sold_out', problem_text: 'Sold out' });
      expect(bySku[fewer.id]).toMatchObject({ problem: 'insufficient_stock', problem_text: 'Only 2 left' });
      expect(bySku[gone.id]).toMatchObject({ problem: 'unlisted', problem_text: 'No longer available' });
      expect(cart.has_problems).toBe(true);
      expect(cart.goods_amount_minor).toBe(0);
    } finally {
      await server.ctx.db.update(products).set({ listed: true }).where(eq(products.id, gone.productId));
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
