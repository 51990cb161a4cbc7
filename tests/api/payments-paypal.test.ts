import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, paymentEvents, refunds } from '../../server/db/schema';
import { reconcilePayments } from '../../server/domains/payments/payment-reconciliation';
import { PERMISSIONS } from '../../server/domains/staff/permissions';
import {
  startFakePayPal,
  type FakePayPal,
  type FakePayPalWebhook,
} from '../../server/domains/payments/testing/fake-paypal';
import { makeBuyer, type Buyer } from '../support/buyers';
import { createSignedInStaff, type TestStaff } from '../support/staff';
import { startTestServer, type TestServer } from '../support/test-server';
import { cancelOrder, makeOrder, orderRow, paidHistoryRows, paymentRow } from './payments-fixtures';

/**
 * PayPal Orders v2 through the shop's thin client against a local fake PayPal (ADR 0142): the
 * buyer approves on the fake's approval page, comes back to the result page, and the shop
 * captures; webhooks are signed by the fake with a key whose certificate it serves.
 */
const credentials = { clientId: 'paypal-api-client', clientSecret: 'paypal-api-secret', webhookId: 'WH-API-0001' };
let fake: FakePayPal;
let server: TestServer;
let buyer: Buyer;
let owner: TestStaff;

beforeAll(async () => {
  fake = await startFakePayPal(credentials);
  server = await startTestServer({
    PAYPAL_CLIENT_ID: credentials.clientId,
    PAYPAL_CLIENT_SECRET: credentials.clientSecret,
    PAYPAL_WEBHOOK_ID: credentials.webhookId,
    PAYPAL_API_BASE: fake.url,
  });
  buyer = await makeBuyer(server);
  owner = await createSignedInStaff(server, { permissions: PERMISSIONS, refundLimitMinor: null });
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

/** An unpaid order whose total is made of these parts (goods + shipping + duties - discount). */
async function orderOf(
  currency: string,
  parts: { goods: number; shipping: number; discount?: number; duties?: number },
): Promise<number> {
  const total = parts.goods + parts.shipping + (parts.duties ?? 0) - (parts.discount ?? 0);
  const orderId = await makeOrder(server.ctx, buyer.id, total, currency);
  await server.ctx.db
    .update(orders)
    .set({
      goodsAmountMinor: parts.goods,
      shippingFeeMinor: parts.shipping,
      discountMinor: parts.discount ?? 0,
      dutiesMinor: parts.duties ?? 0,
    })
    .where(eq(orders.id, orderId));
  return orderId;
}

async function startPaying(orderId: number) {
  const response = await buyer.call('/v1/pay', { method: 'POST', body: { order_id: orderId, method: 'paypal' } });
  expect(response.body.code, response.body.msg).toBe(200);
  const paymentId = response.body.data.payment_id as number;
  const providerRef = (await paymentRow(server.ctx, paymentId))!.providerRef!;
  return { paymentId, providerRef, redirectUrl: response.body.data.redirect_url as string };
}

/** The buyer presses a button on PayPal's approval page; answers where PayPal sends them back. */
async function pressAtPayPal(button: 'approve' | 'cancel', providerRef: string): Promise<string> {
  const page = await fetch(`${fake.url}/checkoutnow?token=${providerRef}`);
  expect(page.status).toBe(200);
  const answer = await fetch(`${fake.url}/checkoutnow/${button}`, {
    method: 'POST',
    body: new URLSearchParams({ token: providerRef }),
    redirect: 'manual',
  });
  expect(answer.status).toBe(303);
  return answer.headers.get('location')!;
}

/** The buyer's browser opens the shop's result page PayPal sent them back to. */
async function comeBack(location: string) {
  const page = await fetch(location, { headers: { cookie: `access_token=${buyer.headers.token}` } });
  expect(page.status).toBe(200);
  return page.text();
}

function deliver(webhook: Pick<FakePayPalWebhook, 'body' | 'headers'>) {
  return server.request('/v1/pay/webhook/paypal', {
    method: 'POST',
    rawBody: webhook.body,
    headers: { lang: 'en', ...webhook.headers },
  });
}

async function eventsOf(paymentId: number) {
  return server.ctx.db
    .select({ type: paymentEvents.type, outcome: paymentEvents.outcome })
    .from(paymentEvents)
    .where(eq(paymentEvents.paymentId, paymentId))
    .orderBy(paymentEvents.id);
}

describe('paypal payments (thin client against a local fake PayPal)', () => {
  it('creates the order with a breakdown that adds up, captures on the buyer’s return, and takes the capture webhook once', async () => {
    const orderId = await orderOf('USD', { goods: 3_500, shipping: 1_000, discount: 300 });
    const { paymentId, providerRef, redirectUrl } = await startPaying(orderId);
    expect(redirectUrl).toBe(`${fake.url}/checkoutnow?token=${providerRef}`);
    expect(fake.orders.get(providerRef)!.purchaseUnit).toEqual({
      reference_id: `order-${orderId}`,
      custom_id: String(paymentId),
      invoice_id: `${(await orderRow(server.ctx, orderId))!.orderNo}-${paymentId}`,
      description: (await orderRow(server.ctx, orderId))!.orderNo,
      amount: {
        currency_code: 'USD',
        value: '42.00',
        breakdown: {
          item_total: { currency_code: 'USD', value: '35.00' },
          shipping: { currency_code: 'USD', value: '10.00' },
          discount: { currency_code: 'USD', value: '3.00' },
        },
      },
    });
    expect(fake.orders.get(providerRef)!.experience).toMatchObject({
      locale: 'en-US',
      return_url: `${server.url}/en/result/success?order_id=${orderId}`,
      cancel_url: `${server.url}/en/result/fail?order_id=${orderId}`,
    });

    const back = await pressAtPayPal('approve', providerRef);
    expect(back).toBe(`${server.url}/en/result/success?order_id=${orderId}&token=${providerRef}&PayerID=FAKEPAYER01`);
    await comeBack(back);
    const capture = fake.orders.get(providerRef)!.captures;
    expect(capture).toHaveLength(1);
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 10, payStatus: 2 });
    expect(await paymentRow(server.ctx, paymentId)).toMatchObject({ status: 'succeeded', chargeRef: capture[0]!.id });

    // PayPal's own word on the capture comes too: recorded, changes nothing; its retry is a duplicate.
    const completed = fake.webhook('PAYMENT.CAPTURE.COMPLETED', providerRef);
    expect((await deliver(completed)).body).toEqual({
      code: 200,
      msg: 'ok',
      data: { received: true, outcome: 'stale' },
    });
    expect((await deliver(completed)).body.data.outcome).toBe('duplicate');
    // The buyer reloads the page: PayPal is asked again and captures nothing more.
    await comeBack(back);
    expect(fake.orders.get(providerRef)!.captures).toHaveLength(1);
    expect(await paidHistoryRows(server.ctx, orderId)).toBe(1);
  });

  it('sends duties as tax_total and JPY without decimals', async () => {
    const euro = await orderOf('EUR', { goods: 14_000, shipping: 1_500, discount: 1_000, duties: 3_360 });
    const { providerRef } = await startPaying(euro);
    expect(fake.orders.get(providerRef)!.purchaseUnit.amount).toEqual({
      currency_code: 'EUR',
      value: '178.60',
      breakdown: {
        item_total: { currency_code: 'EUR', value: '140.00' },
        shipping: { currency_code: 'EUR', value: '15.00' },
        discount: { currency_code: 'EUR', value: '10.00' },
        tax_total: { currency_code: 'EUR', value: '33.60' },
      },
    });
    const yen = await orderOf('JPY', { goods: 4_980, shipping: 1_200 });
    const { providerRef: yenRef } = await startPaying(yen);
    expect(fake.orders.get(yenRef)!.purchaseUnit.amount).toEqual({
      currency_code: 'JPY',
      value: '6180',
      breakdown: {
        item_total: { currency_code: 'JPY', value: '4980' },
        shipping: { currency_code: 'JPY', value: '1200' },
      },
    });
  });

  it('does not offer PayPal for a CNY order (PayPal takes CNY only inside China)', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id, 8_800, 'CNY');
    const ordersAtPayPal = fake.orders.size;
    const response = await buyer.call('/v1/pay', { method: 'POST', body: { order_id: orderId, method: 'paypal' } });
    expect(response.status).toBe(400);
    expect(response.body.msg).toBe('The payment method "paypal" is not available for this order');
    expect(fake.orders.size).toBe(ordersAtPayPal);
  });

  it('captures an approved order whose buyer never came back when reconciliation asks PayPal', async () => {
    const orderId = await orderOf('USD', { goods: 2_800, shipping: 400 });
    const { paymentId, providerRef } = await startPaying(orderId);
    await pressAtPayPal('approve', providerRef); // the buyer closes the tab instead of following the redirect
    const later = new Date(Date.now() + 11 * 60_000);
    const pass = await reconcilePayments(server.ctx, { now: later });
    expect(pass.asked).toContainEqual({ paymentId, outcome: 'paid' });
    expect(fake.orders.get(providerRef)!.captures).toEqual([
      expect.objectContaining({ amount: { currency_code: 'USD', value: '32.00' } }),
    ]);
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 10, payStatus: 2 });
  });

  it('refuses a webhook not signed by PayPal’s certificate for our webhook id (400) and records nothing', async () => {
    const orderId = await orderOf('USD', { goods: 2_000, shipping: 500 });
    const { paymentId, providerRef } = await startPaying(orderId);
    fake.approve(providerRef);
    const stranger = fake.webhook('PAYMENT.CAPTURE.COMPLETED', providerRef, { signedBy: 'stranger' });
    const response = await deliver(stranger);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 400, msg: 'Invalid webhook signature', data: null });
    const otherHook = fake.webhook('PAYMENT.CAPTURE.COMPLETED', providerRef, { webhookId: 'WH-SOMEONE-ELSE' });
    expect((await deliver(otherHook)).status).toBe(400);
    const elsewhere = fake.webhook('PAYMENT.CAPTURE.COMPLETED', providerRef, {
      certUrl: 'https://certs.attacker.example/v1/notifications/certs/CERT-1',
    });
    expect((await deliver(elsewhere)).status).toBe(400);
    const good = fake.webhook('PAYMENT.CAPTURE.COMPLETED', providerRef);
    expect((await deliver({ ...good, body: good.body.replace('"25.00"', '"0.01"') })).status).toBe(400);
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 1, payStatus: 1 });
    expect((await paymentRow(server.ctx, paymentId))?.status).toBe('pending');
    const recorded = await server.ctx.db.select().from(paymentEvents).where(eq(paymentEvents.provider, 'paypal'));
    expect(recorded.map((row) => row.eventId)).not.toContain(good.eventId);
    expect(recorded.map((row) => row.eventId)).not.toContain(stranger.eventId);
  });

  it('takes the capture webhook arriving before the buyer is back, and a late denial cannot undo it', async () => {
    const orderId = await orderOf('GBP', { goods: 5_000, shipping: 700 });
    const { paymentId, providerRef } = await startPaying(orderId);
    const back = await pressAtPayPal('approve', providerRef);
    // The shop's capture answer was lost; PayPal's webhook says what happened.
    expect((await deliver(fake.webhook('PAYMENT.CAPTURE.COMPLETED', providerRef))).body.data.outcome).toBe('paid');
    await comeBack(back);
    expect((await deliver(fake.webhook('PAYMENT.CAPTURE.DENIED', providerRef))).body.data.outcome).toBe('stale');
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 10, payStatus: 2 });
    expect(await paymentRow(server.ctx, paymentId)).toMatchObject({ status: 'succeeded' });
    expect(fake.orders.get(providerRef)!.captures).toHaveLength(1);
    expect(await paidHistoryRows(server.ctx, orderId)).toBe(1);
  });

  it('keeps the order payable when the buyer cancels at PayPal or their funding is declined', async () => {
    const orderId = await orderOf('USD', { goods: 1_500, shipping: 500 });
    const first = await startPaying(orderId);
    const cancelled = await pressAtPayPal('cancel', first.providerRef);
    expect(cancelled).toBe(`${server.url}/en/result/fail?order_id=${orderId}&token=${first.providerRef}`);
    await comeBack(cancelled);
    expect((await paymentRow(server.ctx, first.paymentId))?.status).toBe('pending');

    const second = await startPaying(orderId);
    const back = await pressAtPayPal('approve', second.providerRef);
    fake.declineNextCapture();
    await comeBack(back);
    expect((await paymentRow(server.ctx, second.paymentId))?.status).toBe('failed');
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 1, payStatus: 1 });
    expect((await startPaying(orderId)).paymentId).toBeGreaterThan(second.paymentId);
  });

  it('refunds the capture when the order was cancelled before the buyer came back', async () => {
    const orderId = await orderOf('USD', { goods: 6_000, shipping: 600 });
    const { paymentId, providerRef } = await startPaying(orderId);
    const back = await pressAtPayPal('approve', providerRef);
    await cancelOrder(server.ctx, orderId);
    await comeBack(back);
    const capture = fake.orders.get(providerRef)!.captures[0]!;
    const refund = fake.refunds.find((made) => made.captureId === capture.id);
    expect(refund).toMatchObject({
      amount: { currency_code: 'USD', value: '66.00' },
      requestId: `refund-payment-${paymentId}`,
    });
    expect(await paymentRow(server.ctx, paymentId)).toMatchObject({ status: 'refunded', refundRef: refund!.id });
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 60, payStatus: 3 });
    expect(await eventsOf(paymentId)).toEqual([{ type: 'payment.succeeded', outcome: 'refund_due' }]);
  });

  it('does not take a capture of another amount than the order’s: what was captured goes back', async () => {
    const orderId = await orderOf('USD', { goods: 4_000, shipping: 200 });
    const { paymentId, providerRef } = await startPaying(orderId);
    const back = await pressAtPayPal('approve', providerRef);
    fake.captureNextWith({ currency_code: 'USD', value: '1.00' });
    await comeBack(back);
    const capture = fake.orders.get(providerRef)!.captures[0]!;
    expect(fake.refunds.filter((made) => made.captureId === capture.id)).toEqual([
      expect.objectContaining({
        amount: { currency_code: 'USD', value: '1.00' },
        requestId: `refund-payment-${paymentId}`,
      }),
    ]);
    expect((await paymentRow(server.ctx, paymentId))?.status).toBe('refunded');
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 1, payStatus: 1 });
  });

  it('refunds part and then the rest through the console; the same refund key asked again refunds once', async () => {
    const orderId = await orderOf('EUR', { goods: 9_000, shipping: 1_000 });
    const { paymentId, providerRef } = await startPaying(orderId);
    await comeBack(await pressAtPayPal('approve', providerRef));
    expect((await paymentRow(server.ctx, paymentId))?.status).toBe('succeeded');
    const captureId = fake.orders.get(providerRef)!.captures[0]!.id;

    const refund = (amountMinor: number, idempotencyKey: string) =>
      owner.request(`/v1/admin/orders/${orderId}/refunds`, {
        method: 'POST',
        body: { amount_minor: amountMinor, reason: 'Damaged in transit', idempotency_key: idempotencyKey },
      });
    const settled = async (id: number) => {
      await expect
        .poll(async () => (await server.ctx.db.select().from(refunds).where(eq(refunds.id, id)))[0]?.status, {
          timeout: 10_000,
        })
        .toBe('succeeded');
    };
    const partKey = `paypal-part-${paymentId}`;
    const part = await refund(2_550, partKey);
    expect(part.status, part.body.msg).toBe(200);
    await settled(part.body.data.id);
    expect((await refund(2_550, partKey)).body.data.id).toBe(part.body.data.id);
    const rest = await refund(7_450, `paypal-rest-${paymentId}`);
    await settled(rest.body.data.id);

    expect(fake.refunds.filter((made) => made.captureId === captureId)).toEqual([
      expect.objectContaining({ amount: { currency_code: 'EUR', value: '25.50' }, requestId: partKey }),
      expect.objectContaining({
        amount: { currency_code: 'EUR', value: '74.50' },
        requestId: `paypal-rest-${paymentId}`,
      }),
    ]);
    const [part1, rest1] = await server.ctx.db.select().from(refunds).where(eq(refunds.paymentId, paymentId));
    expect([part1?.status, rest1?.status]).toEqual(['succeeded', 'succeeded']);
  });
});
