import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  auditEvents,
  outbox,
  orders,
  payments,
  refunds,
  sandboxGatewayRefunds,
  sandboxGatewaySessions,
} from '../../server/db/schema';
import { PERMISSIONS } from '../../server/domains/staff/permissions';
import { makeBuyer, makeShopper, placeOrderFor, prepareSku, stockOf, type Buyer } from '../support/buyers';
import { decodedMail, useFakeSmtp } from '../support/mail';
import { createSignedInStaff, type TestStaff } from '../support/staff';
import { useTestApp } from '../support/test-server';
import { paidSandboxOrder, payAtSandbox } from './admin-orders-fixtures';

/** Refunds through the order's payment provider (ADR 0101): limits, second approval, idempotency, the buyer's view. */
const smtp = useFakeSmtp();
const server = useTestApp(() => ({ SMTP_URL: smtp.url }));
let owner: TestStaff;
let buyer: Buyer;
let keys = 0;
const key = () => `refund-test-${process.pid}-${Date.now()}-${++keys}`;

beforeAll(async () => {
  owner = await createSignedInStaff(server, { permissions: PERMISSIONS, refundLimitMinor: null });
  buyer = await makeBuyer(server);
});

function refund(member: TestStaff, orderId: number, amountMinor: number, idempotencyKey = key()) {
  return member.request(`/v1/admin/orders/${orderId}/refunds`, {
    method: 'POST',
    body: { amount_minor: amountMinor, reason: 'Damaged in transit', idempotency_key: idempotencyKey },
  });
}

async function refundRow(id: number) {
  const [row] = await server.ctx.db.select().from(refunds).where(eq(refunds.id, id));
  return row!;
}

async function settled(id: number): Promise<string> {
  await expect.poll(async () => (await refundRow(id)).status, { timeout: 10_000 }).not.toBe('pending');
  return (await refundRow(id)).status;
}

describe('refunds', () => {
  it('refunds part, then the rest: the sandbox gateway holds both, the payment and the unshipped order end refunded', async () => {
    const { orderId, paymentId, sessionId } = await paidSandboxOrder(server.ctx, buyer.id, 10_000);
    const first = await refund(owner, orderId, 3_000);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ status: 'pending', amount_minor: 3_000, currency: 'CNY' });
    expect(await settled(first.body.data.id)).toBe('succeeded');

    const partly = await owner.request(`/v1/admin/orders/${orderId}`);
    expect(partly.body.data).toMatchObject({ status: 10, refunded_minor: 3_000, refundable_minor: 7_000 });
    expect(partly.body.data.payments[0]).toMatchObject({
      id: paymentId,
      provider: 'sandbox',
      provider_ref: sessionId,
      status: 'succeeded',
      refunded_minor: 3_000,
      refundable_minor: 7_000,
    });
    expect(partly.body.data.refunds[0].provider_refund_ref).toMatch(/^re_sbx_/);

    const rest = await refund(owner, orderId, 7_000);
    expect(await settled(rest.body.data.id)).toBe('succeeded');
    const gateway = await server.ctx.db
      .select({ amount: sandboxGatewayRefunds.amountMinor })
      .from(sandboxGatewayRefunds)
      .where(eq(sandboxGatewayRefunds.sessionId, sessionId))
      .orderBy(sandboxGatewayRefunds.createdAt);
    expect(gateway.map((row) => row.amount)).toEqual([3_000, 7_000]);
    const [session] = await server.ctx.db
      .select()
      .from(sandboxGatewaySessions)
      .where(eq(sandboxGatewaySessions.id, sessionId));
    expect(session!.status).toBe('refunded');
    const [payment] = await server.ctx.db.select().from(payments).where(eq(payments.id, paymentId));
    expect(payment!.status).toBe('refunded');
    const done = await owner.request(`/v1/admin/orders/${orderId}`);
    expect(done.body.data).toMatchObject({
      status: 41,
      status_text: 'Refunded',
      refunded_minor: 10_000,
      refundable_minor: 0,
      can: { refund: false },
    });
    const more = await refund(owner, orderId, 1);
    expect(more.status).toBe(409);
  });

  it('never refunds more than is left, even when two refunds arrive together', async () => {
    const { orderId } = await paidSandboxOrder(server.ctx, buyer.id, 5_000);
    const over = await refund(owner, orderId, 5_001);
    expect(over.status).toBe(409);
    expect(over.body.msg).toBe('At most CN¥50.00 of this order can still be refunded');
    const both = await Promise.all([refund(owner, orderId, 3_000), refund(owner, orderId, 3_000)]);
    expect(both.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const rows = await server.ctx.db.select().from(refunds).where(eq(refunds.orderId, orderId));
    expect(rows.map((row) => row.amountMinor)).toEqual([3_000]);
  });

  it('answers a repeated idempotency key with the same refund', async () => {
    const { orderId } = await paidSandboxOrder(server.ctx, buyer.id, 5_000);
    const same = key();
    const first = await refund(owner, orderId, 1_000, same);
    const again = await refund(owner, orderId, 1_000, same);
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(first.body.data.id);
    const together = await Promise.all([
      refund(owner, orderId, 500, `${same}-b`),
      refund(owner, orderId, 500, `${same}-b`),
    ]);
    expect(together[0]!.body.data.id).toBe(together[1]!.body.data.id);
    expect(await server.ctx.db.select().from(refunds).where(eq(refunds.orderId, orderId))).toHaveLength(2);
    const { orderId: otherOrder } = await paidSandboxOrder(server.ctx, buyer.id, 5_000);
    expect((await refund(owner, otherOrder, 1_000, same)).status).toBe(409);
  });

  it('above the limit waits; the requester and a lower limit cannot approve; a higher limit approves and the gateway refunds', async () => {
    const support = await createSignedInStaff(server, { role: 'support' });
    const support2 = await createSignedInStaff(server, { role: 'support' });
    const manager = await createSignedInStaff(server, { role: 'manager' });
    const { orderId, sessionId } = await paidSandboxOrder(server.ctx, buyer.id, 80_000);
    const asked = await refund(support, orderId, 60_000);
    expect(asked.body.data).toMatchObject({
      status: 'awaiting_approval',
      requested_by: { id: support.id, email: support.email },
    });
    const id = asked.body.data.id as number;
    const queue = await manager.request('/v1/admin/refunds?status=awaiting_approval');
    expect(queue.body.data.records.map((row: { id: number }) => row.id)).toContain(id);

    const self = await support.request(`/v1/admin/refunds/${id}/approve`, { method: 'POST' });
    expect(self.status).toBe(403);
    expect(self.body.msg).toBe('You asked for this refund: another member must approve it');
    const low = await support2.request(`/v1/admin/refunds/${id}/approve`, { method: 'POST' });
    expect(low.status).toBe(403);
    expect(low.body.msg).toBe('Your refund limit does not cover CN¥600.00');
    expect((await refundRow(id)).status).toBe('awaiting_approval');

    const approved = await manager.request(`/v1/admin/refunds/${id}/approve`, { method: 'POST' });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ decided_by: { id: manager.id, email: manager.email } });
    expect(await settled(id)).toBe('succeeded');
    const [atGateway] = await server.ctx.db
      .select()
      .from(sandboxGatewayRefunds)
      .where(eq(sandboxGatewayRefunds.sessionId, sessionId));
    expect(atGateway).toMatchObject({ amountMinor: 60_000, idempotencyKey: asked.body.data.idempotency_key });
    expect((await manager.request(`/v1/admin/refunds/${id}/approve`, { method: 'POST' })).status).toBe(409);

    const trail = await server.ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityType, 'refund'), eq(auditEvents.entityId, String(id))))
      .orderBy(auditEvents.id);
    expect(trail.map((event) => [event.action, event.actorLabel])).toEqual([
      ['refund.requested', support.email],
      ['refund.approved', manager.email],
      ['refund.succeeded', 'refunds'],
    ]);
  });

  it('a rejected refund gives its amount back to what can be refunded', async () => {
    const support = await createSignedInStaff(server, { role: 'support' });
    const { orderId } = await paidSandboxOrder(server.ctx, buyer.id, 90_000);
    const asked = await refund(support, orderId, 90_000);
    expect((await refund(owner, orderId, 1)).status).toBe(409);
    const rejected = await owner.request(`/v1/admin/refunds/${asked.body.data.id}/reject`, {
      method: 'POST',
      body: { reason: 'Goods not returned yet' },
    });
    expect(rejected.body.data.status).toBe('rejected');
    const detail = await owner.request(`/v1/admin/orders/${orderId}`);
    expect(detail.body.data.refundable_minor).toBe(90_000);
  });

  it('the buyer sees the refund on the order and gets the email', async () => {
    const { orderId } = await paidSandboxOrder(server.ctx, buyer.id, 12_000);
    const [order] = await server.ctx.db.select().from(orders).where(eq(orders.id, orderId));
    const asked = await refund(owner, orderId, 1_200);
    expect(await settled(asked.body.data.id)).toBe('succeeded');
    const seen = await buyer.call(`/v1/order/${orderId}`);
    expect(seen.body.data.refunds).toEqual([
      {
        amount: { amount_minor: 1_200, amount: '12.00', display_amount_minor: 1_200, display_amount: '12.00' },
        amount_text: 'CN¥12.00',
        refunded_at: (await refundRow(asked.body.data.id)).succeededAt!.toISOString(),
      },
    ]);
    expect(seen.body.data.status).toBe(10);
    const mail = await smtp.waitFor((m) => m.raw.includes(`<refund-${asked.body.data.id}@`));
    expect(mail.to).toBe(buyer.email);
    const text = decodedMail(mail.raw);
    expect(text).toContain(`Refund for order ${order!.orderNo}`);
    expect(text).toContain(`We have refunded CN¥12.00 for your order ${order!.orderNo}.`);
  });

  it("counts today's sales on the dashboard as paid orders less succeeded refunds", async () => {
    const before = (await owner.request('/v1/admin/dashboard')).body.data.sales;
    const { orderId } = await paidSandboxOrder(server.ctx, buyer.id, 12_000);
    const asked = await refund(owner, orderId, 2_000);
    expect(await settled(asked.body.data.id)).toBe('succeeded');
    const after = (await owner.request('/v1/admin/dashboard')).body.data.sales;
    expect(after.today_minor - before.today_minor).toBe(10_000);
    expect(after.today_orders - before.today_orders).toBe(1);
    expect(after.week_minor - before.week_minor).toBe(10_000);
    expect(after.daily[13].amount_minor - before.daily[13].amount_minor).toBe(10_000);
  });

  it('a full refund of a paid order not yet shipped puts its stock back; a shipped one keeps its status', async () => {
    const shopper = await makeShopper(server);
    const sku = await prepareSku(server, { stock: 5 });
    const placed = await placeOrderFor(shopper, sku.id, 2);
    expect(await stockOf(server, sku.id)).toBe(3);
    await payAtSandbox(server.ctx, { orderId: placed.id, userId: shopper.id, totalMinor: placed.total.amount_minor });
    const all = await refund(owner, placed.id, placed.total.amount_minor);
    expect(await settled(all.body.data.id)).toBe('succeeded');
    expect((await owner.request(`/v1/admin/orders/${placed.id}`)).body.data.status).toBe(41);
    expect(await stockOf(server, sku.id)).toBe(5);

    const second = await placeOrderFor(shopper, sku.id, 1);
    await payAtSandbox(server.ctx, { orderId: second.id, userId: shopper.id, totalMinor: second.total.amount_minor });
    await owner.request(`/v1/admin/orders/${second.id}/ship`, {
      method: 'POST',
      body: { carrier_code: 'yunda', tracking_no: 'YD77788899' },
    });
    const back = await refund(owner, second.id, second.total.amount_minor);
    expect(await settled(back.body.data.id)).toBe('succeeded');
    const shipped = (await owner.request(`/v1/admin/orders/${second.id}`)).body.data;
    expect(shipped).toMatchObject({ status: 20, refunded_minor: second.total.amount_minor });
    expect(await stockOf(server, sku.id)).toBe(4);
  });

  it('retries a refund the gateway refuses, then marks it failed and frees its amount', async () => {
    const { orderId, paymentId } = await paidSandboxOrder(server.ctx, buyer.id, 4_000);
    // The gateway no longer knows the session: every attempt is refused.
    await server.ctx.db.update(payments).set({ providerRef: 'cs_sbx_gone' }).where(eq(payments.id, paymentId));
    const asked = await refund(owner, orderId, 4_000);
    const id = asked.body.data.id as number;
    await expect.poll(async () => (await refundRow(id)).attempts, { timeout: 10_000 }).toBe(1);
    expect(await refundRow(id)).toMatchObject({
      status: 'pending',
      lastError: expect.stringMatching(/no session cs_sbx_gone/),
    });
    // Seven refusals later (brought forward rather than waited for), the eighth gives up.
    await server.ctx.db.update(refunds).set({ attempts: 7 }).where(eq(refunds.id, id));
    await server.ctx.db
      .update(outbox)
      .set({ nextAttemptAt: sql`now()` })
      .where(eq(outbox.dedupeKey, `refund:${id}`));
    expect(await settled(id)).toBe('failed');
    const detail = (await owner.request(`/v1/admin/orders/${orderId}`)).body.data;
    expect(detail).toMatchObject({ refundable_minor: 4_000, refunded_minor: 0, status: 10 });
    const [failed] = await server.ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, String(id)), eq(auditEvents.action, 'refund.failed')));
    expect(failed).toMatchObject({ entityType: 'refund', actorType: 'system', actorLabel: 'refunds' });
    // The buyer is still owed it: the console home lists it until someone acts.
    const home = (await owner.request('/v1/admin/dashboard')).body.data;
    expect(home.refunds_failed.refunds).toEqual(
      expect.arrayContaining([expect.objectContaining({ id, status: 'failed', amount_minor: 4_000 })]),
    );
  });
});
