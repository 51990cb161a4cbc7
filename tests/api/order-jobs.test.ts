import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/client';
import { coupons, orders, orderStatusHistory } from '../../server/db/schema';
import { shipOrder } from '../../server/domains/orders/order-operations.service';
import { CLI_ACTOR } from '../../server/domains/audit/audit.service';
import { markOrderPaid } from '../../server/domains/orders/order-payment.service';
import { runOrderSweep, startOrderJobs } from '../../server/jobs/order-sweep';
import { makeShopper, placeOrderFor, prepareSku, stockOf } from '../support/buyers';
import { useTestServer } from '../support/test-server';

const server = useTestServer();

const minutes = (n: number) => new Date(Date.now() + n * 60_000);

describe('unpaid orders cancel themselves', () => {
  it('cancels only orders past ORDER_PAYMENT_TIMEOUT_MINUTES, gives stock and coupon use back once', async () => {
    await server.ctx.db.insert(coupons).values({ code: 'SWEEPME', kind: 'fixed', value: 100, usageLimit: 5 });
    const buyer = await makeShopper(server);
    const sku = await prepareSku(server, { stock: 10 });
    const unpaid = await buyer.call('/v2/order', {
      method: 'POST',
      body: { items: [{ sku_id: sku.id, quantity: 3 }], coupon_code: 'SWEEPME' },
    });
    expect(unpaid.status).toBe(200);
    const paidOrder = await placeOrderFor(buyer, sku.id, 2);
    expect((await markOrderPaid(server.ctx, { orderId: paidOrder.id, paymentId: 'p' })).outcome).toBe('paid');
    expect(await stockOf(server, sku.id)).toBe(5);

    const early = await runOrderSweep(server.ctx, { now: minutes(29) });
    expect(early.cancelled).not.toContain(unpaid.body.data.id);
    const due = await runOrderSweep(server.ctx, { now: minutes(31) });
    expect(due.cancelled).toContain(unpaid.body.data.id);
    expect(due.cancelled).not.toContain(paidOrder.id);
    expect(await stockOf(server, sku.id)).toBe(8);
    const [coupon] = await server.ctx.db.select().from(coupons).where(eq(coupons.code, 'SWEEPME'));
    expect(coupon?.usedCount).toBe(0);

    const again = await runOrderSweep(server.ctx, { now: minutes(120) });
    expect(again.cancelled).not.toContain(unpaid.body.data.id);
    expect(await stockOf(server, sku.id)).toBe(8);
    const detail = (await buyer.call(`/v1/order/${unpaid.body.data.id}`)).body.data;
    expect(detail).toMatchObject({ status: 60, pay_status: 3 });
    expect(detail.history.at(-1)).toMatchObject({ actor: 'system', note: 'Cancelled: not paid in time' });
    // A payment arriving after the cancellation is refused so it can be refunded.
    expect((await markOrderPaid(server.ctx, { orderId: unpaid.body.data.id, paymentId: 'late' })).outcome).toBe(
      'cancelled',
    );
  });

  it('a payment and the sweep racing on one order end consistently: paid or cancelled, never both', async () => {
    const buyer = await makeShopper(server);
    const sku = await prepareSku(server, { stock: 20 });
    const placed = await Promise.all(Array.from({ length: 6 }, () => placeOrderFor(buyer, sku.id)));
    const [payments] = await Promise.all([
      Promise.all(
        placed.map((order) => markOrderPaid(server.ctx, { orderId: order.id, paymentId: `race-${order.id}` })),
      ),
      runOrderSweep(server.ctx, { now: minutes(31) }),
    ]);
    const rows = await server.ctx.db
      .select()
      .from(orders)
      .where(
        inArray(
          orders.id,
          placed.map((order) => order.id),
        ),
      );
    for (const row of rows) {
      const outcome = payments.find((_, i) => placed[i]!.id === row.id)!.outcome;
      if (outcome === 'paid') expect([row.status, row.payStatus]).toEqual([10, 2]);
      else expect([outcome, row.status, row.payStatus]).toEqual(['cancelled', 60, 3]);
    }
    const cancelled = rows.filter((row) => row.status === 60).length;
    expect(await stockOf(server, sku.id)).toBe(20 - 6 + cancelled);
  });
});

describe('shipped orders confirm themselves', () => {
  it('moves 20 -> 30 ORDER_AUTO_CONFIRM_DAYS after shipping, not before', async () => {
    const buyer = await makeShopper(server);
    const sku = await prepareSku(server, { stock: 5 });
    const order = await placeOrderFor(buyer, sku.id);
    await markOrderPaid(server.ctx, { orderId: order.id, paymentId: 'p' });
    await shipOrder({ ...server.ctx, actor: CLI_ACTOR }, { orderId: order.id, carrierCode: 'yunda', trackingNo: 'YD55554444' });
    const day = 24 * 60;
    expect((await runOrderSweep(server.ctx, { now: minutes(9 * day) })).confirmed).not.toContain(order.id);
    expect((await runOrderSweep(server.ctx, { now: minutes(10 * day + 1) })).confirmed).toContain(order.id);
    const detail = (await buyer.call(`/v1/order/${order.id}`)).body.data;
    expect(detail.status).toBe(30);
    expect(detail.history.at(-1)).toMatchObject({ actor: 'system', note: 'Receipt confirmed automatically' });
  });
});

describe('the job timer', () => {
  it('sweeps on its interval and stops cleanly', async () => {
    const buyer = await makeShopper(server);
    const sku = await prepareSku(server, { stock: 5 });
    const order = await placeOrderFor(buyer, sku.id);
    await server.ctx.db
      .update(orders)
      .set({ paymentDeadline: new Date(Date.now() - 1000) })
      .where(eq(orders.id, order.id));
    const jobs = startOrderJobs(server.ctx, { intervalSeconds: 1 });
    try {
      for (let i = 0; i < 50; i++) {
        const [row] = await server.ctx.db.select().from(orders).where(eq(orders.id, order.id));
        if (row!.status === 60) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await jobs.stop();
    }
    const [row] = await server.ctx.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row?.status).toBe(60);
    expect(await stockOf(server, sku.id)).toBe(5);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('two server copies on PostgreSQL', () => {
  it('cancels each expired order exactly once and returns its stock exactly once', async () => {
    const sku = await prepareSku(server, { stock: 40 });
    const buyers = await Promise.all(Array.from({ length: 5 }, () => makeShopper(server)));
    const placed = [];
    for (const buyer of buyers) for (let i = 0; i < 6; i++) placed.push(await placeOrderFor(buyer, sku.id));
    expect(await stockOf(server, sku.id)).toBe(10);
    // A second copy: its own connection pool to the same database.
    const second = await openDatabase({ databaseUrl: server.databaseUrl!, poolMax: 5 });
    try {
      const copyA = server.ctx;
      const copyB = { ...server.ctx, db: second.db, database: second };
      const now = minutes(31);
      const [a, b, c] = await Promise.all([
        runOrderSweep(copyA, { now }),
        runOrderSweep(copyB, { now }),
        runOrderSweep(copyB, { now }),
      ]);
      const ids = placed.map((order) => order.id);
      const swept = [...a.cancelled, ...b.cancelled, ...c.cancelled].filter((id) => ids.includes(id));
      expect(swept.sort()).toEqual([...ids].sort());
      expect(new Set(swept).size).toBe(swept.length);
      expect(await stockOf(server, sku.id)).toBe(40);
      const history = await server.ctx.db
        .select()
        .from(orderStatusHistory)
        .where(inArray(orderStatusHistory.orderId, ids));
      expect(history.filter((entry) => entry.toStatus === 60)).toHaveLength(ids.length);
    } finally {
      await second.close();
    }
  });
});

if (!process.env.DATABASE_URL) {
  describe('two server copies on PostgreSQL', () => {
    it.skip('needs DATABASE_URL: PGlite is one connection, so two copies cannot share it', () => {});
  });
}
