import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { cartItems, coupons, orderItems, orders, products, productSkus } from '../../server/db/schema';
import { onlyRow } from '../../server/db/rows';
import { userCartKey } from '../../server/domains/cart/cart.service';
import { nextOrderNo, orderNoDay } from '../../server/domains/orders/order-numbers';
import { chinaAddress, makeBuyer, prepareSku, stockOf, usAddress, type Buyer } from '../support/buyers';
import { useTestApp } from '../support/test-server';

const server = useTestApp();

async function buyerWithAddress(
  address: Record<string, unknown> = chinaAddress,
): Promise<Buyer & { addressId: number }> {
  const buyer = await makeBuyer(server);
  const created = await buyer.call('/v1/useraddress', { method: 'POST', body: address });
  expect(created.status).toBe(200);
  return Object.assign(buyer, { addressId: created.body.data.id as number });
}

describe('POST /v2/order/confirm', () => {
  it('prices goods, shipping by destination and weight, and the total, with the default address', async () => {
    const buyer = await buyerWithAddress(usAddress);
    const sku = await prepareSku(server, { stock: 10, priceMinor: 12_000, weightGrams: 700 });
    await server.ctx.db
      .update(productSkus)
      .set({ hsCode: '610910', originCountry: 'CN' })
      .where(eq(productSkus.id, sku.id));
    const { body } = await buyer.call('/v2/order/confirm', {
      method: 'POST',
      body: { items: [{ sku_id: sku.id, quantity: 2 }] },
    });
    expect(body.code).toBe(200);
    // The seed's US rule: 98.00 for the first 500 g, 35.00 for each started 500 g more, free from 999.00.
    // 2 × 700 g = 1400 g: 98.00 + 2 × 35.00.
    // US duties (DDP, tests/api/duties.test.ts has more): goods USD 33.34 (240.00 × 0.1389), a T-shirt's
    // 16.5% + 7.5% = 8.00, and the USD 5.00 entry fee: USD 13.00 = CNY 93.59 (93.5925).
    expect(body.data).toMatchObject({
      currency: 'CNY',
      display_currency: 'CNY',
      needs_address: false,
      weight_grams: 1_400,
      product_price: { amount_minor: 24_000 },
      shipping_fee: { amount_minor: 16_800 },
      discount: { amount_minor: 0 },
      duties: { incoterm: 'DDP', charged: { amount_minor: 93_59 } },
      total: { amount_minor: 40_800 + 93_59 },
      labels: {
        product_price: 'Product price',
        shipping_fee: 'Shipping fee',
        discount: 'Discount',
        total: 'Total',
      },
    });
    expect(body.data.address.country_code).toBe('US');
    expect(body.data.lines[0]).toMatchObject({
      sku_id: sku.id,
      quantity: 2,
      unit_price: { amount_minor: 12_000 },
    });
  });

  it('ships free over the threshold and does not weigh free-shipping products', async () => {
    const buyer = await buyerWithAddress();
    // The seed's CN rule: 12.00 for the first 1000 g, free from 199.00.
    const sku = await prepareSku(server, { stock: 99, priceMinor: 10_000, weightGrams: 700 });
    const under = await buyer.call('/v2/order/confirm', {
      method: 'POST',
      body: { items: [{ sku_id: sku.id, quantity: 1 }] },
    });
    expect(under.body.data.shipping_fee.amount_minor).toBe(1_200);
    const over = await buyer.call('/v2/order/confirm', {
      method: 'POST',
      body: { items: [{ sku_id: sku.id, quantity: 2 }] },
    });
    expect(over.body.data.product_price.amount_minor).toBe(20_000);
    expect(over.body.data.shipping_fee.amount_minor).toBe(0);
    const free = await prepareSku(server, { stock: 5, freeShipping: true });
    const weightless = await buyer.call('/v2/order/confirm', {
      method: 'POST',
      body: { items: [{ sku_id: free.id, quantity: 1 }] },
    });
    expect(weightless.body.data.weight_grams).toBe(0);
    expect(weightless.body.data.shipping_fee.amount_minor).toBe(0);
  });

  it('converts every amount into the display currency at the shop rate and says which rate', async () => {
    const buyer = await buyerWithAddress();
    const sku = await prepareSku(server, { stock: 10 });
    const { body } = await buyer.call('/v2/order/confirm', {
      method: 'POST',
      body: { items: [{ sku_id: sku.id, quantity: 1 }], currency: 'USD' },
    });
    expect(body.data.display_currency).toBe('USD');
    expect(body.data.exchange_rate).toBe('0.138900');
    expect(body.data.total.display_amount_minor).toBe(Math.round(body.data.total.amount_minor * 0.1389));
    const yen = await buyer.call('/v2/order/confirm', {
      method: 'POST',
      body: { items: [{ sku_id: sku.id, quantity: 1 }], currency: 'JPY' },
    });
    expect(yen.body.data.total.display_amount_minor).toBe(Math.round((yen.body.data.total.amount_minor / 100) * 21.37));
  });

  it('answers without an address: no shipping fee yet, needs_address true', async () => {
    const buyer = await makeBuyer(server);
    const sku = await prepareSku(server, { stock: 3 });
    const { body } = await buyer.call('/v2/order/confirm', {
      method: 'POST',
      body: { items: [{ sku_id: sku.id, quantity: 1 }] },
    });
    expect(body.data).toMatchObject({ needs_address: true, address: null, shipping_fee: { amount_minor: 0 } });
  });

  it('ignores amounts sent by the client', async () => {
    const buyer = await buyerWithAddress();
    const sku = await prepareSku(server, { stock: 10 });
    const honest = await buyer.call('/v2/order/confirm', {
      method: 'POST',
      body: { items: [{ sku_id: sku.id, quantity: 1 }] },
    });
    const tampered = await buyer.call('/v2/order/confirm', {
      method: 'POST',
      body: {
        items: [{ sku_id: sku.id, quantity: 1, price: 1, unit_price_minor: 1 }],
        total: 1,
        total_minor: 1,
        shipping_fee: 0,
        discount: 999999,
      },
    });
    expect(tampered.body.data.total).toEqual(honest.body.data.total);
    expect(tampered.body.data.lines[0].unit_price.amount_minor).toBe(sku.priceMinor);
  });

  it('applies percentage and fixed coupons and refuses bad ones with a reason', async () => {
    const buyer = await buyerWithAddress();
    const sku = await prepareSku(server, { stock: 50, priceMinor: 8_000, weightGrams: 400 });
    // 3 × 80.00 = 240.00: over SAVE30's minimum spend of 200.00, and ships free in China (from 199.00).
    const items = [{ sku_id: sku.id, quantity: 3 }];
    const percent = await buyer.call('/v2/order/confirm', {
      method: 'POST',
      body: { items, coupon_code: 'welcome10' },
    });
    expect(percent.body.data.discount.amount_minor).toBe(2_400);
    expect(percent.body.data.coupon.code).toBe('WELCOME10');
    const fixed = await buyer.call('/v2/order/confirm', { method: 'POST', body: { items, coupon_code: 'SAVE30' } });
    expect(fixed.body.data.discount.amount_minor).toBe(3_000);
    expect(fixed.body.data.shipping_fee.amount_minor).toBe(0);
    expect(fixed.body.data.total.amount_minor).toBe(21_000);

    await server.ctx.db.insert(coupons).values([
      { code: 'OLD5', kind: 'fixed', value: 500, expiresAt: new Date('2020-01-01') },
      { code: 'GONE5', kind: 'fixed', value: 500, usageLimit: 1, usedCount: 1 },
    ]);
    const small = [{ sku_id: sku.id, quantity: 1 }];
    const cases: Array<[string, typeof items, RegExp]> = [
      ['NOPE', items, /^This coupon code is not valid$/],
      ['OLD5', items, /^This coupon has expired$/],
      ['GONE5', items, /^This coupon has been fully used$/],
      ['SAVE30', small, /^This coupon needs a minimum spend of 200\.00 CNY$/],
    ];
    for (const [code, lines, message] of cases) {
      const refused = await buyer.call('/v2/order/confirm', {
        method: 'POST',
        body: { items: lines, coupon_code: code },
      });
      expect(refused.status, code).toBe(400);
      expect(refused.body.msg).toMatch(message);
    }
  });

  const empty = 'Please choose at least one item';
  const noQuantity = 'Quantity must be at least 1';
  it.each([
    [{ items: [] }, 400, empty],
    [{ items: [{ sku_id: 1, quantity: 0 }] }, 400, noQuantity],
    [{ items: [{ sku_id: 1, quantity: -1 }] }, 400, noQuantity],
    [{ items: [{ sku_id: 99_999_999, quantity: 1 }] }, 404, 'This product option does not exist'],
    [{}, 400, empty],
    [{ items: [{ sku_id: 1, quantity: 1 }], from_cart: true }, 400, empty],
    [
      {
        items: [
          { sku_id: 1, quantity: 1 },
          { sku_id: 1, quantity: 2 },
        ],
      },
      400,
      'The same product option appears twice',
    ],
  ])('refuses %j', async (body, status, message) => {
    const buyer = await makeBuyer(server);
    const response = await buyer.call('/v2/order/confirm', { method: 'POST', body });
    expect(response.status).toBe(status);
    expect(response.body.msg).toBe(message);
  });

  it('refuses more than the stock and needs a session', async () => {
    const buyer = await makeBuyer(server);
    const sku = await prepareSku(server, { stock: 2 });
    const response = await buyer.call('/v2/order/confirm', {
      method: 'POST',
      body: { items: [{ sku_id: sku.id, quantity: 3 }] },
    });
    expect(response.status).toBe(409);
    expect(response.body.msg).toMatch(/^Only 2 left of /);
    expect(
      (
        await server.request('/v2/order/confirm', {
          method: 'POST',
          body: { items: [{ sku_id: sku.id, quantity: 1 }] },
        })
      ).body.code,
    ).toBe(301);
  });
});

async function englishName(productId: number): Promise<string> {
  const row = onlyRow(
    await server.ctx.db.select({ name: products.name }).from(products).where(eq(products.id, productId)),
  );
  return row.name.en;
}

describe('refusals for stock', () => {
  /** Status and message of each path that checks stock, asked for `quantity` of the SKU. */
  async function refusals(skuId: number, quantity: number) {
    const buyer = await buyerWithAddress();
    const answer = async (path: string, method: string, body: object) => {
      const response = await buyer.call(path, { method, body });
      return [response.status, response.body.msg];
    };
    // A line of one unit goes into the cart directly, as if added while the stock lasted.
    await server.ctx.db.insert(cartItems).values({ cartKey: userCartKey(buyer.id), skuId, quantity: 1 });
    return {
      add: await answer('/v1/cart/items', 'POST', { sku_id: skuId, quantity }),
      change: await answer(`/v1/cart/items/${skuId}`, 'PUT', { quantity }),
      confirm: await answer('/v2/order/confirm', 'POST', { items: [{ sku_id: skuId, quantity }] }),
      order: await answer('/v2/order', 'POST', { items: [{ sku_id: skuId, quantity }] }),
      orderFromCart: await answer('/v2/order', 'POST', { from_cart: true }),
    };
  }

  it('answers 409 "Only N left" on every path when fewer are left than asked for', async () => {
    const sku = await prepareSku(server, { stock: 2 });
    const refused = [409, `Only 2 left of ${await englishName(sku.productId)}`];
    expect(await refusals(sku.id, 3)).toEqual({
      add: refused,
      change: refused,
      confirm: refused,
      order: refused,
      // The cart's line of one unit fits: the order goes through.
      orderFromCart: [200, expect.any(String)],
    });
    expect(await stockOf(server, sku.id)).toBe(1);
  });

  it('answers 409 "is sold out" on every path when none are left', async () => {
    const sku = await prepareSku(server, { stock: 0 });
    const refused = [409, `${await englishName(sku.productId)} is sold out`];
    expect(await refusals(sku.id, 1)).toEqual({
      add: refused,
      change: refused,
      confirm: refused,
      order: refused,
      orderFromCart: refused,
    });
  });
});

describe('POST /v2/order', () => {
  it('creates the order (status 1, pay status 1), takes the stock, snapshots lines and address, clears the cart', async () => {
    const buyer = await buyerWithAddress();
    const sku = await prepareSku(server, { stock: 10 });
    const other = await prepareSku(server, { stock: 10 });
    await buyer.call('/v1/cart/items', { method: 'POST', body: { sku_id: sku.id, quantity: 3 } });
    await buyer.call('/v1/cart/items', { method: 'POST', body: { sku_id: other.id, quantity: 1 } });
    const placed = await buyer.call('/v2/order', {
      method: 'POST',
      body: { from_cart: true, address_id: buyer.addressId, notes: 'Leave at the door', currency: 'USD' },
      headers: { 'idempotency-key': 'cart-order-0001' },
    });
    expect(placed.status).toBe(200);
    expect(placed.body.msg).toBe('Order placed');
    const order = placed.body.data;
    expect(order).toMatchObject({
      status: 1,
      pay_status: 1,
      created: true,
      notes: 'Leave at the door',
      display_currency: 'USD',
      exchange_rate: '0.138900',
      country_code: 'CN',
    });
    expect(order.items).toHaveLength(2);
    expect(order.contact).toEqual({ name: 'Li Lei', phone: '+8613812345678' });
    expect(order.history).toEqual([expect.objectContaining({ status: 1, note: 'Order placed', actor: 'buyer' })]);
    expect(await stockOf(server, sku.id)).toBe(7);
    expect(await stockOf(server, other.id)).toBe(9);
    expect((await buyer.call('/v1/cart')).body.data.lines).toEqual([]);

    // Snapshots do not follow later catalogue changes.
    const [item] = await server.ctx.db.select().from(orderItems).where(eq(orderItems.skuId, sku.id));
    if (!item) throw new Error(`no order item for SKU ${sku.id}`);
    await server.ctx.db
      .update(products)
      .set({ name: { en: 'Renamed', 'zh-cn': '改名' } })
      .where(eq(products.id, sku.productId));
    try {
      const detail = await buyer.call(`/v1/order/${order.id}`);
      expect(detail.body.data.items.find((line: { sku_id: number }) => line.sku_id === sku.id).name).toBe(
        item.productName.en,
      );
    } finally {
      await server.ctx.db.update(products).set({ name: item.productName }).where(eq(products.id, sku.productId));
    }
  });

  it('needs an address', async () => {
    const buyer = await makeBuyer(server);
    const sku = await prepareSku(server, { stock: 5 });
    const response = await buyer.call('/v2/order', {
      method: 'POST',
      body: { items: [{ sku_id: sku.id, quantity: 1 }] },
    });
    expect(response.status).toBe(400);
    expect(response.body.msg).toBe('Please fill in the complete shipping address information');
    const zh = await buyer.call('/v2/order', {
      method: 'POST',
      body: { items: [{ sku_id: sku.id, quantity: 1 }] },
      headers: { lang: 'zh-cn' },
    });
    expect(zh.body.msg).toBe('请填写完整的收货地址信息');
  });

  it("refuses another user's address with 404", async () => {
    const owner = await buyerWithAddress();
    const thief = await makeBuyer(server);
    const sku = await prepareSku(server, { stock: 5 });
    const response = await thief.call('/v2/order', {
      method: 'POST',
      body: { items: [{ sku_id: sku.id, quantity: 1 }], address_id: owner.addressId },
    });
    expect(response.status).toBe(404);
    expect(await stockOf(server, sku.id)).toBe(5);
  });

  it('stores the server price whatever the client sends', async () => {
    const buyer = await buyerWithAddress();
    const sku = await prepareSku(server, { stock: 5 });
    const placed = await buyer.call('/v2/order', {
      method: 'POST',
      body: {
        items: [{ sku_id: sku.id, quantity: 1, price_minor: 1 }],
        total_minor: 1,
        total: '0.01',
        discount_minor: 100000,
      },
    });
    expect(placed.status).toBe(200);
    const [row] = await server.ctx.db.select().from(orders).where(eq(orders.id, placed.body.data.id));
    if (!row) throw new Error(`no order row with id ${placed.body.data.id}`);
    expect(row.goodsAmountMinor).toBe(sku.priceMinor);
    expect(row.totalMinor).toBe(sku.priceMinor + row.shippingFeeMinor);
    expect(row.discountMinor).toBe(0);
  });

  it('creates one order for a double submit with the same key (header or body), taking stock once', async () => {
    const buyer = await buyerWithAddress();
    const sku = await prepareSku(server, { stock: 10 });
    const body = { items: [{ sku_id: sku.id, quantity: 2 }], idempotency_key: 'double-click-0001' };
    const answers = await Promise.all([
      buyer.call('/v2/order', { method: 'POST', body }),
      buyer.call('/v2/order', { method: 'POST', body }),
      buyer.call('/v2/order', {
        method: 'POST',
        body: { items: body.items },
        headers: { 'idempotency-key': 'double-click-0001' },
      }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((answer) => answer.body.data.id)).size).toBe(1);
    expect(answers.filter((answer) => answer.body.data.created)).toHaveLength(1);
    expect(await stockOf(server, sku.id)).toBe(8);
    const bad = await buyer.call('/v2/order', {
      method: 'POST',
      body: { items: body.items },
      headers: { 'idempotency-key': 'x' },
    });
    expect(bad.status).toBe(400);
  });

  it('answers a repeated key with its order after the cart was emptied and the SKU sold out, and a new key with the refusal', async () => {
    const buyer = await buyerWithAddress();
    const sku = await prepareSku(server, { stock: 2 });
    await buyer.call('/v1/cart/items', { method: 'POST', body: { sku_id: sku.id, quantity: 2 } });
    const fromCart = { from_cart: true, address_id: buyer.addressId };
    const placed = await buyer.call('/v2/order', {
      method: 'POST',
      body: fromCart,
      headers: { 'idempotency-key': 'sold-out-retry-0001' },
    });
    expect(placed.status).toBe(200);
    expect(await stockOf(server, sku.id)).toBe(0);

    const repeated = await buyer.call('/v2/order', {
      method: 'POST',
      body: fromCart,
      headers: { 'idempotency-key': 'sold-out-retry-0001' },
    });
    expect(repeated.status).toBe(200);
    expect(repeated.body.data).toMatchObject({
      id: placed.body.data.id,
      created: false,
      order_no: placed.body.data.order_no,
    });
    expect(repeated.body.data.items).toEqual(placed.body.data.items);

    const direct = await buyer.call('/v2/order', {
      method: 'POST',
      body: { items: [{ sku_id: sku.id, quantity: 1 }], address_id: buyer.addressId },
      headers: { 'idempotency-key': 'sold-out-retry-0002' },
    });
    expect([direct.status, direct.body.msg]).toEqual([409, `${await englishName(sku.productId)} is sold out`]);
    // Another buyer's key of the same spelling is not this buyer's order.
    const stranger = await buyerWithAddress();
    const strangers = await stranger.call('/v2/order', {
      method: 'POST',
      body: { items: [{ sku_id: sku.id, quantity: 1 }], address_id: stranger.addressId },
      headers: { 'idempotency-key': 'sold-out-retry-0001' },
    });
    expect(strangers.status).toBe(409);
    expect(await stockOf(server, sku.id)).toBe(0);
  });

  it('never oversells: 30 parallel orders for a stock of 10 make exactly 10 orders', async () => {
    const sku = await prepareSku(server, { stock: 10 });
    const buyers = await Promise.all(Array.from({ length: 30 }, () => buyerWithAddress()));
    const answers = await Promise.all(
      buyers.map((buyer) =>
        buyer.call('/v2/order', { method: 'POST', body: { items: [{ sku_id: sku.id, quantity: 1 }] } }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    // Refused by the quote (the shelf already empty) or by the stock guard (emptied meanwhile): one answer.
    const name = await englishName(sku.productId);
    expect(answers.filter((answer) => answer.status !== 200).map((answer) => [answer.status, answer.body.msg])).toEqual(
      Array.from({ length: 20 }, () => [409, `${name} is sold out`]),
    );
    expect(await stockOf(server, sku.id)).toBe(0);
    const sold = await server.ctx.db.select().from(orderItems).where(eq(orderItems.skuId, sku.id));
    expect(sold.reduce((sum, line) => sum + line.quantity, 0)).toBe(10);
  });

  it('counts coupon use atomically: a coupon for 2 uses serves exactly 2 of 5 parallel orders', async () => {
    await server.ctx.db.insert(coupons).values({ code: 'TWICE', kind: 'fixed', value: 100, usageLimit: 2 });
    const sku = await prepareSku(server, { stock: 50 });
    const buyers = await Promise.all(Array.from({ length: 5 }, () => buyerWithAddress()));
    const answers = await Promise.all(
      buyers.map((buyer) =>
        buyer.call('/v2/order', {
          method: 'POST',
          body: { items: [{ sku_id: sku.id, quantity: 1 }], coupon_code: 'TWICE' },
        }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(2);
    expect(answers.filter((answer) => answer.status >= 500)).toEqual([]);
    const [coupon] = await server.ctx.db.select().from(coupons).where(eq(coupons.code, 'TWICE'));
    expect(coupon?.usedCount).toBe(2);
    expect(await stockOf(server, sku.id)).toBe(48);
  });
});

async function drawOrderNo(now: Date): Promise<string> {
  const result = await server.ctx.db.execute(sql`select ${nextOrderNo(orderNoDay(now))} as order_no`);
  return onlyRow((result as unknown as { rows: { order_no: string }[] }).rows).order_no;
}

describe('order numbers', () => {
  it('are the UTC day and a sequence: 3,000 drawn in the same minute are all different', async () => {
    const sameMinute = new Date('2026-11-25T10:15:00Z');
    const drawn: string[] = [];
    for (let i = 0; i < 3_000; i++) {
      drawn.push(await drawOrderNo(sameMinute));
    }
    expect(new Set(drawn).size).toBe(3_000);
    for (const orderNo of drawn) expect(orderNo).toMatch(/^261125\d{6,}$/);
  });

  it('keep at least six digits after the day and grow past them instead of wrapping', async () => {
    const day = new Date('2026-11-25T23:59:59Z');
    await server.ctx.db.execute(sql`select setval('order_numbers', 999999)`);
    expect(await drawOrderNo(day)).toBe('2611251000000');
  });

  it('draw another number when one is already taken (a sequence set back by a restored backup)', async () => {
    const buyer = await buyerWithAddress();
    const sku = await prepareSku(server, { stock: 5 });
    const place = () => buyer.call('/v2/order', { method: 'POST', body: { items: [{ sku_id: sku.id, quantity: 1 }] } });
    const first = await place();
    expect(first.status).toBe(200);
    const firstNo: string = first.body.data.order_no;
    // Set the sequence back so that the next draw repeats the first order's number.
    await server.ctx.db.execute(sql`select setval('order_numbers', ${Number(firstNo.slice(6))}, false)`);
    const second = await place();
    expect(second.status).toBe(200);
    expect(second.body.data.order_no).not.toBe(firstNo);
    expect(Number(second.body.data.order_no.slice(6))).toBe(Number(firstNo.slice(6)) + 1);
  });
});
