import { inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { orders, payments } from '../../server/db/schema';
import { tallyQueries } from '../../server/db/query-tally';
import { readOrderMails } from '../../server/domains/orders/order-mail';
import { makeShopper, placeOrderFor, prepareSku } from '../support/buyers';
import { useTestApp } from '../support/test-server';

/** The outbox reads a claimed batch of order emails at once (ADR 0181), not three statements per email. */
const server = useTestApp();

describe('reading a batch of order emails', () => {
  it('reads every order, its buyer and its lines in three statements, and skips an order that is gone', async () => {
    const first = await makeShopper(server);
    const second = await makeShopper(server);
    const sku = await prepareSku(server, { stock: 20 });
    const a = await placeOrderFor(first, sku.id, 2);
    const b = await placeOrderFor(first, sku.id, 1);
    const c = await placeOrderFor(second, sku.id, 3);

    const { result: read, statements } = await tallyQueries(() =>
      readOrderMails(server.ctx, [
        { orderId: a.id, kind: 'placed' },
        { orderId: b.id, kind: 'placed' },
        { orderId: c.id, kind: 'placed' },
        { orderId: 999_999_999, kind: 'placed' },
      ]),
    );

    // The orders with their buyers, their lines, their duty lines; none is paid, so no payment is read.
    expect(statements, statements.join('\n')).toHaveLength(3);
    expect([...read.keys()].sort((x, y) => x - y)).toEqual([a.id, b.id, c.id]);
    expect(read.get(a.id)).toMatchObject({
      to: first.email,
      data: { orderNo: a.order_no, items: [{ quantity: 2 }] },
    });
    expect(read.get(b.id)).toMatchObject({ to: first.email, data: { orderNo: b.order_no, items: [{ quantity: 1 }] } });
    expect(read.get(c.id)).toMatchObject({
      to: second.email,
      data: { orderNo: c.order_no, items: [{ quantity: 3 }] },
    });
  });

  it('reads the payments of paid orders in one more statement, each shown only on the order it paid', async () => {
    const buyer = await makeShopper(server);
    const sku = await prepareSku(server, { stock: 20 });
    const paid = await placeOrderFor(buyer, sku.id, 1);
    const copied = await placeOrderFor(buyer, sku.id, 1);
    const [payment] = await server.ctx.db
      .insert(payments)
      .values({
        orderId: paid.id,
        userId: buyer.id,
        provider: 'sandbox',
        method: 'sandbox',
        amountMinor: paid.total.amount_minor,
        currency: 'CNY',
        chargedAmountMinor: 1_302,
        chargedCurrency: 'EUR',
        status: 'succeeded',
      })
      .returning({ id: payments.id });
    // An imported order that names another order's payment has no charge of its own to show.
    await server.ctx.db
      .update(orders)
      .set({ paymentId: String(payment!.id) })
      .where(inArray(orders.id, [paid.id, copied.id]));

    const { result: read, statements } = await tallyQueries(() =>
      readOrderMails(server.ctx, [
        { orderId: paid.id, kind: 'paid' },
        { orderId: copied.id, kind: 'paid' },
      ]),
    );

    expect(statements, statements.join('\n')).toHaveLength(4);
    expect(read.get(paid.id)).toMatchObject({ data: { paid: '€13.02 by Test payment' } });
    expect(read.get(copied.id)).not.toHaveProperty('data.paid');
  });
});
