import { beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../server/domains/staff/permissions';
import { runOrderSweep } from '../../server/jobs/order-sweep';
import { createSignedInStaff, type TestStaff } from '../support/staff';
import { useTestApp } from '../support/test-server';
import { afterSaleSku, caseRow, orderAt, orderStatus, type PreparedLine } from './after-sales-fixtures';

/**
 * A refund while the parcel is on its way (ADR 0130): the units not refunded are still coming,
 * so the order goes back to "shipped" (20) once the case is done, as an unshipped order goes
 * back to 10. The buyer can then confirm receipt, the window starts at delivery, and the rest
 * can still be asked for; the sweep does not close the order before the goods arrived.
 */
const server = useTestApp();
let owner: TestStaff;
let mug: PreparedLine;
let keys = 0;
const key = () => `in-transit-${process.pid}-${Date.now()}-${++keys}`;

beforeAll(async () => {
  owner = await createSignedInStaff(server, { permissions: PERMISSIONS, refundLimitMinor: null });
  mug = await afterSaleSku(server, 4_500);
});

describe('a refund while the goods are on their way', () => {
  it('brings the order back to 20 with units still coming; the buyer receives them and may still ask', async () => {
    const order = await orderAt(server, owner, { lines: [{ sku: mug, quantity: 2 }], stage: 'shipped' });
    expect(await orderStatus(server, order.orderId)).toBe(20);
    const created = await order.buyer.call('/v1/after-sale', {
      method: 'POST',
      body: {
        order_id: order.orderId,
        type: 10,
        reason: 'changed_mind',
        lines: [{ order_item_id: order.itemIds[0], quantity: 1 }],
        idempotency_key: key(),
      },
    });
    expect(created.status).toBe(200);
    const caseId = created.body.data.id as number;
    expect(await orderStatus(server, order.orderId)).toBe(40);
    await owner.request(`/v1/admin/after-sales/${caseId}/approve`, { method: 'POST', body: {} });
    await owner.request(`/v1/admin/after-sales/${caseId}/refund`, { method: 'POST', body: { idempotency_key: key() } });
    await expect.poll(async () => (await caseRow(server, caseId)).state, { timeout: 15_000 }).toBe('completed');
    // One mug is still on its way.
    expect(await orderStatus(server, order.orderId)).toBe(20);

    const swept = await runOrderSweep(server.ctx, { now: new Date() });
    expect(swept.afterSales.finished).not.toContain(order.orderId);
    expect(await orderStatus(server, order.orderId)).toBe(20);

    const confirmed = await order.buyer.call(`/v1/order/confirm/${order.orderId}`, { method: 'PUT' });
    expect(confirmed.status).toBe(200);
    expect(await orderStatus(server, order.orderId)).toBe(30);
    const options = await order.buyer.call(`/v1/after-sale/order/${order.orderId}`);
    expect(options.body.data).toMatchObject({ eligible: true, lines: [{ bought: 2, available: 1 }] });
  });

  it('ends at 41 when every unit was refunded before arriving', async () => {
    const order = await orderAt(server, owner, { lines: [{ sku: mug, quantity: 1 }], stage: 'shipped' });
    const created = await order.buyer.call('/v1/after-sale', {
      method: 'POST',
      body: {
        order_id: order.orderId,
        type: 10,
        reason: 'arrived_late',
        lines: [{ order_item_id: order.itemIds[0], quantity: 1 }],
        idempotency_key: key(),
      },
    });
    const caseId = created.body.data.id as number;
    await owner.request(`/v1/admin/after-sales/${caseId}/approve`, { method: 'POST', body: {} });
    await owner.request(`/v1/admin/after-sales/${caseId}/refund`, { method: 'POST', body: { idempotency_key: key() } });
    await expect.poll(async () => (await caseRow(server, caseId)).state, { timeout: 15_000 }).toBe('completed');
    expect(await orderStatus(server, order.orderId)).toBe(41);
  });
});
