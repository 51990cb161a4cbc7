import { beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../server/domains/staff/permissions';
import { runOrderSweep } from '../../server/jobs/order-sweep';
import { runShopCommand } from '../../server/cli/shop';
import { germanAddress } from '../support/buyers';
import { decodedMail, useFakeSmtp } from '../support/mail';
import { createSignedInStaff, type TestStaff } from '../support/staff';
import { useTestApp } from '../support/test-server';
import {
  afterSaleSku,
  caseRefunds,
  caseRow,
  evidencePhoto,
  orderAt,
  orderStatus,
  type PreparedLine,
} from './after-sales-fixtures';

/**
 * After-sales end to end through the API (ADR 0130): a return refunded, a refund before
 * shipping, an exchange shipped, a rejection appealed. Amounts are written out by hand from
 * the prices set below; the order's shipping fee comes from the seeded rules.
 */
const smtp = useFakeSmtp();
const server = useTestApp(() => ({ SMTP_URL: smtp.url }));
let owner: TestStaff;
let shirt: PreparedLine;
let mug: PreparedLine;
let keys = 0;
const key = () => `after-sale-${process.pid}-${Date.now()}-${++keys}`;

beforeAll(async () => {
  owner = await createSignedInStaff(server, { permissions: PERMISSIONS, refundLimitMinor: null });
  shirt = await afterSaleSku(server, 12_000);
  mug = await afterSaleSku(server, 4_500);
});

async function settledCase(id: number, state: string) {
  await expect.poll(async () => (await caseRow(server, id)).state, { timeout: 15_000 }).toBe(state);
}

describe('a return and refund', () => {
  it('goes from the request to money back: order 40 while open, 41 when refunded; restocked, emailed', async () => {
    const order = await orderAt(server, owner, {
      lines: [
        { sku: shirt, quantity: 2 },
        { sku: mug, quantity: 1 },
      ],
      stage: 'received',
      address: germanAddress,
    });
    const photo = await evidencePhoto(order.buyer);

    const options = await order.buyer.call(`/v1/after-sale/order/${order.orderId}`);
    expect(options.status).toBe(200);
    expect(options.body.data).toMatchObject({ eligible: true, window_days: 14, types: [10, 20, 30] });
    expect(options.body.data.lines.map((line: { available: number }) => line.available)).toEqual([2, 1]);

    const estimate = await order.buyer.call('/v1/after-sale/estimate', {
      method: 'POST',
      body: { order_id: order.orderId, type: 20, lines: [{ order_item_id: order.itemIds[0], quantity: 1 }] },
    });
    expect(estimate.body.data.refund.amount_minor).toBe(12_000);

    const created = await order.buyer.call('/v1/after-sale', {
      method: 'POST',
      body: {
        order_id: order.orderId,
        type: 20,
        reason: 'damaged',
        description: 'The collar is torn',
        photos: [photo],
        lines: [{ order_item_id: order.itemIds[0], quantity: 1 }],
        idempotency_key: key(),
      },
    });
    expect(created.status).toBe(200);
    const caseId = created.body.data.id as number;
    expect(created.body.data).toMatchObject({
      case_no: `${order.orderNo}-1`,
      type: 20,
      status: 1,
      state: 'requested',
      estimate: { amount_minor: 12_000 },
      photos: [photo],
    });
    expect(await orderStatus(server, order.orderId)).toBe(40);

    // The After-Sales tab lists it with SPEC's status 1.
    const list = await order.buyer.call('/v1/order/afterSaleList');
    expect(list.body.data.records.map((record: { id: number; status: number }) => [record.id, record.status])).toEqual([
      [caseId, 1],
    ]);
    const ofThisOrder = await order.buyer.call(`/v1/order/afterSaleList?order_id=${order.orderId}`);
    expect(ofThisOrder.body.data.total).toBe(1);
    const ofAnother = await order.buyer.call(`/v1/order/afterSaleList?order_id=${order.orderId + 100_000}`);
    expect(ofAnother.body.data).toMatchObject({ records: [], total: 0 });
    const counts = await order.buyer.call('/v1/order/countByStatus');
    expect(counts.body.data).toMatchObject({ all: 1, after_sales: 1, by_status: { '40': 1 } });

    const desk = await owner.request(`/v1/admin/after-sales/${caseId}`);
    expect(desk.body.data.operator_can).toEqual({
      approve: true,
      approve_returnless: true,
      reject: true,
      receive: false,
      refund: false,
      ship_exchange: false,
    });
    const ofOrder = await owner.request(`/v1/admin/after-sales?queue=all&order_id=${order.orderId}`);
    expect(ofOrder.body.data.records.map((record: { id: number }) => record.id)).toEqual([caseId]);
    const approved = await owner.request(`/v1/admin/after-sales/${caseId}/approve`, {
      method: 'POST',
      body: { message: 'Sorry about that. Please send it back.' },
    });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({
      state: 'awaiting_parcel',
      status: 3,
      approved: { amount_minor: 12_000 },
    });
    expect(approved.body.data.return_address).toContain('Hangzhou');

    const tracked = await order.buyer.call(`/v1/after-sale/${caseId}/tracking`, {
      method: 'PUT',
      body: { carrier: 'DHL', tracking_no: 'JD0146000012345' },
    });
    expect(tracked.status).toBe(200);
    expect(tracked.body.data).toMatchObject({ state: 'in_transit', return_tracking_no: 'JD0146000012345' });

    const lineId = created.body.data.lines[0].id as number;
    const received = await owner.request(`/v1/admin/after-sales/${caseId}/receive`, {
      method: 'POST',
      body: { lines: [{ line_id: lineId, accepted_quantity: 1, damaged_quantity: 0, restock: true }] },
    });
    expect(received.status).toBe(200);
    expect(received.body.data.state).toBe('received');
    expect(received.body.data.operator_can).toMatchObject({
      approve: false,
      reject: true,
      receive: false,
      refund: true,
    });

    // The same click sent twice at once: one refund, and both answers are the case refunding.
    const refundKey = key();
    const [refunded, again] = await Promise.all(
      [1, 2].map(() =>
        owner.request(`/v1/admin/after-sales/${caseId}/refund`, {
          method: 'POST',
          body: { idempotency_key: refundKey },
        }),
      ),
    );
    expect([refunded!.status, again!.status]).toEqual([200, 200]);
    expect(refunded!.body.data.state).toBe('refunding');
    await settledCase(caseId, 'completed');
    expect(await orderStatus(server, order.orderId)).toBe(41);
    const refundRows = await caseRefunds(server, caseId);
    expect(refundRows).toHaveLength(1);
    expect(refundRows[0]).toMatchObject({ status: 'succeeded', amountMinor: 12_000 });

    const detail = await order.buyer.call(`/v1/after-sale/${caseId}`);
    expect(detail.body.data).toMatchObject({ status: 4, state: 'completed', refunds: [{ status: 'succeeded' }] });
    expect(detail.body.data.timeline.map((entry: { state: string }) => entry.state)).toEqual([
      'requested',
      'awaiting_parcel',
      'in_transit',
      'received',
      'refunding',
      'completed',
    ]);

    const mails = () =>
      smtp.inbox
        .filter((mail) => mail.to.includes(order.buyer.email))
        .map((mail) => decodedMail(mail.raw))
        .join('\n');
    for (const subject of [
      `We received your after-sale request ${order.orderNo}-1`,
      `Your after-sale request ${order.orderNo}-1 is approved`,
      `We received your parcel for ${order.orderNo}-1`,
      `Refund of CN¥120.00 for ${order.orderNo}-1 completed`,
    ])
      await expect.poll(mails, { timeout: 15_000 }).toContain(subject);
  });
});

describe('a refund before shipping', () => {
  it('takes only refund-only requests, and sends the rest of the order on: back to 10 when units are left', async () => {
    const order = await orderAt(server, owner, {
      lines: [{ sku: mug, quantity: 3 }],
      stage: 'paid',
    });
    const exchange = await order.buyer.call('/v1/after-sale', {
      method: 'POST',
      body: {
        order_id: order.orderId,
        type: 30,
        reason: 'changed_mind',
        lines: [{ order_item_id: order.itemIds[0], quantity: 1 }],
        idempotency_key: key(),
      },
    });
    expect(exchange.status).toBe(409);
    expect(exchange.body.msg).toBe('An order that has not shipped yet can only be refunded');

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
    expect(await orderStatus(server, order.orderId)).toBe(40);
    const caseId = created.body.data.id as number;
    expect(
      (await owner.request(`/v1/admin/after-sales/${caseId}/approve`, { method: 'POST', body: {} })).body.data.state,
    ).toBe('approved');
    expect(
      (
        await owner.request(`/v1/admin/after-sales/${caseId}/refund`, {
          method: 'POST',
          body: { idempotency_key: key() },
        })
      ).status,
    ).toBe(200);
    await settledCase(caseId, 'completed');
    // Two mugs are still to ship: the order goes back to "to ship".
    expect(await orderStatus(server, order.orderId)).toBe(10);
  });
});

describe('an exchange', () => {
  it('ships the wanted option once the parcel is back, and ends when the buyer confirms', async () => {
    const order = await orderAt(server, owner, { lines: [{ sku: shirt, quantity: 1 }], stage: 'received' });
    const options = await order.buyer.call(`/v1/after-sale/order/${order.orderId}`);
    const wanted = options.body.data.lines[0].exchange_options[0]?.sku_id as number | undefined;
    expect(wanted).toBeTypeOf('number');
    const created = await order.buyer.call('/v1/after-sale', {
      method: 'POST',
      body: {
        order_id: order.orderId,
        type: 30,
        reason: 'size_fit',
        lines: [{ order_item_id: order.itemIds[0], quantity: 1, wanted_sku_id: wanted }],
        idempotency_key: key(),
      },
    });
    expect(created.status).toBe(200);
    expect(await orderStatus(server, order.orderId)).toBe(50);
    const caseId = created.body.data.id as number;
    await owner.request(`/v1/admin/after-sales/${caseId}/approve`, { method: 'POST', body: {} });
    expect(await orderStatus(server, order.orderId)).toBe(51);
    const lineId = created.body.data.lines[0].id as number;
    await owner.request(`/v1/admin/after-sales/${caseId}/receive`, {
      method: 'POST',
      body: { lines: [{ line_id: lineId, accepted_quantity: 1, damaged_quantity: 0, restock: true }] },
    });
    const shipped = await owner.request(`/v1/admin/after-sales/${caseId}/ship-exchange`, {
      method: 'POST',
      body: { carrier_code: 'shunfeng', tracking_no: 'SF1234567890' },
    });
    expect(shipped.status).toBe(200);
    expect(shipped.body.data).toMatchObject({
      state: 'exchange_shipped',
      exchange_shipment: { carrier_name: 'SF Express', tracking_no: 'SF1234567890' },
    });
    const confirmed = await order.buyer.call(`/v1/after-sale/${caseId}/confirm`, { method: 'PUT' });
    expect(confirmed.body.data).toMatchObject({ state: 'completed', status: 4 });
    expect(await orderStatus(server, order.orderId)).toBe(51);
  });
});

describe('a rejection', () => {
  it('shows 42 with the shop message; one appeal reopens it; after the window the order is 71', async () => {
    const order = await orderAt(server, owner, { lines: [{ sku: mug, quantity: 1 }], stage: 'received' });
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
    const caseId = created.body.data.id as number;
    const rejected = await owner.request(`/v1/admin/after-sales/${caseId}/reject`, {
      method: 'POST',
      body: { rejection: 'used_or_damaged_by_buyer', message: 'The mug has been used.' },
    });
    expect(rejected.body.data).toMatchObject({ state: 'rejected', status: 4, shop_message: 'The mug has been used.' });
    expect(await orderStatus(server, order.orderId)).toBe(42);
    const seen = await order.buyer.call(`/v1/after-sale/${caseId}`, { headers: { lang: 'zh-cn' } });
    expect(seen.body.data).toMatchObject({ can_appeal: true, rejection_text: '商品签收后被使用或损坏' });

    const appealed = await order.buyer.call(`/v1/after-sale/${caseId}/appeal`, {
      method: 'PUT',
      body: { message: 'It was never used, see the box.', photos: [await evidencePhoto(order.buyer)] },
    });
    expect(appealed.body.data).toMatchObject({ state: 'requested', status: 1 });
    expect(await orderStatus(server, order.orderId)).toBe(40);
    await owner.request(`/v1/admin/after-sales/${caseId}/reject`, {
      method: 'POST',
      body: { rejection: 'used_or_damaged_by_buyer', message: 'Still no.' },
    });
    const again = await order.buyer.call(`/v1/after-sale/${caseId}/appeal`, {
      method: 'PUT',
      body: { message: 'Please.' },
    });
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe('This request was already appealed once');

    const later = new Date(Date.now() + 30 * 24 * 60 * 60 * 1000);
    const swept = await runOrderSweep(server.ctx, { now: later });
    expect(swept.afterSales.finished).toContain(order.orderId);
    expect(await orderStatus(server, order.orderId)).toBe(71);
  });
});

describe('final sale', () => {
  it('is set from the operator desk; such an item comes back only when it is the shop’s fault', async () => {
    const clearance = await afterSaleSku(server, 3_000);
    const said: string[] = [];
    await runShopCommand(server.ctx, ['products:final-sale', String(clearance.productId), 'on'], (line) =>
      said.push(line),
    );
    expect(said).toEqual([
      `product ${clearance.productId} is sold final: returns only for damaged, wrong or not as described`,
    ]);
    const order = await orderAt(server, owner, { lines: [{ sku: clearance, quantity: 1 }], stage: 'received' });
    const ask = (reason: string, photos: string[] = []) =>
      order.buyer.call('/v1/after-sale', {
        method: 'POST',
        body: {
          order_id: order.orderId,
          type: 20,
          reason,
          photos,
          lines: [{ order_item_id: order.itemIds[0], quantity: 1 }],
          idempotency_key: key(),
        },
      });
    const refused = await ask('changed_mind');
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toMatch(
      /was sold as final sale: it can only be taken back if it arrived damaged, wrong or not as described$/,
    );
    expect((await ask('damaged', [await evidencePhoto(order.buyer)])).status).toBe(200);
  });
});

describe('the sweep', () => {
  it('closes a return never sent after the parcel days, and confirms a replacement nobody confirmed', async () => {
    const order = await orderAt(server, owner, {
      lines: [
        { sku: shirt, quantity: 1 },
        { sku: mug, quantity: 1 },
      ],
      stage: 'received',
    });
    const ask = (body: Record<string, unknown>) =>
      order.buyer.call('/v1/after-sale', {
        method: 'POST',
        body: { order_id: order.orderId, idempotency_key: key(), ...body },
      });
    const unsent = (
      await ask({ type: 20, reason: 'changed_mind', lines: [{ order_item_id: order.itemIds[1], quantity: 1 }] })
    ).body.data.id as number;
    await owner.request(`/v1/admin/after-sales/${unsent}/approve`, { method: 'POST', body: {} });

    const options = await order.buyer.call(`/v1/after-sale/order/${order.orderId}`);
    const wanted = options.body.data.lines[0].exchange_options[0].sku_id as number;
    const exchange = await ask({
      type: 30,
      reason: 'size_fit',
      lines: [{ order_item_id: order.itemIds[0], quantity: 1, wanted_sku_id: wanted }],
    });
    const exchangeId = exchange.body.data.id as number;
    const lineId = exchange.body.data.lines[0].id as number;
    await owner.request(`/v1/admin/after-sales/${exchangeId}/approve`, { method: 'POST', body: {} });
    await owner.request(`/v1/admin/after-sales/${exchangeId}/receive`, {
      method: 'POST',
      body: { lines: [{ line_id: lineId, accepted_quantity: 1, damaged_quantity: 0, restock: true }] },
    });
    await owner.request(`/v1/admin/after-sales/${exchangeId}/ship-exchange`, {
      method: 'POST',
      body: { carrier_code: 'shunfeng', tracking_no: 'SF9876543210' },
    });

    // Parcel days (14) and auto-confirm days (10) both run out.
    const swept = await runOrderSweep(server.ctx, { now: new Date(Date.now() + 15 * 24 * 60 * 60 * 1000) });
    expect(swept.afterSales.closed).toContain(unsent);
    expect(swept.afterSales.confirmed).toContain(exchangeId);
    const closed = await order.buyer.call(`/v1/after-sale/${unsent}`);
    expect(closed.body.data).toMatchObject({ state: 'closed', status: 2, can_add_tracking: false });
    const confirmed = await order.buyer.call(`/v1/after-sale/${exchangeId}`);
    expect(confirmed.body.data).toMatchObject({ state: 'completed', status: 4 });
    expect(confirmed.body.data.timeline.at(-1)).toMatchObject({
      text: 'Replacement received (confirmed automatically)',
      actor: 'system',
    });
    // The lapsed return no longer counts; the exchange is done and the 7-day window (CN) is over.
    expect(swept.afterSales.finished).toContain(order.orderId);
    expect(await orderStatus(server, order.orderId)).toBe(71);
    await expect
      .poll(() =>
        smtp.inbox
          .filter((mail) => mail.to.includes(order.buyer.email))
          .map((mail) => decodedMail(mail.raw))
          .join('\n'),
      )
      .toContain(`After-sale request ${order.orderNo}-1 closed`);
  });
});
