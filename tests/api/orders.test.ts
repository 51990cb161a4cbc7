import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { runShopCommand } from '../../server/cli/shop';
import { orders, orderTrackingEvents } from '../../server/db/schema';
import { shipOrder } from '../../server/domains/orders/order-operations.service';
import { CLI_ACTOR } from '../../server/domains/audit/audit.service';
import { getOrderForPayment, markOrderPaid } from '../../server/domains/orders/order-payment.service';
import { makeBuyer, makeShopper, placeOrderFor, prepareSku, stockOf } from '../support/buyers';
import { decodedMail, useFakeSmtp } from '../support/mail';
import { useTestApp } from '../support/test-server';

const smtp = useFakeSmtp();
const server = useTestApp(() => ({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://shop.example' }));

async function paid(orderId: number) {
  const result = await markOrderPaid(server.ctx, { orderId, paymentId: `pay_${orderId}` });
  expect(result.outcome).toBe('paid');
}

describe('order reads', () => {
  it('lists orders by tab with remote-list shape, counts them, and lists after-sales', async () => {
    const buyer = await makeShopper(server);
    const sku = await prepareSku(server, { stock: 20 });
    const a = await placeOrderFor(buyer, sku.id);
    const b = await placeOrderFor(buyer, sku.id, 2);
    const c = await placeOrderFor(buyer, sku.id);
    await paid(b.id);
    await paid(c.id);
    await shipOrder(
      { ...server.ctx, actor: CLI_ACTOR },
      { orderId: c.id, carrierCode: 'yuantong', trackingNo: 'YT1234567890' },
    );
    const d = await placeOrderFor(buyer, sku.id);
    await server.ctx.db.update(orders).set({ status: 40 }).where(eq(orders.id, d.id));

    const all = await buyer.call('/v1/order/list?page=1&page_size=10');
    expect(all.body.data).toMatchObject({ total: 4, page: 1, page_size: 10 });
    expect(all.body.data.records.map((order: { id: number }) => order.id)).toEqual([d.id, c.id, b.id, a.id]);
    expect(all.body.data.records[3]).toMatchObject({
      status: 1,
      status_text: 'Pending payment',
      can_cancel: true,
      item_count: 1,
    });
    const tab = async (status: string) =>
      (await buyer.call(`/v1/order/list?status=${status}`)).body.data.records.map((order: { id: number }) => order.id);
    expect(await tab('1')).toEqual([a.id]);
    expect(await tab('10')).toEqual([b.id]);
    expect(await tab('20')).toEqual([c.id]);
    expect(await tab('after_sales')).toEqual([d.id]);
    // The After-Sales list holds the buyer's cases (tests/api/after-sales-flow.test.ts); this order was
    // moved to 40 by hand, with none.
    expect((await buyer.call('/v1/order/afterSaleList')).body.data).toMatchObject({ records: [], total: 0 });
    const paged = await buyer.call('/v1/order/list?page=2&page_size=3');
    expect(paged.body.data).toMatchObject({ total: 4, records: [expect.objectContaining({ id: a.id })] });
    const counts = await buyer.call('/v1/order/countByStatus');
    expect(counts.body.data).toMatchObject({
      all: 4,
      pending_payment: 1,
      pending_shipment: 1,
      pending_receipt: 1,
      // The After-Sales tab counts cases, and this order has none.
      after_sales: 0,
      by_status: { '1': 1, '10': 1, '20': 1, '40': 1 },
    });
    expect((await buyer.call('/v1/order/list?status=5')).status).toBe(400);
    const zh = await buyer.call(`/v1/order/${b.id}`, { headers: { lang: 'zh-cn' } });
    expect(zh.body.data).toMatchObject({
      status_text: '待发货',
      pay_status_text: '已支付',
      country: '中国',
      region: '广东省 广州市',
    });
    expect(zh.body.data.history.map((entry: { note: string }) => entry.note)).toEqual(['订单已提交', '已收到付款']);
  });

  it('shows the order detail: contact, address, price details, notes, history, shipment', async () => {
    const buyer = await makeShopper(server);
    const sku = await prepareSku(server, { stock: 5 });
    const placed = await buyer.call('/v2/order', {
      method: 'POST',
      body: { items: [{ sku_id: sku.id, quantity: 1 }], notes: 'Gift wrap please' },
    });
    const { body } = await buyer.call(`/v1/order/${placed.body.data.id}`);
    expect(body.data).toMatchObject({
      contact: { name: 'Li Lei', phone: '+8613812345678' },
      country: 'China',
      region: 'Guangdong, Guangzhou',
      address: '88 Tianhe Road, Building 3, Room 1201',
      postal_code: '510000',
      notes: 'Gift wrap please',
      shipment: null,
      price: { product_price: { amount_minor: sku.priceMinor }, discount: { amount_minor: 0 } },
    });
    expect(body.data.price.total.amount_minor).toBe(sku.priceMinor + body.data.price.shipping_fee.amount_minor);
    expect(Date.parse(body.data.created_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(Date.parse(body.data.payment_deadline) - Date.parse(body.data.created_at)).toBe(30 * 60_000);
  });

  it("answers 404 for another user's order on every order call", async () => {
    const owner = await makeShopper(server);
    const other = await makeBuyer(server);
    const sku = await prepareSku(server, { stock: 5 });
    const order = await placeOrderFor(owner, sku.id);
    for (const [method, path] of [
      ['GET', `/v1/order/${order.id}`],
      ['GET', `/v1/order/${order.id}/express`],
      ['PUT', `/v1/order/cancel/${order.id}`],
      ['PUT', `/v1/order/confirm/${order.id}`],
    ] as const) {
      const response = await other.call(path, { method });
      expect(response.status, path).toBe(404);
      expect(response.body).toEqual({ code: 404, msg: 'Order not found', data: null });
    }
    expect((await other.call('/v1/order/list')).body.data.total).toBe(0);
    expect((await owner.call(`/v1/order/${order.id}`)).body.data.status).toBe(1);
    expect((await server.request(`/v1/order/${order.id}`)).body.code).toBe(301);
  });
});

describe('cancel and confirm', () => {
  it('cancels an unpaid order, gives the stock back, and says so in both languages', async () => {
    const buyer = await makeShopper(server);
    const sku = await prepareSku(server, { stock: 5 });
    const order = await placeOrderFor(buyer, sku.id, 2);
    expect(await stockOf(server, sku.id)).toBe(3);
    const cancelled = await buyer.call(`/v1/order/cancel/${order.id}`, { method: 'PUT', headers: { lang: 'zh-cn' } });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.msg).toBe('取消成功');
    expect(cancelled.body.data).toMatchObject({ status: 60, pay_status: 3, can_cancel: false });
    expect(await stockOf(server, sku.id)).toBe(5);
    const again = await buyer.call(`/v1/order/cancel/${order.id}`, { method: 'PUT' });
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe('Only orders awaiting payment can be cancelled');
    expect(await stockOf(server, sku.id)).toBe(5);
    expect((await markOrderPaid(server.ctx, { orderId: order.id, paymentId: 'late' })).outcome).toBe('cancelled');

    const english = await placeOrderFor(buyer, sku.id);
    expect((await buyer.call(`/v1/order/cancel/${english.id}`, { method: 'PUT' })).body.msg).toBe(
      'Canceled Successfully',
    );
  });

  it('refuses to cancel a paid or shipped order, and confirms receipt only when shipped', async () => {
    const buyer = await makeShopper(server);
    const sku = await prepareSku(server, { stock: 5 });
    const order = await placeOrderFor(buyer, sku.id);
    expect((await buyer.call(`/v1/order/confirm/${order.id}`, { method: 'PUT' })).status).toBe(409);
    await paid(order.id);
    expect((await buyer.call(`/v1/order/cancel/${order.id}`, { method: 'PUT' })).status).toBe(409);
    const early = await buyer.call(`/v1/order/confirm/${order.id}`, { method: 'PUT' });
    expect(early.status).toBe(409);
    expect(early.body.msg).toBe('Only shipped orders can be confirmed as received');
    await shipOrder(
      { ...server.ctx, actor: CLI_ACTOR },
      { orderId: order.id, carrierCode: 'shunfeng', trackingNo: 'SF100200300' },
    );
    const shippedCancel = await buyer.call(`/v1/order/cancel/${order.id}`, { method: 'PUT' });
    expect(shippedCancel.status).toBe(409);
    expect(await stockOf(server, sku.id)).toBe(4);
    const confirmed = await buyer.call(`/v1/order/confirm/${order.id}`, { method: 'PUT' });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ msg: 'Receipt confirmed', data: { status: 30, can_confirm: false } });
    expect((await buyer.call(`/v1/order/confirm/${order.id}`, { method: 'PUT' })).status).toBe(409);
  });
});

describe('payment hand-off (for the payments domain)', () => {
  it('markOrderPaid is idempotent, checks the amount, and getOrderForPayment reads the amount and owner', async () => {
    const buyer = await makeShopper(server);
    const sku = await prepareSku(server, { stock: 5 });
    const order = await placeOrderFor(buyer, sku.id);
    const forPayment = await getOrderForPayment(server.ctx, { orderId: order.id });
    expect(forPayment).toMatchObject({
      userId: buyer.id,
      userEmail: buyer.email,
      amountMinor: order.total.amount_minor,
      currency: 'CNY',
      payable: true,
    });
    expect(await getOrderForPayment(server.ctx, { orderId: order.id, userId: buyer.id + 1000 })).toBeNull();
    expect((await markOrderPaid(server.ctx, { orderId: order.id, paymentId: 'p1', amountMinor: 1 })).outcome).toBe(
      'amount_mismatch',
    );
    const results = await Promise.all(
      [1, 2, 3].map(() =>
        markOrderPaid(server.ctx, {
          orderId: order.id,
          paymentId: 'p1',
          amountMinor: order.total.amount_minor,
          currency: 'CNY',
        }),
      ),
    );
    expect(results.map((result) => result.outcome).sort()).toEqual(['already_paid', 'already_paid', 'paid']);
    const detail = (await buyer.call(`/v1/order/${order.id}`)).body.data;
    expect(detail).toMatchObject({ status: 10, pay_status: 2 });
    expect(detail.history.filter((entry: { status: number }) => entry.status === 10)).toHaveLength(1);
    expect((await markOrderPaid(server.ctx, { orderId: 99_999_999, paymentId: 'x' })).outcome).toBe('not_found');
  });
});

describe('shipping, tracking and emails', () => {
  it('emails the order placed in the buyer language, and the shipment with a tracking link', async () => {
    const buyer = await makeShopper(server);
    const sku = await prepareSku(server, { stock: 5 });
    const order = await placeOrderFor(buyer, sku.id, 1, { lang: 'zh-cn' });
    const placedMail = decodedMail((await smtp.waitFor((mail) => mail.to === buyer.email)).raw);
    expect(placedMail).toContain(`感谢您的订单 ${order.order_no}`);
    expect(placedMail).toContain('Li Lei');
    expect(placedMail).toContain(`https://shop.example/zh-cn/my/order/${order.id}`);
    await paid(order.id);
    await shipOrder(
      { ...server.ctx, actor: CLI_ACTOR },
      { orderId: order.id, carrierCode: 'zhongtong', trackingNo: 'ZT7788990011' },
    );
    const shippedMail = decodedMail((await smtp.waitFor((mail) => decodedMail(mail.raw).includes('ZT7788990011'))).raw);
    expect(shippedMail).toContain('已交由中通快递发出');
    expect(shippedMail).toContain('https://www.kuaidi100.com/chaxun?com=zhongtong&nu=ZT7788990011');
  });

  it('answers express: carrier names in both languages, tracking number and events newest first', async () => {
    const buyer = await makeShopper(server);
    const sku = await prepareSku(server, { stock: 5 });
    const order = await placeOrderFor(buyer, sku.id);
    expect((await buyer.call(`/v1/order/${order.id}/express`)).status).toBe(404);
    await paid(order.id);
    await shipOrder(
      { ...server.ctx, actor: CLI_ACTOR },
      {
        orderId: order.id,
        carrierCode: 'jtexpress',
        trackingNo: 'JT0001112223',
        now: new Date('2026-11-01T08:00:00Z'),
      },
    );
    const out: string[] = [];
    await runShopCommand(
      server.ctx,
      ['orders:track', String(order.id), '--event', 'Arrived at Guangzhou hub', '--at', '2026-11-02T09:00:00Z'],
      (line) => out.push(line),
    );
    const en = await buyer.call(`/v1/order/${order.id}/express`);
    expect(en.body.data).toMatchObject({
      carrier_code: 'jtexpress',
      carrier_name: 'J&T Express',
      tracking_no: 'JT0001112223',
      status: 20,
    });
    expect(en.body.data.events.map((event: { description: string }) => event.description)).toEqual([
      'Arrived at Guangzhou hub',
      'Shipped with J&T Express, tracking number JT0001112223',
    ]);
    const zh = await buyer.call(`/v1/order/${order.id}/express`, { headers: { lang: 'zh-cn' } });
    expect(zh.body.data.carrier_name).toBe('极兔速递');
    expect(zh.body.data.events[1].description).toBe('已交由极兔速递发出，运单号 JT0001112223');
  });
});

describe('OpenAPI', () => {
  it('documents the address, cart, checkout and order endpoints', async () => {
    const paths = Object.keys((await server.request('/v1/openapi.json')).body.paths);
    for (const path of [
      '/v1/useraddress/list',
      '/v1/cart/items/{sku_id}',
      '/v2/order/confirm',
      '/v2/order',
      '/v1/order/{id}/express',
      '/v1/order/cancel/{id}',
    ]) {
      expect(paths).toContain(path);
    }
  });
});

describe('operator CLI (npm run shop)', () => {
  it('lists orders to ship, ships, tracks and delivers, printing readable lines', async () => {
    const buyer = await makeShopper(server);
    const sku = await prepareSku(server, { stock: 5 });
    const order = await placeOrderFor(buyer, sku.id);
    await paid(order.id);
    const run = async (...args: string[]) => {
      const out: string[] = [];
      await runShopCommand(server.ctx, args, (line) => out.push(line));
      return out.join('\n');
    };
    const list = await run('orders:to-ship');
    expect(list).toMatch(/^id\s+order_no\s+paid_at\s+country\s+contact\s+items\s+total/);
    expect(list).toContain(order.order_no);
    expect(await run('orders:ship', String(order.id), '--carrier', 'shunfeng', '--tracking', 'SF998877665')).toContain(
      'shipped with shunfeng',
    );
    expect(await run('orders:to-ship')).not.toContain(order.order_no);
    await run('orders:track', String(order.id), '--event', 'Cleared customs');
    expect(await run('orders:deliver', String(order.id))).toContain('status stays 20');
    const detail = (await buyer.call(`/v1/order/${order.id}`)).body.data;
    expect(detail.status).toBe(20);
    expect(detail.shipment.delivered_at).not.toBeNull();
    const events = await server.ctx.db
      .select()
      .from(orderTrackingEvents)
      .where(eq(orderTrackingEvents.orderId, order.id));
    expect(events.map((event) => event.kind).sort()).toEqual(['delivered', 'shipped', 'update']);
    const express = (await buyer.call(`/v1/order/${order.id}/express`)).body.data;
    expect(express.events[0].description).toBe('Delivered');
  });

  it('counts the units of every line of each order waiting to ship', async () => {
    const buyer = await makeShopper(server);
    const [first, second, third] = [
      await prepareSku(server, { stock: 20 }),
      await prepareSku(server, { stock: 20 }),
      await prepareSku(server, { stock: 20 }),
    ];
    const order = async (items: Array<[number, number]>) => {
      const placed = await buyer.call('/v2/order', {
        method: 'POST',
        body: { items: items.map(([sku_id, quantity]) => ({ sku_id, quantity })) },
      });
      expect(placed.status).toBe(200);
      await paid(placed.body.data.id);
      return placed.body.data.order_no as string;
    };
    const twoLines = await order([
      [first.id, 1],
      [second.id, 1],
    ]);
    const threeLines = await order([
      [first.id, 2],
      [second.id, 3],
      [third.id, 1],
    ]);
    const oneLine = await order([[third.id, 4]]);
    const out: string[] = [];
    await runShopCommand(server.ctx, ['orders:to-ship'], (line) => out.push(line));
    // The columns are as wide as the dashes under their names.
    const [header = '', dashes = '', ...rows] = out.join('\n').split('\n');
    const columns = [...dashes.matchAll(/-+/g)].map((match) => ({
      name: header.slice(match.index, match.index + match[0].length).trim(),
      start: match.index,
      end: match.index + match[0].length,
    }));
    const cell = (row: string, name: string) => {
      const column = columns.find((candidate) => candidate.name === name)!;
      return row.slice(column.start, column.end).trim();
    };
    const unitsByOrder = Object.fromEntries(
      rows
        .filter((row) => [twoLines, threeLines, oneLine].includes(cell(row, 'order_no')))
        .map((row) => [cell(row, 'order_no'), cell(row, 'items')]),
    );
    expect(unitsByOrder).toEqual({ [twoLines]: '2', [threeLines]: '6', [oneLine]: '4' });
  });

  it('refuses an unknown carrier, shipping twice, and tracking an unshipped order', async () => {
    const buyer = await makeShopper(server);
    const sku = await prepareSku(server, { stock: 5 });
    const order = await placeOrderFor(buyer, sku.id);
    const run = (...args: string[]) => runShopCommand(server.ctx, args, () => {});
    await expect(
      run('orders:ship', String(order.id), '--carrier', 'shunfeng', '--tracking', 'SF1234567'),
    ).rejects.toMatchObject({ messageKey: 'order.notPendingShipment' });
    await expect(run('orders:track', String(order.id), '--event', 'x')).rejects.toMatchObject({
      messageKey: 'order.notShipped',
    });
    await paid(order.id);
    await expect(
      run('orders:ship', String(order.id), '--carrier', 'pigeon', '--tracking', 'SF1234567'),
    ).rejects.toMatchObject({ messageKey: 'order.carrierUnknown' });
    await run('orders:ship', String(order.id), '--carrier', 'yunda', '--tracking', 'YD1234567');
    await expect(
      run('orders:ship', String(order.id), '--carrier', 'yunda', '--tracking', 'YD1234567'),
    ).rejects.toMatchObject({ messageKey: 'order.notPendingShipment' });
    await expect(run('orders:ship', 'abc')).rejects.toThrow(/--carrier and --tracking are required|order id/);
    await expect(run('orders:nope')).rejects.toThrow(/unknown command/);
  });
});
