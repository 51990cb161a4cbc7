import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchangeRates, orders, refunds } from '../../server/db/schema';
import { bumpContentVersion } from '../../server/shared/content-version';
import { PERMISSIONS } from '../../server/domains/staff/permissions';
import { startFakePayPal, type FakePayPal } from '../../server/domains/payments/testing/fake-paypal';
import { startFakeStripe, type FakeStripe } from '../../server/domains/payments/testing/fake-stripe';
import { makeBuyer, type Buyer } from '../support/buyers';
import { createSignedInStaff, type TestStaff } from '../support/staff';
import { startTestServer, type TestServer } from '../support/test-server';
import { makeOrder, orderRow, paymentRow } from './payments-fixtures';

/**
 * Charging in the buyer's display currency at the rate frozen on the order (ADR 0144), end to
 * end through the local fakes of Stripe and PayPal: what each gateway is asked for, what the
 * payment row keeps, what refunds give back, and what a stale rate changes.
 */
const STRIPE_SECRET = 'whsec_currency_tests';
const paypalKeys = { clientId: 'paypal-currency', clientSecret: 'paypal-currency-secret', webhookId: 'WH-CUR-0001' };
let stripe: FakeStripe;
let paypal: FakePayPal;
let server: TestServer;
let buyer: Buyer;
let owner: TestStaff;

beforeAll(async () => {
  [stripe, paypal] = await Promise.all([startFakeStripe(STRIPE_SECRET), startFakePayPal(paypalKeys)]);
  server = await startTestServer({
    STRIPE_SECRET_KEY: 'sk_test_currency',
    STRIPE_WEBHOOK_SECRET: STRIPE_SECRET,
    STRIPE_API_BASE: stripe.url,
    PAYPAL_CLIENT_ID: paypalKeys.clientId,
    PAYPAL_CLIENT_SECRET: paypalKeys.clientSecret,
    PAYPAL_WEBHOOK_ID: paypalKeys.webhookId,
    PAYPAL_API_BASE: paypal.url,
  });
  buyer = await makeBuyer(server);
  owner = await createSignedInStaff(server, { permissions: PERMISSIONS, refundLimitMinor: null });
});
afterAll(async () => {
  await server?.close();
  await Promise.all([stripe?.close(), paypal?.close()]);
});

/** An unpaid CNY order shown to the buyer in `display` at `rateMicros`, as checkout froze it. */
async function shownIn(
  display: string,
  rateMicros: number,
  parts: { goods: number; shipping: number; displayTotal: number },
): Promise<number> {
  const orderId = await makeOrder(server.ctx, buyer.id, parts.goods + parts.shipping, 'CNY');
  await server.ctx.db
    .update(orders)
    .set({
      goodsAmountMinor: parts.goods,
      shippingFeeMinor: parts.shipping,
      displayCurrency: display,
      displayRateMicros: rateMicros,
      displayTotalMinor: parts.displayTotal,
    })
    .where(eq(orders.id, orderId));
  return orderId;
}

async function pay(orderId: number, method: string) {
  const response = await buyer.call('/v1/pay', { method: 'POST', body: { order_id: orderId, method } });
  expect(response.body.code, response.body.msg).toBe(200);
  const paymentId = response.body.data.payment_id as number;
  return { paymentId, providerRef: (await paymentRow(server.ctx, paymentId))!.providerRef! };
}

function deliverStripe(webhook: { body: string; signature: string }) {
  return server.request('/v1/pay/webhook/stripe', {
    method: 'POST',
    rawBody: webhook.body,
    headers: { lang: 'en', 'content-type': 'application/json; charset=utf-8', 'stripe-signature': webhook.signature },
  });
}

async function refund(orderId: number, amountMinor: number, key: string): Promise<number> {
  const answer = await owner.request(`/v1/admin/orders/${orderId}/refunds`, {
    method: 'POST',
    body: { amount_minor: amountMinor, reason: 'Returned', idempotency_key: key },
  });
  expect(answer.status, answer.body.msg).toBe(200);
  const id = answer.body.data.id as number;
  await expect
    .poll(async () => (await server.ctx.db.select().from(refunds).where(eq(refunds.id, id)))[0]?.status, {
      timeout: 15_000,
    })
    .toBe('succeeded');
  return id;
}

async function payPage(orderId: number): Promise<string> {
  const page = await fetch(`${server.url}/en/order/pay?order_id=${orderId}`, {
    headers: { cookie: `access_token=${buyer.headers.token}` },
  });
  expect(page.status).toBe(200);
  return page.text();
}

/** Sets the JPY rate's time back `hours` (and retires what processes keep), as if nobody had updated it. */
async function ageJpyRate(hours: number): Promise<void> {
  await server.ctx.db
    .update(exchangeRates)
    .set({ setAt: new Date(Date.now() - hours * 3_600_000) })
    .where(eq(exchangeRates.currency, 'JPY'));
  await bumpContentVersion(server.ctx);
}

describe('charging in the buyer’s currency', () => {
  it('charges a CNY 1,000.00 order shown in JPY at 21.4567 exactly ¥21,457 by card, and refunds it in yen to the last yen', async () => {
    // CNY 1,000.00 x 21.4567 = JPY 21,456.70, shown and charged as ¥21,457.
    const orderId = await shownIn('JPY', 21_456_700, { goods: 95_000, shipping: 5_000, displayTotal: 21_457 });
    const html = await payPage(orderId);
    expect(html).toContain('Charged in JPY: ¥21457');
    expect(html).toContain('Pay ¥21457');

    const { paymentId, providerRef } = await pay(orderId, 'card');
    expect(stripe.sessions.get(providerRef)).toMatchObject({ amount_total: 21_457, currency: 'jpy' });
    expect(await paymentRow(server.ctx, paymentId)).toMatchObject({
      amountMinor: 100_000,
      currency: 'CNY',
      chargedAmountMinor: 21_457,
      chargedCurrency: 'JPY',
    });
    expect((await deliverStripe(stripe.webhook('checkout.session.completed', providerRef))).body.data.outcome).toBe(
      'paid',
    );
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 10, payStatus: 2 });

    // Thirds of CNY 1,000.00: 333.33 is ¥7,152.17 (7,152) twice; the last takes the 7,153 left.
    await refund(orderId, 33_333, `jpy-third-a-${orderId}`);
    await refund(orderId, 33_333, `jpy-third-b-${orderId}`);
    await refund(orderId, 33_334, `jpy-third-c-${orderId}`);
    const intent = `pi_test_${providerRef}`;
    expect(stripe.refunds.filter((made) => made.payment_intent === intent).map((made) => made.amount)).toEqual([
      '7152',
      '7152',
      '7153',
    ]);
    const rows = await server.ctx.db.select().from(refunds).where(eq(refunds.paymentId, paymentId));
    expect(rows.map((row) => [row.amountMinor, row.currency, row.chargedAmountMinor, row.chargedCurrency])).toEqual([
      [33_333, 'CNY', 7_152, 'JPY'],
      [33_333, 'CNY', 7_152, 'JPY'],
      [33_334, 'CNY', 7_153, 'JPY'],
    ]);
    expect((await paymentRow(server.ctx, paymentId))?.status).toBe('refunded');
  });

  it('charges a CNY order shown in USD through PayPal in dollars, with a breakdown that adds up, and refunds part in dollars', async () => {
    // CNY 280.00 + 20.00 at 0.1389: total $41.67; shipping 277.8 -> $2.78; items what is left, $38.89.
    const orderId = await shownIn('USD', 138_900, { goods: 28_000, shipping: 2_000, displayTotal: 4_167 });
    const { paymentId, providerRef } = await pay(orderId, 'paypal');
    expect(paypal.orders.get(providerRef)!.purchaseUnit.amount).toEqual({
      currency_code: 'USD',
      value: '41.67',
      breakdown: {
        item_total: { currency_code: 'USD', value: '38.89' },
        shipping: { currency_code: 'USD', value: '2.78' },
      },
    });
    const approved = await fetch(`${paypal.url}/checkoutnow/approve`, {
      method: 'POST',
      body: new URLSearchParams({ token: providerRef }),
      redirect: 'manual',
    });
    await fetch(approved.headers.get('location')!, { headers: { cookie: `access_token=${buyer.headers.token}` } });
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 10, payStatus: 2 });
    expect(await paymentRow(server.ctx, paymentId)).toMatchObject({
      chargedAmountMinor: 4_167,
      chargedCurrency: 'USD',
    });

    // CNY 100.00 back is $13.89.
    await refund(orderId, 10_000, `usd-part-${orderId}`);
    const captureId = paypal.orders.get(providerRef)!.captures[0]!.id;
    expect(paypal.refunds.filter((made) => made.captureId === captureId).map((made) => made.amount)).toEqual([
      { currency_code: 'USD', value: '13.89' },
    ]);
  });

  it('says which currency each method charges where it cannot charge the buyer’s: won by card, yuan by Alipay and WeChat Pay', async () => {
    // CNY 100.00 at 196.85 won: ₩19,685.
    const orderId = await shownIn('KRW', 196_850_000, { goods: 9_000, shipping: 1_000, displayTotal: 19_685 });
    const html = await payPage(orderId);
    expect(html).not.toContain('data-testid="pay-method-paypal"');
    expect(html).toContain('Charged in KRW: ₩19685');
    expect(html).toContain('Charged in CNY: CN¥100.00 (about ₩19685)');
    expect(html).toContain('Continue to payment');

    const zh = await fetch(`${server.url}/zh-cn/order/pay?order_id=${orderId}`, {
      headers: { cookie: `access_token=${buyer.headers.token}` },
    });
    expect(await zh.text()).toContain('以 CNY 扣款：100.00元（约 19685韩元）');

    const byCard = await pay(orderId, 'card');
    expect(stripe.sessions.get(byCard.providerRef)).toMatchObject({ amount_total: 19_685, currency: 'krw' });
    const byAlipay = await pay(orderId, 'alipay');
    expect(stripe.sessions.get(byAlipay.providerRef)).toMatchObject({ amount_total: 10_000, currency: 'cny' });
    expect(await paymentRow(server.ctx, byAlipay.paymentId)).toMatchObject({
      chargedAmountMinor: 10_000,
      chargedCurrency: 'CNY',
    });
  });

  it('charges in the settlement currency while the display currency’s rate is stale, and says so', async () => {
    const orderId = await shownIn('JPY', 21_370_000, { goods: 9_000, shipping: 1_000, displayTotal: 2_137 });
    await ageJpyRate(73);
    try {
      const html = await payPage(orderId);
      expect(html).toContain('Charged in CNY: CN¥100.00 (about ¥2137)');
      expect(html).toContain('Pay CN¥100.00');
      const { paymentId, providerRef } = await pay(orderId, 'card');
      expect(stripe.sessions.get(providerRef)).toMatchObject({ amount_total: 10_000, currency: 'cny' });
      expect(await paymentRow(server.ctx, paymentId)).toMatchObject({
        chargedAmountMinor: 10_000,
        chargedCurrency: 'CNY',
      });
    } finally {
      await ageJpyRate(0);
    }
    const fresh = await pay(orderId, 'card');
    expect(stripe.sessions.get(fresh.providerRef)).toMatchObject({ amount_total: 2_137, currency: 'jpy' });
  });

  it('refuses a capture in the right currency but another amount, and owes the money back', async () => {
    const orderId = await shownIn('JPY', 21_370_000, { goods: 9_000, shipping: 1_000, displayTotal: 2_137 });
    const { paymentId, providerRef } = await pay(orderId, 'card');
    // ¥21 (the yen figure read as if it had decimals) is not what was asked for.
    const short = stripe.webhook('checkout.session.completed', providerRef, { secret: STRIPE_SECRET, amountTotal: 21 });
    expect((await deliverStripe(short)).body.data.outcome).toBe('refund_due');
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 1, payStatus: 1 });
    expect((await paymentRow(server.ctx, paymentId))?.status).toBe('refunded');
    // Owed back whole: no amount, so Stripe refunds what it really charged, whatever the shop asked for.
    expect(stripe.refunds.at(-1)).toMatchObject({ payment_intent: `pi_test_${providerRef}`, amount: null });
  });
});
