import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { paymentEvents, payments, sandboxGatewaySessions } from '../../server/db/schema';
import { makeBuyer, makeShopper, placeOrderFor, prepareSku, stockOf, type Buyer } from '../support/buyers';
import { useTestServer } from '../support/test-server';
import {
  cancelOrder,
  makeOrder,
  orderRow,
  paidHistoryRows,
  paymentRow,
  SANDBOX_SECRET,
  sandboxWebhook,
} from './payments-fixtures';

const server = useTestServer({ PAYMENT_PROVIDER: 'sandbox', SANDBOX_WEBHOOK_SECRET: SANDBOX_SECRET });
let buyer: Buyer;

beforeAll(async () => {
  buyer = await makeBuyer(server);
});

async function startPaying(payer: Buyer, orderId: number, lang = 'en') {
  const response = await payer.call('/v1/pay', { method: 'POST', body: { order_id: orderId }, headers: { lang } });
  expect(response.body).toMatchObject({ code: 200 });
  const { payment_id: paymentId, redirect_url: redirectUrl } = response.body.data as {
    payment_id: number;
    redirect_url: string;
  };
  const sessionId = redirectUrl.split('/').pop()!;
  return { paymentId, redirectUrl, sessionId };
}

async function press(redirectUrl: string, button: 'pay' | 'decline') {
  return server.request(`${redirectUrl}/${button}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    rawBody: '',
  });
}

function outboxMailTo(email: string): string | undefined {
  const outbox = path.join(server.ctx.env.dataDir, 'outbox');
  if (!fs.existsSync(outbox)) return undefined;
  return fs
    .readdirSync(outbox)
    .map((file) => fs.readFileSync(path.join(outbox, file), 'utf8'))
    .find((mail) => mail.includes(email));
}

describe('sandbox payments', () => {
  it('pays: hosted page, Pay button, signed webhook, order 1 -> 10 and pay status 1 -> 2, mail sent', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id, 12_345, 'CNY');
    const { paymentId, redirectUrl } = await startPaying(buyer, orderId);
    expect(redirectUrl).toMatch(/^\/sandbox-gateway\/checkout\/cs_sbx_/);
    expect(await paymentRow(server.ctx, paymentId)).toMatchObject({
      orderId,
      amountMinor: 12_345,
      currency: 'CNY',
      status: 'pending',
      provider: 'sandbox',
    });

    const page = await server.request(redirectUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.text).toContain('TEST MODE');
    expect(page.text).toContain('CN¥123.45');
    expect(page.text).toContain('Pay CN¥123.45');
    expect(page.text).toContain('Decline payment');

    const before = await buyer.call(`/v1/pay/PayStatus/${orderId}`);
    expect(before.body.data).toEqual({
      order_id: orderId,
      order_status: 1,
      pay_status: 1,
      payment_id: paymentId,
      payment_status: 'pending',
    });

    const pressed = await press(redirectUrl, 'pay');
    expect(pressed.status).toBe(303);
    expect(pressed.headers.get('location')).toBe(`${server.url}/en/result/success?order_id=${orderId}`);

    const after = await buyer.call(`/v1/pay/PayStatus/${orderId}`);
    expect(after.body.data).toEqual({
      order_id: orderId,
      order_status: 10,
      pay_status: 2,
      payment_id: paymentId,
      payment_status: 'succeeded',
    });
    expect(await orderRow(server.ctx, orderId)).toMatchObject({
      status: 10,
      payStatus: 2,
      paymentId: String(paymentId),
    });
    // Sent by the outbox worker once the payment commits.
    await expect.poll(() => outboxMailTo(buyer.email)).toMatch(/Payment received for order/);

    // Pressing again (double submit, back button) changes nothing and lands on the same page.
    const again = await press(redirectUrl, 'pay');
    expect(again.headers.get('location')).toContain('/result/success');
    expect(await paidHistoryRows(server.ctx, orderId)).toBe(1);
    // The page now says it is done, without buttons.
    const done = await server.request(redirectUrl);
    expect(done.text).toContain('already been completed');
    expect(done.text).not.toContain('/pay"');
  });

  it('pays an order placed through checkout, and a buyer-cancelled order is refused then refunded if paid anyway', async () => {
    const shopper = await makeShopper(server);
    const sku = await prepareSku(server, { stock: 5 });
    const soldCount = async () => (await server.request(`/v1/good/${sku.productId}`)).body.data.sold as number;
    const soldBefore = await soldCount();
    const placed = await placeOrderFor(shopper, sku.id, 2);
    const { redirectUrl } = await startPaying(shopper, placed.id);
    expect((await server.request(redirectUrl)).status).toBe(200);
    expect(await soldCount()).toBe(soldBefore);
    await press(redirectUrl, 'pay');
    const detail = await shopper.call(`/v1/order/${placed.id}`);
    expect(detail.body.data).toMatchObject({ status: 10, pay_status: 2 });
    // The public (cached) product answer counts the paid units as sold, within a second of the
    // order that came just before (a sale retires a product's pages at most once a second, ADR 0176).
    await expect.poll(soldCount, { timeout: 3_000, interval: 200 }).toBe(soldBefore + 2);
    expect(detail.body.data.history.at(-1)).toMatchObject({ status: 10, pay_status: 2, actor: 'payment' });

    const second = await placeOrderFor(shopper, sku.id, 1);
    const open = await startPaying(shopper, second.id);
    expect((await shopper.call(`/v1/order/cancel/${second.id}`, { method: 'PUT' })).body.code).toBe(200);
    expect((await shopper.call('/v1/pay', { method: 'POST', body: { order_id: second.id } })).status).toBe(409);
    // The buyer still had the gateway page open and paid: the money goes back, the stock stays given back.
    await press(open.redirectUrl, 'pay');
    expect((await paymentRow(server.ctx, open.paymentId))?.status).toBe('refunded');
    expect((await shopper.call(`/v1/order/${second.id}`)).body.data).toMatchObject({ status: 60, pay_status: 3 });
    expect(await stockOf(server, sku.id)).toBe(3);
  });

  it('shows the hosted page in Chinese for a buyer paying in Chinese', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id, 999, 'USD');
    const { redirectUrl } = await startPaying(buyer, orderId, 'zh-cn');
    const page = await server.request(redirectUrl);
    expect(page.text).toContain('lang="zh-CN"');
    expect(page.text).toContain('测试模式');
    expect(page.text).toContain('支付 $9.99');
    const pressed = await press(redirectUrl, 'decline');
    expect(pressed.headers.get('location')).toBe(`${server.url}/zh-cn/result/fail?order_id=${orderId}`);
  });

  it('declines: payment failed, order stays payable, and a retry can pay', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id);
    const first = await startPaying(buyer, orderId);
    const declined = await press(first.redirectUrl, 'decline');
    expect(declined.headers.get('location')).toBe(`${server.url}/en/result/fail?order_id=${orderId}`);
    expect((await buyer.call(`/v1/pay/PayStatus/${orderId}`)).body.data).toMatchObject({
      order_status: 1,
      pay_status: 1,
      payment_status: 'failed',
    });

    const retry = await startPaying(buyer, orderId);
    expect(retry.paymentId).not.toBe(first.paymentId);
    await press(retry.redirectUrl, 'pay');
    expect((await buyer.call(`/v1/pay/PayStatus/${orderId}`)).body.data).toMatchObject({
      order_status: 10,
      pay_status: 2,
      payment_id: retry.paymentId,
      payment_status: 'succeeded',
    });
    expect((await paymentRow(server.ctx, first.paymentId))?.status).toBe('failed');
  });

  it('refuses a webhook with a bad signature (400) and changes nothing', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id);
    const { paymentId, sessionId } = await startPaying(buyer, orderId);
    const forged = await sandboxWebhook(
      server,
      { type: 'payment.succeeded', sessionId, amount: 12_345 },
      'not-the-gateway-secret-0123456789abcdef',
    );
    expect(forged.status).toBe(400);
    expect(forged.body).toEqual({ code: 400, msg: 'Invalid webhook signature', data: null });
    const unsigned = await server.request('/v1/pay/webhook/sandbox', {
      method: 'POST',
      body: { id: 'evt_x', type: 'payment.succeeded' },
    });
    expect(unsigned.status).toBe(400);
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 1, payStatus: 1 });
    expect((await paymentRow(server.ctx, paymentId))?.status).toBe('pending');
    expect(await server.ctx.db.select().from(paymentEvents).where(eq(paymentEvents.paymentId, paymentId))).toEqual([]);
  });

  it('applies a replayed webhook once', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id);
    const { sessionId } = await startPaying(buyer, orderId);
    const event = { id: `evt_replay_${orderId}`, type: 'payment.succeeded', sessionId, amount: 12_345 };
    const first = await sandboxWebhook(server, event);
    expect(first.body.data).toEqual({ received: true, outcome: 'paid' });
    const replays = await Promise.all([sandboxWebhook(server, event), sandboxWebhook(server, event)]);
    for (const replay of replays) expect(replay.body.data).toEqual({ received: true, outcome: 'duplicate' });
    expect(await paidHistoryRows(server.ctx, orderId)).toBe(1);
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 10, payStatus: 2 });
  });

  it('handles events out of order: a late "failed" never undoes a payment; a late capture after a failure counts', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id);
    const { paymentId, sessionId } = await startPaying(buyer, orderId);
    expect(
      (await sandboxWebhook(server, { type: 'payment.succeeded', sessionId, amount: 12_345 })).body.data.outcome,
    ).toBe('paid');
    expect(
      (await sandboxWebhook(server, { type: 'payment.failed', sessionId, amount: 12_345 })).body.data.outcome,
    ).toBe('stale');
    expect((await paymentRow(server.ctx, paymentId))?.status).toBe('succeeded');
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 10, payStatus: 2 });

    const other = await makeOrder(server.ctx, buyer.id);
    const second = await startPaying(buyer, other);
    expect(
      (await sandboxWebhook(server, { type: 'payment.failed', sessionId: second.sessionId, amount: 12_345 })).body.data
        .outcome,
    ).toBe('failed');
    expect(
      (await sandboxWebhook(server, { type: 'payment.succeeded', sessionId: second.sessionId, amount: 12_345 })).body
        .data.outcome,
    ).toBe('paid');
    expect(await orderRow(server.ctx, other)).toMatchObject({ status: 10, payStatus: 2 });
    expect(await paidHistoryRows(server.ctx, other)).toBe(1);
  });

  it('refunds automatically when the money arrives after the order was cancelled', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id);
    const { paymentId, redirectUrl, sessionId } = await startPaying(buyer, orderId);
    await cancelOrder(server.ctx, orderId);
    const pressed = await press(redirectUrl, 'pay');
    expect(pressed.status).toBe(303);
    const payment = await paymentRow(server.ctx, paymentId);
    expect(payment).toMatchObject({ status: 'refunded', lastError: 'order cancelled' });
    expect(payment?.refundRef).toMatch(/^re_sbx_/);
    const [gatewaySession] = await server.ctx.db
      .select()
      .from(sandboxGatewaySessions)
      .where(eq(sandboxGatewaySessions.id, sessionId));
    expect(gatewaySession).toMatchObject({ status: 'refunded', refundId: payment!.refundRef });
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 60, payStatus: 3 });
    expect((await buyer.call(`/v1/pay/PayStatus/${orderId}`)).body.data).toMatchObject({
      order_status: 60,
      pay_status: 3,
      payment_status: 'refunded',
    });
  });

  it('refunds a second captured attempt for an order another attempt already paid', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id);
    const first = await startPaying(buyer, orderId);
    const second = await startPaying(buyer, orderId);
    await press(first.redirectUrl, 'pay');
    await press(second.redirectUrl, 'pay');
    expect((await paymentRow(server.ctx, first.paymentId))?.status).toBe('succeeded');
    expect(await paymentRow(server.ctx, second.paymentId)).toMatchObject({
      status: 'refunded',
      lastError: 'order already_paid',
    });
    expect(await paidHistoryRows(server.ctx, orderId)).toBe(1);
  });

  it("answers 404 for another user's order, on paying and on polling", async () => {
    const owner = await makeBuyer(server);
    const orderId = await makeOrder(server.ctx, owner.id);
    const paying = await buyer.call('/v1/pay', { method: 'POST', body: { order_id: orderId } });
    expect(paying.status).toBe(404);
    expect(paying.body).toEqual({ code: 404, msg: 'Order not found', data: null });
    expect((await buyer.call(`/v1/pay/PayStatus/${orderId}`)).status).toBe(404);
    expect((await buyer.call('/v1/pay', { method: 'POST', body: { order_id: 2_000_000_000 } })).status).toBe(404);
    expect(await server.ctx.db.select().from(payments).where(eq(payments.orderId, orderId))).toEqual([]);
  });

  it("refuses to pay a cancelled or an already paid order, in the buyer's language", async () => {
    const cancelled = await makeOrder(server.ctx, buyer.id);
    await cancelOrder(server.ctx, cancelled);
    const en = await buyer.call('/v1/pay', { method: 'POST', body: { order_id: cancelled } });
    expect(en.status).toBe(409);
    expect(en.body.msg).toBe('This order has been cancelled and can no longer be paid');
    const zh = await buyer.call('/v1/pay', {
      method: 'POST',
      body: { order_id: cancelled },
      headers: { lang: 'zh-cn' },
    });
    expect(zh.body.msg).toBe('该订单已取消，无法支付');

    const paid = await makeOrder(server.ctx, buyer.id);
    const { redirectUrl } = await startPaying(buyer, paid);
    await press(redirectUrl, 'pay');
    const again = await buyer.call('/v1/pay', { method: 'POST', body: { order_id: paid } });
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe('This order has already been paid');
  });

  it('cannot be talked into another amount: the body cannot carry one, and a short capture is refunded', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id, 50_000);
    const tampered = await buyer.call('/v1/pay', {
      method: 'POST',
      body: { order_id: orderId, amount: 1, currency: 'JPY' },
    });
    expect(tampered.status).toBe(400);
    expect(tampered.body.msg).toContain('Unknown field');

    const { paymentId, sessionId } = await startPaying(buyer, orderId);
    expect((await paymentRow(server.ctx, paymentId))?.amountMinor).toBe(50_000);
    const short = await sandboxWebhook(server, { type: 'payment.succeeded', sessionId, amount: 1 });
    expect(short.body.data.outcome).toBe('refund_due');
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 1, payStatus: 1 });
    // Owed back (the sandbox refuses: it never captured that forged amount, so the payment stays owed and is retried).
    expect((await paymentRow(server.ctx, paymentId))?.status).toBe('refund_pending');
  });

  it('validates the request and requires a session', async () => {
    expect((await server.request('/v1/pay', { method: 'POST', body: { order_id: 1 } })).body.code).toBe(301);
    expect((await server.request('/v1/pay/PayStatus/1')).body.code).toBe(301);
    const missing = await buyer.call('/v1/pay', { method: 'POST', body: {} });
    expect(missing.body).toEqual({ code: 400, msg: 'Order ID is required', data: null });
    const orderId = await makeOrder(server.ctx, buyer.id);
    const otherProvider = await buyer.call('/v1/pay', {
      method: 'POST',
      body: { order_id: orderId, provider: 'stripe' },
    });
    expect(otherProvider.body).toEqual({ code: 400, msg: 'The payment method "stripe" is not available', data: null });
    expect((await server.request('/v1/pay/webhook/stripe', { method: 'POST', body: {} })).status).toBe(404);
  });

  it('takes webhooks without CSRF tokens, even if a browser cookie rides along', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id);
    const { sessionId } = await startPaying(buyer, orderId);
    const body = JSON.stringify({
      id: `evt_cookie_${orderId}`,
      type: 'payment.succeeded',
      created: Math.floor(Date.now() / 1000),
      data: { session_id: sessionId, reference: '0', amount: 12_345, currency: 'CNY' },
    });
    const { signSandboxPayload } = await import('../../server/domains/payments/sandbox/sandbox-signature');
    const response = await server.request('/v1/pay/webhook/sandbox', {
      method: 'POST',
      rawBody: body,
      cookies: { access_token: 'whatever' },
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'sandbox-signature': signSandboxPayload(SANDBOX_SECRET, body),
      },
    });
    expect(response.body.data).toEqual({ received: true, outcome: 'paid' });
  });

  it('answers an unknown gateway session with a localized 404 page', async () => {
    const page = await server.request('/sandbox-gateway/checkout/cs_sbx_doesnotexist000000000', {
      headers: { lang: 'zh-cn' },
    });
    expect(page.status).toBe(404);
    expect(page.text).toContain('支付会话不存在');
  });
});
