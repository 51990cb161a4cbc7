import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { orders, payments, refunds } from '../../server/db/schema';
import { PERMISSIONS } from '../../server/domains/staff/permissions';
import { createSignedInStaff, type TestStaff } from '../support/staff';
import { useTestApp } from '../support/test-server';
import { afterSaleSku, caseRefunds, caseRow, orderAt, type PreparedLine } from './after-sales-fixtures';

/**
 * An after-sale refund goes through the same rule as a staff refund (refundInTransaction): one
 * that would give back nothing in the currency the buyer was charged in is refused up front, in
 * the member's language, with the smallest refundable amount, and the case stays approved.
 */
const server = useTestApp();
let owner: TestStaff;
let bowl: PreparedLine;
let keys = 0;
const key = () => `smallest-${process.pid}-${Date.now()}-${++keys}`;

beforeAll(async () => {
  owner = await createSignedInStaff(server, { permissions: PERMISSIONS, refundLimitMinor: null });
  bowl = await afterSaleSku(server, 4_500);
});

describe('the smallest after-sale refund', () => {
  it('refuses CN¥0.02 of a payment charged in yen at 21.4567 (¥0), naming CN¥0.03; nothing is written', async () => {
    // One bowl, 45.00 + 12.00 shipping: CN¥57.00, as if charged ¥1,223 at 21.4567.
    const order = await orderAt(server, owner, { lines: [{ sku: bowl, quantity: 1 }], stage: 'received' });
    await server.ctx.db.update(orders).set({ displayRateMicros: 21_456_700 }).where(eq(orders.id, order.orderId));
    await server.ctx.db
      .update(payments)
      .set({ chargedAmountMinor: 1_223, chargedCurrency: 'JPY' })
      .where(eq(payments.orderId, order.orderId));
    const created = await order.buyer.call('/v1/after-sale', {
      method: 'POST',
      body: {
        order_id: order.orderId,
        type: 10,
        reason: 'changed_mind',
        lines: [{ order_item_id: order.itemIds[0]!, quantity: 1 }],
        idempotency_key: key(),
      },
    });
    expect(created.status, created.text).toBe(200);
    const caseId = created.body.data.id as number;
    const approved = await owner.request(`/v1/admin/after-sales/${caseId}/approve`, {
      method: 'POST',
      body: { amount_minor: 2 },
    });
    expect(approved.status, approved.text).toBe(200);

    for (const [lang, message] of [
      [
        'en',
        'The smallest refund of this payment is CN¥0.03: it was charged in JPY, and CN¥0.02 is less than its smallest unit',
      ],
      ['zh-cn', '该笔付款最少退款 CN¥0.03：它以 JPY 扣款，CN¥0.02 不足其最小单位'],
    ] as const) {
      const refused = await owner.request(`/v1/admin/after-sales/${caseId}/refund`, {
        method: 'POST',
        headers: { lang },
        body: { idempotency_key: key() },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.msg).toBe(message);
    }
    expect((await caseRow(server, caseId)).state).toBe('approved');
    expect(await caseRefunds(server, caseId)).toHaveLength(0);
    expect(await server.ctx.db.select().from(refunds).where(eq(refunds.orderId, order.orderId))).toEqual([]);
  });
});
