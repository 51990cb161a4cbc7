import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  coupons,
  orderItems,
  outbox,
  payments,
  products,
  refunds,
  sandboxGatewayRefunds,
} from '../../server/db/schema';
import { PERMISSIONS } from '../../server/domains/staff/permissions';
import { makeShopper } from '../support/buyers';
import { createSignedInStaff, type TestStaff } from '../support/staff';
import { useTestApp } from '../support/test-server';
import { payAtSandbox } from './admin-orders-fixtures';
import { afterSaleSku, caseRefunds, caseRow, orderAt, orderStatus, type PreparedLine } from './after-sales-fixtures';

/**
 * The money of after-sales (ADR 0130): refunds worked out on the server from the order's
 * snapshot (the discount shared out per line, the shipping fee once), paid once however many
 * clicks, within the member's limit or after a second approval, never past what is left of
 * the payment. Amounts are written out by hand from the prices, weights and coupon set here;
 * shipping is the seeded China rule: 12.00 for the first 1000 g, free from 199.00.
 */
const server = useTestApp();
let owner: TestStaff;
let approver: TestStaff;
/** May refund up to 10.00 on their own; above it a second member approves. */
let limited: TestStaff;
let cup: PreparedLine;
let plate: PreparedLine;
let bowl: PreparedLine;
let keys = 0;
const key = () => `money-${process.pid}-${Date.now()}-${++keys}`;

/** A SKU at `priceMinor` whose product weighs `weightGrams`. */
async function weighedSku(priceMinor: number, weightGrams: number): Promise<PreparedLine> {
  const sku = await afterSaleSku(server, priceMinor);
  await server.ctx.db.update(products).set({ weightGrams }).where(eq(products.id, sku.productId));
  return sku;
}

beforeAll(async () => {
  owner = await createSignedInStaff(server, { permissions: PERMISSIONS, refundLimitMinor: null });
  approver = await createSignedInStaff(server, { permissions: PERMISSIONS, refundLimitMinor: null });
  limited = await createSignedInStaff(server, { permissions: PERMISSIONS, refundLimitMinor: 1_000 });
  cup = await weighedSku(3_333, 400);
  plate = await weighedSku(3_334, 300);
  bowl = await weighedSku(4_500, 500);
  await server.ctx.db.insert(coupons).values({ code: 'AFTER1000', kind: 'fixed', value: 1_000 });
});

/**
 * An order placed through the API with `couponCode`, paid at the sandbox gateway, shipped and
 * received by its buyer (after-sales-fixtures' `orderAt` with a coupon).
 */
async function couponOrder(lines: Array<{ sku: PreparedLine; quantity: number }>, couponCode: string) {
  const buyer = await makeShopper(server);
  const placed = await buyer.call('/v2/order', {
    method: 'POST',
    body: {
      items: lines.map((line) => ({ sku_id: line.sku.skuId, quantity: line.quantity })),
      address_id: buyer.addressId,
      coupon_code: couponCode,
    },
  });
  expect(placed.status).toBe(200);
  const order = placed.body.data as { id: number; total: { amount_minor: number } };
  const { sessionId } = await payAtSandbox(server.ctx, {
    orderId: order.id,
    userId: buyer.id,
    totalMinor: order.total.amount_minor,
  });
  expect(
    (
      await owner.request(`/v1/admin/orders/${order.id}/ship`, {
        method: 'POST',
        body: { carrier_code: 'shunfeng', tracking_no: `SF${order.id}0002` },
      })
    ).status,
  ).toBe(200);
  expect((await buyer.call(`/v1/order/confirm/${order.id}`, { method: 'PUT' })).status).toBe(200);
  const items = await server.ctx.db
    .select({ id: orderItems.id })
    .from(orderItems)
    .where(eq(orderItems.orderId, order.id))
    .orderBy(orderItems.id);
  return {
    buyer,
    orderId: order.id,
    itemIds: items.map((item) => item.id),
    totalMinor: order.total.amount_minor,
    sessionId,
  };
}

async function sessionOf(orderId: number): Promise<string> {
  const [payment] = await server.ctx.db.select().from(payments).where(eq(payments.orderId, orderId));
  return payment!.providerRef!;
}

async function gatewayRefunds(sessionId: string) {
  return server.ctx.db.select().from(sandboxGatewayRefunds).where(eq(sandboxGatewayRefunds.sessionId, sessionId));
}

type Buyerish = { buyer: { call: typeof owner.request }; orderId: number };

async function requestCase(
  order: Buyerish,
  type: number,
  lines: Array<{ order_item_id: number; quantity: number }>,
): Promise<{ id: number; estimate: number; lines: Array<{ id: number; refund: { amount_minor: number } }> }> {
  const created = await order.buyer.call('/v1/after-sale', {
    method: 'POST',
    body: { order_id: order.orderId, type, reason: 'changed_mind', lines, idempotency_key: key() },
  });
  expect(created.status, created.text).toBe(200);
  return {
    id: created.body.data.id,
    estimate: created.body.data.estimate.amount_minor,
    lines: created.body.data.lines,
  };
}

function approve(member: TestStaff, caseId: number, body: Record<string, unknown> = {}) {
  return member.request(`/v1/admin/after-sales/${caseId}/approve`, { method: 'POST', body });
}

function refund(member: TestStaff, caseId: number, idempotencyKey = key()) {
  return member.request(`/v1/admin/after-sales/${caseId}/refund`, {
    method: 'POST',
    body: { idempotency_key: idempotencyKey },
  });
}

async function settledCase(id: number, state: string) {
  await expect.poll(async () => (await caseRow(server, id)).state, { timeout: 15_000 }).toBe(state);
}

describe('refund amounts from the order snapshot', () => {
  it('shares the coupon out per line, and gives the shipping fee back once across cases', async () => {
    // Goods 33.33 + 2 × 33.34 = 100.01; 1000 g ships for 12.00; 10.00 off: total 102.01.
    const order = await couponOrder(
      [
        { sku: cup, quantity: 1 },
        { sku: plate, quantity: 2 },
      ],
      'AFTER1000',
    );
    expect(order.totalMinor).toBe(10_201);
    const [cupLine, plateLine] = order.itemIds as [number, number];

    // The 10.00 off shared by line totals: 1000 × 3333 / 10001 = 333.27 → 333; 1000 × 6668 / 10001 = 666.73 → 666,
    // plus the leftover cent (larger fraction) → 667. Worth back: cup 3333 - 333 = 3000, plates 6668 - 667 = 6001.
    const estimate = await order.buyer.call('/v1/after-sale/estimate', {
      method: 'POST',
      body: {
        order_id: order.orderId,
        type: 10,
        lines: [
          { order_item_id: cupLine, quantity: 1 },
          { order_item_id: plateLine, quantity: 2 },
        ],
      },
    });
    expect(estimate.body.data).toMatchObject({
      refund: { amount_minor: 9_001 },
      lines: [
        { order_item_id: cupLine, refund: { amount_minor: 3_000 } },
        { order_item_id: plateLine, refund: { amount_minor: 6_001 } },
      ],
    });

    // First case: the cup and one plate (6001 / 2 floored: 3000).
    const first = await requestCase(order, 10, [
      { order_item_id: cupLine, quantity: 1 },
      { order_item_id: plateLine, quantity: 1 },
    ]);
    expect(first.estimate).toBe(6_000);
    expect(first.lines.map((line) => line.refund.amount_minor)).toEqual([3_000, 3_000]);
    // Second case: the other plate, the rest of its line: 6001 - 3000.
    const second = await requestCase(order, 10, [{ order_item_id: plateLine, quantity: 1 }]);
    expect(second.estimate).toBe(3_001);

    const withShipping = await approve(owner, first.id, { include_shipping: true });
    expect(withShipping.status).toBe(200);
    expect(withShipping.body.data).toMatchObject({ approved: { amount_minor: 7_200 }, includes_shipping: true });
    // The fee went back with the first case: the second may not add it again.
    const again = await approve(owner, second.id, { include_shipping: true, amount_minor: 3_002 });
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe('At most CN¥30.01 can be refunded for this request');
    const approved = await approve(owner, second.id, { include_shipping: true });
    expect(approved.body.data).toMatchObject({ approved: { amount_minor: 3_001 } });

    expect((await refund(owner, first.id)).status).toBe(200);
    expect((await refund(owner, second.id)).status).toBe(200);
    await settledCase(first.id, 'completed');
    await settledCase(second.id, 'completed');
    // 72.00 + 30.01 = 102.01: everything paid, not a cent more.
    expect((await gatewayRefunds(order.sessionId)).map((row) => row.amountMinor).sort()).toEqual([3_001, 7_200]);
    const detail = await owner.request(`/v1/admin/orders/${order.orderId}`);
    expect(detail.body.data).toMatchObject({ status: 41, refunded_minor: 10_201, refundable_minor: 0 });
  });

  it('never pays a line more than it is worth when a case is withdrawn and its units asked for again', async () => {
    // Three cups: goods 99.99, 1000 g ships for 12.00 (3 × 400 g = 1200 g: 12.00 + 6.00), 10.00 off.
    // The line is worth 9999 - 1000 = 8999 back: 2999 + 3000 + 3000, however it is split.
    const order = await couponOrder([{ sku: cup, quantity: 3 }], 'AFTER1000');
    expect(order.totalMinor).toBe(9_999 - 1_000 + 1_800);
    const [line] = order.itemIds as [number];
    const one = [{ order_item_id: line, quantity: 1 }];
    const a = await requestCase(order, 10, one);
    const b = await requestCase(order, 10, one);
    expect([a.estimate, b.estimate]).toEqual([2_999, 3_000]);
    expect((await order.buyer.call(`/v1/after-sale/${a.id}/cancel`, { method: 'PUT' })).status).toBe(200);
    const c = await requestCase(order, 10, one);
    const d = await requestCase(order, 10, one);
    expect(b.estimate + c.estimate + d.estimate).toBe(8_999);
  });
});

describe('paying a case', () => {
  it('makes one refund when two clicks arrive together', async () => {
    const order = await orderAt(server, owner, { lines: [{ sku: bowl, quantity: 1 }], stage: 'received' });
    const sessionId = await sessionOf(order.orderId);
    const asked = await requestCase(order, 10, [{ order_item_id: order.itemIds[0]!, quantity: 1 }]);
    expect((await approve(owner, asked.id)).status).toBe(200);
    const both = await Promise.all([refund(owner, asked.id), refund(owner, asked.id)]);
    expect(both.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(both.find((answer) => answer.status === 409)!.body.msg).toBe(
      'This request has changed in the meantime. Reload the page to see where it stands',
    );
    await settledCase(asked.id, 'completed');
    expect((await caseRefunds(server, asked.id)).map((row) => [row.amountMinor, row.status])).toEqual([
      [4_500, 'succeeded'],
    ]);
    expect((await gatewayRefunds(sessionId)).map((row) => row.amountMinor)).toEqual([4_500]);
  });

  it('answers a repeated key with the case as it stands, and refuses the key on another case', async () => {
    const order = await orderAt(server, owner, { lines: [{ sku: bowl, quantity: 2 }], stage: 'received' });
    const sessionId = await sessionOf(order.orderId);
    const one = [{ order_item_id: order.itemIds[0]!, quantity: 1 }];
    const first = await requestCase(order, 10, one);
    const second = await requestCase(order, 10, one);
    await approve(owner, first.id);
    await approve(owner, second.id);
    const same = key();
    expect((await refund(owner, first.id, same)).status).toBe(200);
    const repeated = await refund(owner, first.id, same);
    expect(repeated.status).toBe(200);
    expect(repeated.body.data.state).toMatch(/^(refunding|completed)$/);
    // The same key for another case of the order is not that case's refund.
    const reused = await refund(owner, second.id, same);
    expect(reused.status).toBe(409);
    expect(reused.body.msg).toBe('This request key was already used for another request');
    expect((await caseRow(server, second.id)).state).toBe('approved');
    await settledCase(first.id, 'completed');
    expect(await caseRefunds(server, first.id)).toHaveLength(1);
    expect(await caseRefunds(server, second.id)).toHaveLength(0);
    expect((await gatewayRefunds(sessionId)).map((row) => row.amountMinor)).toEqual([4_500]);
    // A fresh key pays the second case.
    expect((await refund(owner, second.id)).status).toBe(200);
    await settledCase(second.id, 'completed');
    expect(await orderStatus(server, order.orderId)).toBe(41);
  });

  it("waits for a second member above the first one's limit, then completes", async () => {
    const order = await orderAt(server, owner, { lines: [{ sku: bowl, quantity: 1 }], stage: 'received' });
    const sessionId = await sessionOf(order.orderId);
    const asked = await requestCase(order, 10, [{ order_item_id: order.itemIds[0]!, quantity: 1 }]);
    await approve(limited, asked.id);
    const sent = await refund(limited, asked.id);
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({
      state: 'refunding',
      refunds: [{ status: 'awaiting_approval', amount: { amount_minor: 4_500 } }],
    });
    const [waiting] = await caseRefunds(server, asked.id);
    expect(waiting).toMatchObject({ status: 'awaiting_approval', amountMinor: 4_500 });
    // Nothing goes to the gateway while it waits.
    const owed = await server.ctx.db
      .select()
      .from(outbox)
      .where(eq(outbox.dedupeKey, `refund:${waiting!.id}`));
    expect(owed).toHaveLength(0);
    expect(await gatewayRefunds(sessionId)).toHaveLength(0);
    expect((await caseRow(server, asked.id)).state).toBe('refunding');

    const self = await limited.request(`/v1/admin/refunds/${waiting!.id}/approve`, { method: 'POST' });
    expect(self.status).toBe(403);
    const approved = await approver.request(`/v1/admin/refunds/${waiting!.id}/approve`, { method: 'POST' });
    expect(approved.status).toBe(200);
    await settledCase(asked.id, 'completed');
    expect((await gatewayRefunds(sessionId)).map((row) => row.amountMinor)).toEqual([4_500]);
    expect(await orderStatus(server, order.orderId)).toBe(41);
  });

  it('goes back to where it can be paid when the second member refuses: approved for a refund, received for a return', async () => {
    const refundOnly = await orderAt(server, owner, { lines: [{ sku: bowl, quantity: 1 }], stage: 'received' });
    const a = await requestCase(refundOnly, 10, [{ order_item_id: refundOnly.itemIds[0]!, quantity: 1 }]);
    await approve(owner, a.id);
    expect((await refund(limited, a.id)).status).toBe(200);
    const [waitingA] = await caseRefunds(server, a.id);
    const rejectedA = await approver.request(`/v1/admin/refunds/${waitingA!.id}/reject`, {
      method: 'POST',
      body: { reason: 'Check the parcel first' },
    });
    expect(rejectedA.status).toBe(200);
    await settledCase(a.id, 'approved');
    expect(await orderStatus(server, refundOnly.orderId)).toBe(40);

    const withReturn = await orderAt(server, owner, { lines: [{ sku: bowl, quantity: 1 }], stage: 'received' });
    const b = await requestCase(withReturn, 20, [{ order_item_id: withReturn.itemIds[0]!, quantity: 1 }]);
    expect((await approve(owner, b.id)).body.data.state).toBe('awaiting_parcel');
    const received = await owner.request(`/v1/admin/after-sales/${b.id}/receive`, {
      method: 'POST',
      body: { lines: [{ line_id: b.lines[0]!.id, accepted_quantity: 1, damaged_quantity: 0, restock: false }] },
    });
    expect(received.body.data.state).toBe('received');
    expect((await refund(limited, b.id)).status).toBe(200);
    const [waitingB] = await caseRefunds(server, b.id);
    await approver.request(`/v1/admin/refunds/${waitingB!.id}/reject`, {
      method: 'POST',
      body: { reason: 'Wrong amount' },
    });
    await settledCase(b.id, 'received');

    // Both can be paid again, and complete.
    for (const caseId of [a.id, b.id]) {
      expect((await refund(owner, caseId)).status).toBe(200);
      await settledCase(caseId, 'completed');
      expect((await caseRefunds(server, caseId)).map((row) => row.status).sort()).toEqual(['rejected', 'succeeded']);
    }
    expect(await orderStatus(server, refundOnly.orderId)).toBe(41);
    expect(await orderStatus(server, withReturn.orderId)).toBe(41);
  });

  it('never pays more than the payment captured less what was already refunded', async () => {
    // One bowl: 45.00, 500 g ships for 12.00: 57.00 captured.
    const order = await orderAt(server, owner, { lines: [{ sku: bowl, quantity: 1 }], stage: 'received' });
    expect(order.totalMinor).toBe(5_700);
    const asked = await requestCase(order, 10, [{ order_item_id: order.itemIds[0]!, quantity: 1 }]);
    expect((await approve(owner, asked.id)).body.data.approved.amount_minor).toBe(4_500);
    // A staff refund of 12.01 leaves 44.99.
    const staff = await owner.request(`/v1/admin/orders/${order.orderId}/refunds`, {
      method: 'POST',
      body: { amount_minor: 1_201, reason: 'Shipping and a cent', idempotency_key: key() },
    });
    expect(staff.status).toBe(200);
    const over = await refund(owner, asked.id);
    expect(over.status).toBe(409);
    expect(over.body.msg).toBe('At most CN¥44.99 of this order can still be refunded');
    expect((await caseRow(server, asked.id)).state).toBe('approved');
    expect(await caseRefunds(server, asked.id)).toHaveLength(0);
    const page = await owner.request(`/v1/admin/after-sales/${asked.id}`);
    expect(page.body.data.refundable.amount_minor).toBe(4_499);
    const rows = await server.ctx.db.select().from(refunds).where(eq(refunds.orderId, order.orderId));
    expect(rows.map((row) => row.amountMinor)).toEqual([1_201]);
  });
});
