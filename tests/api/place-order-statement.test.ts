import { and, eq, like, sql, type SQL } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { cartItems, coupons, orders, orderStatusHistory, outbox } from '../../server/db/schema';
import { userCartKey } from '../../server/domains/cart/cart.service';
import { isStockShort } from '../../server/domains/catalog/stock.service';
import { placeOrderStatement, type PlacementParameters } from '../../server/domains/checkout/place-order.statement';
import { isCouponUsedUp } from '../../server/domains/coupons/coupons.service';
import { enqueueOrderMail } from '../../server/domains/orders/order-mail';
import { placedOrderFromJson, placedOrderRows } from '../../server/domains/orders/order-state';
import { chinaAddress, makeBuyer, prepareSku, stockOf, type Buyer } from '../support/buyers';
import { postgresAdminUrl } from '../support/database';
import { useTestApp } from '../support/test-server';

/** The whole placement is one statement (ADR 0179): what it writes, and that a refusal writes nothing. */
const server = useTestApp();

const SNAPSHOT = {
  country_code: 'CN',
  country_name: { 'zh-cn': '中国', en: 'China' },
  province_id: 'CN-GD',
  province_name: { 'zh-cn': '广东省', en: 'Guangdong' },
  city_id: 'CN-GD-440100',
  city_name: { 'zh-cn': '广州市', en: 'Guangzhou' },
  detail: '88 Tianhe Road',
  postal_code: '510000',
  contact_name: 'Li Lei',
  contact_phone: '+8613812345678',
};

/** The parameters of one order of `quantity` × the SKU at 100.00, from the cart and with the coupon when given. */
function placement(
  buyer: Buyer,
  sku: { id: number; productId: number },
  options: { quantity: number; couponId?: number },
): PlacementParameters {
  const now = new Date('2026-12-05T10:00:00Z');
  const rows = placedOrderRows(
    {
      userId: buyer.id,
      locale: 'en',
      currency: 'CNY',
      goodsAmountMinor: 10_000 * options.quantity,
      shippingFeeMinor: 0,
      discountMinor: 0,
      dutiesMinor: 0,
      totalMinor: 10_000 * options.quantity,
      displayCurrency: 'CNY',
      displayRateMicros: 1_000_000,
      displayTotalMinor: 10_000 * options.quantity,
      couponId: options.couponId ?? null,
      couponCode: null,
      address: SNAPSHOT,
      notes: '',
      idempotencyKey: null,
      paymentDeadline: new Date('2026-12-05T10:30:00Z'),
      createdAt: now,
      updatedAt: now,
    },
    [
      {
        productId: sku.productId,
        skuId: sku.id,
        skuCode: 'TEST-1',
        productName: { 'zh-cn': '测试', en: 'Test' },
        skuProperties: [],
        image: null,
        unitPriceMinor: 10_000,
        quantity: options.quantity,
        lineTotalMinor: 10_000 * options.quantity,
        weightGrams: 300,
      },
    ],
  );
  return {
    ...rows,
    day: '261205',
    stock: JSON.stringify([{ sku_id: sku.id, quantity: options.quantity }]),
    duties: '[]',
    couponId: options.couponId ?? null,
    cartKey: userCartKey(buyer.id),
  };
}

/** A buyer with `inCart` of a SKU in the cart, the SKU with `stock`, and a coupon. */
async function shopperWith(options: {
  stock: number;
  coupon: { code: string; usageLimit: number; usedCount: number };
  inCart: number;
}) {
  const buyer = await makeBuyer(server);
  const sku = await prepareSku(server, { stock: options.stock });
  const [coupon] = await server.ctx.db
    .insert(coupons)
    .values({ kind: 'fixed', value: 100, ...options.coupon })
    .returning();
  await server.ctx.db
    .insert(cartItems)
    .values({ cartKey: userCartKey(buyer.id), skuId: sku.id, quantity: options.inCart });
  return { buyer, sku, coupon: coupon! };
}

/** The error the statement failed with (null when it did not fail). */
function refusalOf(parameters: PlacementParameters): Promise<unknown> {
  return placeOrderStatement(server.ctx.db)
    .execute(parameters)
    .then(
      () => null,
      (error: unknown) => error,
    );
}

async function writtenFor(buyer: Buyer, skuId: number) {
  const placed = await server.ctx.db.select().from(orders).where(eq(orders.userId, buyer.id));
  const mails = await server.ctx.db.select().from(outbox).where(like(outbox.dedupeKey, 'order-mail:%'));
  const cart = await server.ctx.db
    .select()
    .from(cartItems)
    .where(and(eq(cartItems.cartKey, userCartKey(buyer.id)), eq(cartItems.skuId, skuId)));
  return {
    orders: placed.length,
    mails: mails.filter((mail) => placed.some((order) => mail.dedupeKey === `order-mail:${order.id}:placed`)).length,
    cartLines: cart.length,
  };
}

describe('placing an order in one statement', () => {
  it('writes the order, its lines, history, owed mail, coupon use, cleared cart and stock, and answers the rows', async () => {
    const { buyer, sku, coupon } = await shopperWith({
      stock: 3,
      coupon: { code: 'ONESTATEMENT', usageLimit: 5, usedCount: 0 },
      inCart: 3,
    });

    const [answer] = await placeOrderStatement(server.ctx.db).execute(
      placement(buyer, sku, { quantity: 3, couponId: coupon.id }),
    );

    const [order] = await server.ctx.db.select().from(orders).where(eq(orders.userId, buyer.id));
    expect(order).toMatchObject({ status: 1, payStatus: 1, totalMinor: 30_000, couponId: coupon.id });
    expect(order!.orderNo).toMatch(/^261205\d{6,}$/);
    expect(answer!.soldOut).toBe(true);
    expect(answer!.order).toMatchObject({ id: order!.id, order_no: order!.orderNo, total_minor: 30_000 });
    expect(answer!.lines).toEqual([
      expect.objectContaining({ order_id: order!.id, sku_id: sku.id, quantity: 3, line_total_minor: 30_000 }),
    ]);
    // Read back from JSON in the shape a drizzle select gives: Dates, parsed JSON columns, numbers.
    const written = placedOrderFromJson(answer!);
    expect(written.order).toMatchObject({
      id: order!.id,
      createdAt: new Date('2026-12-05T10:00:00Z'),
      paymentDeadline: new Date('2026-12-05T10:30:00Z'),
      address: SNAPSHOT,
      displayRateMicros: 1_000_000,
      paidAt: null,
    });
    expect(written.items[0]).toMatchObject({ productName: { 'zh-cn': '测试', en: 'Test' }, skuProperties: [] });
    expect(written.history[0]!.createdAt).toEqual(new Date('2026-12-05T10:00:00Z'));
    const history = await server.ctx.db
      .select()
      .from(orderStatusHistory)
      .where(eq(orderStatusHistory.orderId, order!.id));
    expect(history.map((entry) => [entry.fromStatus, entry.toStatus, entry.actor, entry.note])).toEqual([
      [null, 1, 'buyer', 'order.history.placed'],
    ]);
    const [mail] = await server.ctx.db
      .select()
      .from(outbox)
      .where(eq(outbox.dedupeKey, `order-mail:${order!.id}:placed`));
    expect(mail).toMatchObject({ topic: 'order-mail', payload: { orderId: order!.id, kind: 'placed' } });
    // The key is the one enqueueOrderMail uses: owing the same mail again keeps one row.
    await server.ctx.db.transaction((tx) =>
      enqueueOrderMail({ ...server.ctx, db: tx }, { orderId: order!.id, kind: 'placed' }),
    );
    expect(await writtenFor(buyer, sku.id)).toEqual({ orders: 1, mails: 1, cartLines: 0 });
    const [used] = await server.ctx.db.select().from(coupons).where(eq(coupons.id, coupon.id));
    expect(used!.usedCount).toBe(1);
    expect(await stockOf(server, sku.id)).toBe(0);
  });

  it('writes nothing when the stock falls short: no order, mail, coupon use or cleared cart', async () => {
    const { buyer, sku, coupon } = await shopperWith({
      stock: 1,
      coupon: { code: 'NOTUSED', usageLimit: 5, usedCount: 0 },
      inCart: 2,
    });

    const refusal = await refusalOf(placement(buyer, sku, { quantity: 2, couponId: coupon.id }));

    expect(isStockShort(refusal)).toBe(true);
    expect(await writtenFor(buyer, sku.id)).toEqual({ orders: 0, mails: 0, cartLines: 1 });
    const [unused] = await server.ctx.db.select().from(coupons).where(eq(coupons.id, coupon.id));
    expect(unused!.usedCount).toBe(0);
    expect(await stockOf(server, sku.id)).toBe(1);
  });

  it('writes nothing when the coupon was used up meanwhile, and takes no stock', async () => {
    const { buyer, sku, coupon } = await shopperWith({
      stock: 5,
      coupon: { code: 'USEDUP', usageLimit: 1, usedCount: 1 },
      inCart: 1,
    });

    const refusal = await refusalOf(placement(buyer, sku, { quantity: 1, couponId: coupon.id }));

    expect(isCouponUsedUp(refusal)).toBe(true);
    expect(isStockShort(refusal)).toBe(false);
    expect(await writtenFor(buyer, sku.id)).toEqual({ orders: 0, mails: 0, cartLines: 1 });
    expect(await stockOf(server, sku.id)).toBe(5);
  });

  it('never deadlocks: 20 parallel orders for the same two SKUs, listed in either order, are all placed', async () => {
    const first = await prepareSku(server, { stock: 100 });
    const second = await prepareSku(server, { stock: 100 });
    const buyers = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const buyer = await makeBuyer(server);
        expect((await buyer.call('/v1/useraddress', { method: 'POST', body: chinaAddress })).status).toBe(200);
        return buyer;
      }),
    );
    const answers = await Promise.all(
      buyers.map((buyer, index) => {
        const lines = [
          { sku_id: first.id, quantity: 1 },
          { sku_id: second.id, quantity: 2 },
        ];
        return buyer.call('/v2/order', { method: 'POST', body: { items: index % 2 ? lines.reverse() : lines } });
      }),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 20 }, () => 200));
    expect(await stockOf(server, first.id)).toBe(80);
    expect(await stockOf(server, second.id)).toBe(60);
  });
});

/** The rows a raw statement answered. */
function rowsOf(result: unknown): unknown[] {
  return (result as { rows: unknown[] }).rows;
}

/**
 * Whether the row `probe` asks for is free while a placement waits on the row `hold` locks:
 * one transaction takes `hold`, the placement starts and waits, and the same transaction then
 * asks for the probed row with SKIP LOCKED (no row: the placement has it).
 */
async function rowFreeWhileAPlacementWaits(options: {
  hold: SQL;
  probe: SQL;
  parameters: PlacementParameters;
}): Promise<boolean> {
  let placing: Promise<unknown> | undefined;
  const free = await server.ctx.db.transaction(async (holder) => {
    await holder.execute(options.hold);
    placing = placeOrderStatement(server.ctx.db).execute(options.parameters);
    await expect
      .poll(
        async () =>
          rowsOf(
            await server.ctx.db.execute(sql`select 1 from pg_stat_activity
              where wait_event_type = 'Lock' and query like 'with "placed_order"%'`),
          ).length,
        { timeout: 10_000 },
      )
      .toBe(1);
    return rowsOf(await holder.execute(options.probe)).length === 1;
  });
  await placing;
  return free;
}

// PGlite has one connection: a second transaction cannot hold a lock beside the placement.
describe.skipIf(!postgresAdminUrl)('the hot SKU row on PostgreSQL', () => {
  it('is locked last: a placement still waiting to clear the cart leaves the SKU free for other orders', async () => {
    const { buyer, sku } = await shopperWith({
      stock: 5,
      coupon: { code: 'LOCKLAST', usageLimit: 5, usedCount: 0 },
      inCart: 1,
    });

    const skuFree = await rowFreeWhileAPlacementWaits({
      hold: sql`select 1 from cart_items where cart_key = ${userCartKey(buyer.id)} for update`,
      probe: sql`select 1 from product_skus where id = ${sku.id} for update skip locked`,
      parameters: placement(buyer, sku, { quantity: 1 }),
    });

    expect(skuFree).toBe(true);
    expect(await writtenFor(buyer, sku.id)).toEqual({ orders: 1, mails: 1, cartLines: 0 });
    expect(await stockOf(server, sku.id)).toBe(4);
  });

  it('locks the coupon after the SKU, as cancelling does, so the two can never deadlock', async () => {
    const { buyer, sku, coupon } = await shopperWith({
      stock: 5,
      coupon: { code: 'SKUTHENCOUPON', usageLimit: 5, usedCount: 0 },
      inCart: 1,
    });

    // Cancelling an order (releaseOrderHolds) returns its stock, then its coupon use.
    const couponFree = await rowFreeWhileAPlacementWaits({
      hold: sql`select 1 from product_skus where id = ${sku.id} for update`,
      probe: sql`select 1 from coupons where id = ${coupon.id} for update skip locked`,
      parameters: placement(buyer, sku, { quantity: 1, couponId: coupon.id }),
    });

    expect(couponFree).toBe(true);
    const [used] = await server.ctx.db.select().from(coupons).where(eq(coupons.id, coupon.id));
    expect(used!.usedCount).toBe(1);
    expect(await stockOf(server, sku.id)).toBe(4);
  });
});
