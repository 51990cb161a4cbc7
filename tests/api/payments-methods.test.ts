import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, payments } from '../../server/db/schema';
import { startFakeStripe, type FakeStripe } from '../../server/domains/payments/testing/fake-stripe';
import { makeBuyer, type Buyer } from '../support/buyers';
import { startTestServer, type TestServer } from '../support/test-server';
import { makeOrder, paymentRow } from './payments-fixtures';
import { postPageForm } from '../support/page-forms';

/**
 * Several methods at once (ADR 0141): Stripe with cards, Alipay and WeChat Pay beside the
 * sandbox (kept on by SANDBOX_PAYMENTS=on), PayPal and Alipay direct not configured.
 */
const WEBHOOK_SECRET = 'whsec_methods_test_secret';
let fake: FakeStripe;
let server: TestServer;
let buyer: Buyer;

beforeAll(async () => {
  fake = await startFakeStripe(WEBHOOK_SECRET);
  server = await startTestServer({
    STRIPE_SECRET_KEY: 'sk_test_methods',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: fake.url,
    SANDBOX_PAYMENTS: 'on',
  });
  buyer = await makeBuyer(server);
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

/** An unpaid order of the buyer, charged in `currency`, delivered to `country`. */
async function orderTo(country: string, currency: 'USD' | 'EUR' | 'CNY', totalMinor = 5_000) {
  const orderId = await makeOrder(server.ctx, buyer.id, totalMinor, currency);
  const [order] = await server.ctx.db.select().from(orders).where(eq(orders.id, orderId));
  await server.ctx.db
    .update(orders)
    .set({ address: { ...order!.address, country_code: country } })
    .where(eq(orders.id, orderId));
  return orderId;
}

function pay(body: Record<string, unknown>, lang = 'en') {
  return buyer.call('/v1/pay', { method: 'POST', body, headers: { lang } });
}

/** The pay page as the signed-in buyer sees it, and the methods it lists in order. */
async function payPage(orderId: number, locale = 'en') {
  const response = await fetch(`${server.url}/${locale}/order/pay?order_id=${orderId}`, {
    headers: { cookie: `access_token=${buyer.headers.token}` },
  });
  expect(response.status).toBe(200);
  const html = await response.text();
  const radios = [...html.matchAll(/<input type="radio" name="method"[^>]*>/g)].map((match) => match[0]);
  const listed = radios.map((radio) => /value="([a-z_]+)"/.exec(radio)?.[1]);
  const checked = radios
    .filter((radio) => radio.includes('checked'))
    .map((radio) => /value="([a-z_]+)"/.exec(radio)?.[1]);
  return { html, listed, checked };
}

function postPayForm(orderId: number, fields: Record<string, string>) {
  return postPageForm(server, `/en/order/pay?order_id=${orderId}`, buyer, fields);
}

async function paymentsOf(orderId: number) {
  return server.ctx.db.select().from(payments).where(eq(payments.orderId, orderId));
}

describe('choosing a payment method', () => {
  it('lists the configured methods on the pay page, with their names in both languages, the first one chosen', async () => {
    const orderId = await orderTo('DE', 'EUR');
    const english = await payPage(orderId);
    expect(english.listed).toEqual(['card', 'alipay', 'wechat_pay', 'sandbox']);
    expect(english.html).toContain('Choose how to pay');
    expect(english.html).toContain('Credit or debit card');
    expect(english.html).toContain('WeChat Pay');
    expect(english.html).toContain('Sandbox gateway: no real money is charged');
    expect(english.checked).toEqual(['card']);

    const chinese = await payPage(orderId, 'zh-cn');
    expect(chinese.listed).toEqual(['card', 'alipay', 'wechat_pay', 'sandbox']);
    expect(chinese.html).toContain('选择支付方式');
    expect(chinese.html).toContain('信用卡或借记卡');
    expect(chinese.html).toContain('支付宝');
    expect(chinese.html).toContain('微信支付');
    expect(chinese.html).toContain('测试支付');
  });

  it('opens a Stripe Checkout Session for the one method chosen: Alipay, WeChat Pay (web QR) or card', async () => {
    const alipayOrder = await orderTo('CN', 'CNY', 8_800);
    const alipay = await pay({ order_id: alipayOrder, method: 'alipay' });
    expect(alipay.body.code).toBe(200);
    const alipayPayment = await paymentRow(server.ctx, alipay.body.data.payment_id);
    expect(alipayPayment).toMatchObject({ provider: 'stripe', method: 'alipay', amountMinor: 8_800, currency: 'CNY' });
    const alipayCreate = fake.requests.filter((request) => request.path === '/v1/checkout/sessions').at(-1)!;
    expect(alipayCreate.form.getAll('allowed_payment_method_types[0]')).toEqual(['alipay']);
    expect(alipayCreate.form.get('allowed_payment_method_types[1]')).toBeNull();
    expect(alipayCreate.form.get('payment_method_options[wechat_pay][client]')).toBeNull();
    expect(alipayCreate.form.get('metadata[method]')).toBe('alipay');

    const wechatOrder = await orderTo('US', 'USD', 2_500);
    const wechat = await pay({ order_id: wechatOrder, method: 'wechat_pay' });
    expect(wechat.body.code).toBe(200);
    const wechatCreate = fake.requests.filter((request) => request.path === '/v1/checkout/sessions').at(-1)!;
    expect(wechatCreate.form.get('allowed_payment_method_types[0]')).toBe('wechat_pay');
    expect(wechatCreate.form.get('payment_method_options[wechat_pay][client]')).toBe('web');
    expect(await paymentRow(server.ctx, wechat.body.data.payment_id)).toMatchObject({
      provider: 'stripe',
      method: 'wechat_pay',
    });

    const cardOrder = await orderTo('GB', 'EUR');
    const card = await pay({ order_id: cardOrder });
    expect(card.body.code).toBe(200);
    // No method named: the first one offered.
    expect(await paymentRow(server.ctx, card.body.data.payment_id)).toMatchObject({
      provider: 'stripe',
      method: 'card',
    });
    expect(
      fake.requests
        .filter((request) => request.path === '/v1/checkout/sessions')
        .at(-1)!
        .form.get('allowed_payment_method_types[0]'),
    ).toBe('card');
  });

  it('pays with the sandbox beside Stripe when the shop keeps it on', async () => {
    const orderId = await orderTo('DE', 'EUR');
    const response = await pay({ order_id: orderId, method: 'sandbox' });
    expect(response.body.code).toBe(200);
    expect(response.body.data.redirect_url).toMatch(/^\/sandbox-gateway\/checkout\/cs_sbx_/);
    expect(await paymentRow(server.ctx, response.body.data.payment_id)).toMatchObject({
      provider: 'sandbox',
      method: 'sandbox',
    });
  });

  it('refuses a method the shop does not offer with a localized 400, and opens nothing', async () => {
    const orderId = await orderTo('DE', 'EUR');
    const english = await pay({ order_id: orderId, method: 'paypal' });
    expect(english.status).toBe(400);
    expect(english.body.msg).toBe('The payment method "paypal" is not available for this order');
    const chinese = await pay({ order_id: orderId, method: 'paypal' }, 'zh-cn');
    expect(chinese.status).toBe(400);
    expect(chinese.body.msg).toBe('该订单不支持支付方式“paypal”');
    // A provider that is configured but does not serve the method.
    expect((await pay({ order_id: orderId, method: 'sandbox', provider: 'stripe' })).status).toBe(400);
    // Not a method at all: the request's shape is wrong.
    const unknown = await pay({ order_id: orderId, method: 'bitcoin' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toMatch(/Payment method/);
    expect(await paymentsOf(orderId)).toEqual([]);
  });

  it('posts the chosen method from the pay page form and sends the browser to that gateway', async () => {
    const orderId = await orderTo('US', 'USD');
    const chosen = await postPayForm(orderId, { method: 'wechat_pay' });
    expect([302, 303]).toContain(chosen.status);
    expect(chosen.headers.get('location')).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    const [payment] = await paymentsOf(orderId);
    expect(payment).toMatchObject({ provider: 'stripe', method: 'wechat_pay' });

    // A tampered form opens no payment.
    const otherOrder = await orderTo('US', 'USD');
    const tampered = await postPayForm(otherOrder, { method: 'bitcoin' });
    expect(tampered.status).toBe(200);
    expect(await paymentsOf(otherOrder)).toEqual([]);
  });
});

describe('with no payment method at all', () => {
  let bare: TestServer;
  let bareBuyer: Buyer;
  beforeAll(async () => {
    // No provider has keys and the sandbox is turned off: a misconfigured shop.
    bare = await startTestServer({ SANDBOX_PAYMENTS: 'off' });
    bareBuyer = await makeBuyer(bare);
  });
  afterAll(async () => {
    await bare?.close();
  });

  it('says so on the pay page instead of a Pay button, and refuses the API call in the buyer’s language', async () => {
    const orderId = await makeOrder(bare.ctx, bareBuyer.id, 5_000, 'CNY');
    const response = await fetch(`${bare.url}/en/order/pay?order_id=${orderId}`, {
      headers: { cookie: `access_token=${bareBuyer.headers.token}` },
    });
    const html = await response.text();
    expect(html).toContain('No payment method is available for this order right now. Please contact us.');
    expect(html).not.toContain('data-testid="pay-button"');

    const english = await bareBuyer.call('/v1/pay', { method: 'POST', body: { order_id: orderId } });
    expect(english.status).toBe(400);
    expect(english.body.msg).toBe('No payment method is available for this order. Please contact the shop');
    const chinese = await bareBuyer.call('/v1/pay', {
      method: 'POST',
      body: { order_id: orderId },
      headers: { lang: 'zh-cn' },
    });
    expect(chinese.body.msg).toBe('该订单暂无可用的支付方式，请联系商家');
  });
});
