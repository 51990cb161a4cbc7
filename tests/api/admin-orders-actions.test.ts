import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, orderNotes, orders, productSkus } from '../../server/db/schema';
import { runShopCommand } from '../../server/cli/shop';
import { PERMISSIONS } from '../../server/domains/staff/permissions';
import { makeBuyer, makeShopper, placeOrderFor, prepareSku, stockOf, type Buyer } from '../support/buyers';
import { decodedMail, useFakeSmtp } from '../support/mail';
import { createSignedInStaff, type TestStaff } from '../support/staff';
import { useTestApp } from '../support/test-server';
import { paidSandboxOrder } from './admin-orders-fixtures';

/** Actions on an order through the admin API and the command line, each audited. */
const smtp = useFakeSmtp();
const server = useTestApp(() => ({ SMTP_URL: smtp.url }));
let owner: TestStaff;
let fulfilment: TestStaff;
let buyer: Buyer;

beforeAll(async () => {
  owner = await createSignedInStaff(server, { permissions: PERMISSIONS, refundLimitMinor: null });
  fulfilment = await createSignedInStaff(server, { role: 'fulfilment' });
  buyer = await makeBuyer(server);
});

async function auditOf(entityType: string, entityId: number) {
  return server.ctx.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entityType, entityType), eq(auditEvents.entityId, String(entityId))))
    .orderBy(auditEvents.id);
}

describe('shipping from the console', () => {
  it('Fulfilment ships a paid order: status 20, the buyer gets the shipped email, the audit log names the member', async () => {
    const { orderId } = await paidSandboxOrder(server.ctx, buyer.id, 12_800);
    const answer = await fulfilment.request(`/v1/admin/orders/${orderId}/ship`, {
      method: 'POST',
      body: { carrier_code: 'shunfeng', tracking_no: 'SF1234567890' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({
      status: 20,
      shipment: { carrier_code: 'shunfeng', carrier_name: 'SF Express', tracking_no: 'SF1234567890' },
      can: { ship: false, deliver: true, add_tracking: true, cancel: false, refund: true },
    });
    const mail = await smtp.waitFor((m) => m.raw.includes(`<order-${orderId}-shipped@`));
    expect(mail.to).toBe(buyer.email);
    expect(decodedMail(mail.raw)).toContain('is on its way with SF Express, tracking number SF1234567890');
    const audit = await auditOf('order', orderId);
    expect(audit.map((event) => [event.action, event.actorType, event.actorId, event.actorLabel])).toEqual([
      ['order.shipped', 'staff', fulfilment.id, fulfilment.email],
    ]);
    expect(audit[0]!.changes).toEqual({
      status: { before: 10, after: 20 },
      carrier_code: { after: 'shunfeng' },
      tracking_no: { after: 'SF1234567890' },
    });
    expect(audit[0]!.userAgent).toBe('lightMyRequest');
  });

  it('Fulfilment can ship but gets 403 on refund, cancel and export', async () => {
    const { orderId } = await paidSandboxOrder(server.ctx, buyer.id, 5_000);
    const refund = await fulfilment.request(`/v1/admin/orders/${orderId}/refunds`, {
      method: 'POST',
      body: { amount_minor: 100, reason: 'try', idempotency_key: 'fulfilment-refund-1' },
    });
    expect(refund.status).toBe(403);
    expect(refund.body.msg).toBe('Your role does not allow this. Ask an Owner for access');
    expect((await fulfilment.request(`/v1/admin/orders/${orderId}/cancel`, { method: 'POST', body: {} })).status).toBe(
      403,
    );
    expect((await fulfilment.request('/v1/admin/refunds?status=awaiting_approval')).status).toBe(403);
  });

  it('refuses to ship twice, with an unknown carrier or a malformed tracking number', async () => {
    const { orderId } = await paidSandboxOrder(server.ctx, buyer.id, 5_000);
    const ship = (body: object) => owner.request(`/v1/admin/orders/${orderId}/ship`, { method: 'POST', body });
    expect((await ship({ carrier_code: 'pigeon', tracking_no: 'AB12345' })).status).toBe(400);
    expect((await ship({ carrier_code: 'yunda', tracking_no: 'no spaces!' })).status).toBe(400);
    expect((await ship({ carrier_code: 'yunda', tracking_no: 'YD12345678' })).status).toBe(200);
    const again = await ship({ carrier_code: 'yunda', tracking_no: 'YD12345678' });
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe('Only paid orders awaiting shipment can be shipped');
  });

  it('adds tracking events and records delivery; the detail timeline merges history, tracking and audit', async () => {
    const { orderId } = await paidSandboxOrder(server.ctx, buyer.id, 5_000);
    await owner.request(`/v1/admin/orders/${orderId}/ship`, {
      method: 'POST',
      body: { carrier_code: 'zhongtong', tracking_no: 'ZT55501234' },
    });
    const tracked = await fulfilment.request(`/v1/admin/orders/${orderId}/tracking`, {
      method: 'POST',
      body: { description: 'Arrived at Los Angeles hub' },
    });
    expect(tracked.status).toBe(200);
    const delivered = await fulfilment.request(`/v1/admin/orders/${orderId}/deliver`, { method: 'POST', body: {} });
    expect(delivered.status).toBe(200);
    expect(delivered.body.data.status).toBe(20);
    expect(delivered.body.data.shipment.delivered_at).toEqual(expect.any(String));
    const timeline = delivered.body.data.timeline as Array<{ kind: string; title: string; actor: string }>;
    expect(timeline.map((entry) => `${entry.kind}:${entry.title}`)).toEqual(
      expect.arrayContaining([
        'status:Pending shipment',
        'status:Pending receipt',
        'tracking:Shipped with ZTO Express, tracking ZT55501234',
        'tracking:Arrived at Los Angeles hub',
        'tracking:Delivered',
        'audit:order.shipped',
        'audit:order.tracking_added',
        'audit:order.delivered',
      ]),
    );
    expect((await auditOf('order', orderId)).map((event) => event.action)).toEqual([
      'order.shipped',
      'order.tracking_added',
      'order.delivered',
    ]);
  });

  it('the command line ships with the actor cli in the audit log', async () => {
    const { orderId } = await paidSandboxOrder(server.ctx, buyer.id, 5_000);
    const out: string[] = [];
    await runShopCommand(
      server.ctx,
      ['orders:ship', String(orderId), '--carrier', 'jd', '--tracking', 'JD000111222'],
      (line) => out.push(line),
    );
    const audit = await auditOf('order', orderId);
    expect(audit.map((event) => [event.action, event.actorType, event.actorId, event.actorLabel])).toEqual([
      ['order.shipped', 'cli', null, 'cli'],
    ]);
  });
});

describe('cancel and notes', () => {
  it('cancels an unpaid order: stock comes back, audit written; a paid one is refused', async () => {
    const shopper = await makeShopper(server);
    const sku = await prepareSku(server, { stock: 4 });
    const order = await placeOrderFor(shopper, sku.id, 3);
    expect(await stockOf(server, sku.id)).toBe(1);
    const answer = await owner.request(`/v1/admin/orders/${order.id}/cancel`, {
      method: 'POST',
      body: { reason: 'Buyer asked by phone' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ status: 60, pay_status: 3 });
    expect(await stockOf(server, sku.id)).toBe(4);
    const [event] = await auditOf('order', order.id);
    expect(event).toMatchObject({ action: 'order.cancelled', actorId: owner.id });
    expect(event!.changes.reason).toEqual({ after: 'Buyer asked by phone' });

    const { orderId: paidId } = await paidSandboxOrder(server.ctx, buyer.id, 5_000);
    const refused = await owner.request(`/v1/admin/orders/${paidId}/cancel`, { method: 'POST', body: {} });
    expect(refused.status).toBe(409);
  });

  it('keeps internal notes on the console only', async () => {
    const { orderId } = await paidSandboxOrder(server.ctx, buyer.id, 5_000);
    const answer = await fulfilment.request(`/v1/admin/orders/${orderId}/notes`, {
      method: 'POST',
      body: { body: 'Gift wrap, no invoice in the box' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.notes).toEqual([
      {
        id: expect.any(Number),
        body: 'Gift wrap, no invoice in the box',
        staff: { id: fulfilment.id, email: fulfilment.email },
        created_at: expect.any(String),
      },
    ]);
    const seen = await buyer.call(`/v1/order/${orderId}`);
    expect(seen.status).toBe(200);
    expect(JSON.stringify(seen.body)).not.toContain('Gift wrap');
    expect(await server.ctx.db.select().from(orderNotes).where(eq(orderNotes.orderId, orderId))).toHaveLength(1);
    expect((await auditOf('order', orderId)).map((event) => event.action)).toEqual(['order.note_added']);
  });
});

describe('bulk ship', () => {
  it('ships each good row and reports each bad one in the member language', async () => {
    const first = await paidSandboxOrder(server.ctx, buyer.id, 5_000);
    const second = await paidSandboxOrder(server.ctx, buyer.id, 6_000);
    const numberOf = async (id: number) =>
      (await server.ctx.db.select({ no: orders.orderNo }).from(orders).where(eq(orders.id, id)))[0]!.no;
    const a = await numberOf(first.orderId);
    const b = await numberOf(second.orderId);
    const csv = [
      'order_no,carrier,tracking_no',
      `${a},shunfeng,SF900000001`,
      `NOPE-1,yunda,YD900000002`,
      `${b},pigeon,PG900000003`,
      `${a},shunfeng,SF900000004`,
      `${b}`,
      '',
    ].join('\n');
    const answer = await fulfilment.request('/v1/admin/orders/bulk-ship', { method: 'POST', body: { csv } });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({
      shipped: 1,
      failed: 4,
      rows: [
        { row: 2, order_no: a, ok: true, error: null },
        { row: 3, order_no: 'NOPE-1', ok: false, error: 'No order numbered NOPE-1' },
        { row: 4, order_no: b, ok: false, error: expect.stringMatching(/^Unknown carrier: pigeon/) },
        { row: 5, order_no: a, ok: false, error: 'This order is already on line 2' },
        { row: 6, order_no: b, ok: false, error: 'Expected three values: order number, carrier, tracking number' },
      ],
    });
    const zh = await fulfilment.request('/v1/admin/orders/bulk-ship', {
      method: 'POST',
      body: { csv: 'order_no,carrier,tracking_no\nNOPE-2,yunda,YD1234567' },
      headers: { lang: 'zh-cn' },
    });
    expect(zh.body.data.rows[0].error).toBe('找不到订单号为 NOPE-2 的订单');
  });

  it('refuses a file without the header or with more than 500 rows', async () => {
    const noHeader = await owner.request('/v1/admin/orders/bulk-ship', {
      method: 'POST',
      body: { csv: 'A1,shunfeng,SF1' },
    });
    expect(noHeader.status).toBe(400);
    const rows = Array.from({ length: 501 }, (_, i) => `X${i},yunda,YD${i}0000`);
    const tooMany = await owner.request('/v1/admin/orders/bulk-ship', {
      method: 'POST',
      body: { csv: ['order_no,carrier,tracking_no', ...rows].join('\n') },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.msg).toBe('A bulk shipment takes at most 500 rows');
  });
});

describe('carriers and the dashboard', () => {
  it('lists the carriers in the member language', async () => {
    const answer = await fulfilment.request('/v1/admin/carriers', { headers: { lang: 'zh-cn' } });
    expect(answer.body.data[0]).toEqual({ code: 'shunfeng', name: '顺丰速运' });
    expect(answer.body.data).toHaveLength(11);
  });

  it('counts what needs doing now', async () => {
    const before = (await fulfilment.request('/v1/admin/dashboard')).body.data;
    const { orderId } = await paidSandboxOrder(server.ctx, buyer.id, 4_321);
    await server.ctx.db
      .update(orders)
      .set({ paidAt: new Date(Date.now() - 50 * 3_600_000) })
      .where(eq(orders.id, orderId));
    const sku = await prepareSku(server, { stock: 2 });
    const answer = await fulfilment.request('/v1/admin/dashboard');
    expect(answer.status).toBe(200);
    const data = answer.body.data;
    expect(data.to_ship.orders[0]).toMatchObject({ id: orderId, waiting_hours: 50, total_minor: 4_321 });
    expect(data.to_ship.oldest_waiting_hours).toBe(50);
    expect(data.to_ship.count).toBe(before.to_ship.count + 1);
    expect(data.low_stock.count).toBe(before.low_stock.count + 1);
    expect(data.low_stock.skus.every((row: { stock: number }) => row.stock <= 5)).toBe(true);
    expect(data.sales.daily).toHaveLength(14);
    expect(data.sales.daily[13].day).toBe(new Date().toISOString().slice(0, 10));
    const [kept] = await server.ctx.db.select().from(productSkus).where(eq(productSkus.id, sku.id));
    expect(kept!.stock).toBe(2);
  });
});
