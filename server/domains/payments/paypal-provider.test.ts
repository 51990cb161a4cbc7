import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context';
import { WebhookVerificationError } from './payment-provider';
import { createPayPalProvider } from './paypal-provider';
import { minorUnitsOf, paypalAmount } from './paypal/paypal-amount';
import { PayPalApiError } from './paypal/paypal-client';
import { createPayPalWebhookVerifier } from './paypal/paypal-webhook';
import { startFakePayPal, type FakePayPal } from './testing/fake-paypal';

const credentials = { clientId: 'paypal-unit-client', clientSecret: 'paypal-unit-secret', webhookId: 'WH-UNIT-0001' };
const ctx = {} as AppContext;
let fake: FakePayPal;

beforeAll(async () => {
  fake = await startFakePayPal(credentials);
});
afterAll(() => fake.close());

function provider() {
  return createPayPalProvider({ ...credentials, environment: 'sandbox', apiBase: fake.url });
}

const checkout = {
  paymentId: 7,
  orderId: 3,
  method: 'paypal' as const,
  amountMinor: 1280,
  currency: 'JPY' as const,
  country: 'JP',
  locale: 'zh-cn' as const,
  description: 'T2026112700003',
  successUrl: 'https://shop.test/zh-cn/result/success?order_id=3',
  failUrl: 'https://shop.test/zh-cn/result/fail?order_id=3',
};

function lookup(paypal: ReturnType<typeof provider>, providerRef: string) {
  return paypal.lookupPayment(ctx, {
    paymentId: 7,
    providerRef,
    method: 'paypal',
    amountMinor: 1280,
    currency: 'JPY',
  });
}

function headersOf(webhook: { headers: Record<string, string> }) {
  return webhook.headers as Record<string, string | string[] | undefined>;
}

describe('paypal amounts from integer minor units', () => {
  it('writes a breakdown that adds up to the value, with duties as tax_total', () => {
    expect(
      paypalAmount(
        { amountMinor: 4_200, currency: 'USD' },
        { goodsMinor: 4_000, shippingMinor: 500, discountMinor: 300, dutiesMinor: 0 },
      ),
    ).toEqual({
      currency_code: 'USD',
      value: '42.00',
      breakdown: {
        item_total: { currency_code: 'USD', value: '40.00' },
        shipping: { currency_code: 'USD', value: '5.00' },
        discount: { currency_code: 'USD', value: '3.00' },
      },
    });
    expect(
      paypalAmount(
        { amountMinor: 17_860, currency: 'EUR' },
        { goodsMinor: 14_000, shippingMinor: 1_500, discountMinor: 1_000, dutiesMinor: 3_360 },
      ),
    ).toEqual({
      currency_code: 'EUR',
      value: '178.60',
      breakdown: {
        item_total: { currency_code: 'EUR', value: '140.00' },
        shipping: { currency_code: 'EUR', value: '15.00' },
        discount: { currency_code: 'EUR', value: '10.00' },
        tax_total: { currency_code: 'EUR', value: '33.60' },
      },
    });
  });

  it('writes JPY without decimals', () => {
    expect(
      paypalAmount(
        { amountMinor: 1_280, currency: 'JPY' },
        { goodsMinor: 1_000, shippingMinor: 280, discountMinor: 0, dutiesMinor: 0 },
      ),
    ).toEqual({
      currency_code: 'JPY',
      value: '1280',
      breakdown: {
        item_total: { currency_code: 'JPY', value: '1000' },
        shipping: { currency_code: 'JPY', value: '280' },
      },
    });
  });

  it('lets item_total take a rounding difference, and sends the total alone when the parts cannot describe it', () => {
    // 33.33 + 33.33 converted separately, 66.67 converted as a whole: the items carry the cent.
    expect(
      paypalAmount(
        { amountMinor: 6_667, currency: 'USD' },
        { goodsMinor: 3_333, shippingMinor: 3_333, discountMinor: 0, dutiesMinor: 0 },
      ).breakdown,
    ).toEqual({
      item_total: { currency_code: 'USD', value: '33.34' },
      shipping: { currency_code: 'USD', value: '33.33' },
    });
    expect(
      paypalAmount(
        { amountMinor: 1_000, currency: 'USD' },
        { goodsMinor: 0, shippingMinor: 2_000, discountMinor: 0, dutiesMinor: 0 },
      ),
    ).toEqual({ currency_code: 'USD', value: '10.00' });
  });

  it('reads PayPal amounts back into minor units, refusing what does not fit the currency', () => {
    expect(minorUnitsOf({ currency_code: 'USD', value: '12.50' })).toEqual({ amountMinor: 1_250, currency: 'USD' });
    expect(minorUnitsOf({ currency_code: 'USD', value: '12.5' })).toEqual({ amountMinor: 1_250, currency: 'USD' });
    expect(minorUnitsOf({ currency_code: 'EUR', value: '0.07' })).toEqual({ amountMinor: 7, currency: 'EUR' });
    expect(minorUnitsOf({ currency_code: 'JPY', value: '1280' })).toEqual({ amountMinor: 1_280, currency: 'JPY' });
    expect(minorUnitsOf({ currency_code: 'USD', value: '12.345' })).toBeUndefined();
    expect(minorUnitsOf({ currency_code: 'JPY', value: '12.5' })).toBeUndefined();
    expect(minorUnitsOf({ currency_code: 'USD', value: '1,000.00' })).toBeUndefined();
    expect(minorUnitsOf({ currency_code: 'HUF', value: '100' })).toBeUndefined();
  });
});

describe('paypal provider (against a local fake of the API)', () => {
  it('offers PayPal for the currencies PayPal charges abroad, not CNY', () => {
    const paypal = provider();
    expect(paypal.methodsFor({ currency: 'USD', country: 'US' })).toEqual(['paypal']);
    expect(paypal.methodsFor({ currency: 'JPY', country: 'JP' })).toEqual(['paypal']);
    expect(paypal.methodsFor({ currency: 'CNY', country: 'CN' })).toEqual([]);
  });

  it('creates an Orders v2 order with our references and sends the buyer to its approval page', async () => {
    const paypal = provider();
    const session = await paypal.createCheckout(ctx, checkout);
    expect(session.redirectUrl).toBe(`${fake.url}/checkoutnow?token=${session.providerRef}`);
    expect(fake.orders.get(session.providerRef)).toMatchObject({
      status: 'PAYER_ACTION_REQUIRED',
      purchaseUnit: {
        reference_id: 'order-3',
        custom_id: '7',
        invoice_id: 'T2026112700003-7',
        description: 'T2026112700003',
        amount: { currency_code: 'JPY', value: '1280' },
      },
      experience: {
        locale: 'zh-CN',
        return_url: 'https://shop.test/zh-cn/result/success?order_id=3',
        cancel_url: 'https://shop.test/zh-cn/result/fail?order_id=3',
      },
    });
    const created = fake.requests.filter((request) => request.path === '/v2/checkout/orders').at(-1)!;
    expect(created.requestId).toBe('checkout-payment-7');
    expect(created.authorization).toMatch(/^Bearer A21AA-fake-/);
  });

  it('asks for one access token and keeps it for the calls that follow', async () => {
    const paypal = provider();
    const before = fake.tokensIssued();
    const first = await paypal.createCheckout(ctx, { ...checkout, paymentId: 8 });
    await lookup(paypal, first.providerRef);
    await paypal.createCheckout(ctx, { ...checkout, paymentId: 9 });
    expect(fake.tokensIssued()).toBe(before + 1);
  });

  it('reports pending until the buyer approves, then captures once however often it is asked', async () => {
    const paypal = provider();
    const { providerRef } = await paypal.createCheckout(ctx, { ...checkout, paymentId: 10 });
    expect(await lookup(paypal, providerRef)).toBe('pending');
    fake.approve(providerRef);
    const captured = await lookup(paypal, providerRef);
    const capture = fake.orders.get(providerRef)!.captures[0]!;
    expect(captured).toEqual({
      type: 'payment.succeeded',
      providerRef,
      paymentId: 10,
      chargeRef: capture.id,
      amountMinor: 1280,
      currency: 'JPY',
    });
    expect(await lookup(paypal, providerRef)).toEqual(captured);
    expect(fake.orders.get(providerRef)!.captures).toHaveLength(1);
    const captureCalls = fake.requests.filter(
      (request) => request.path === `/v2/checkout/orders/${providerRef}/capture`,
    );
    expect(captureCalls.map((request) => request.requestId)).toEqual([`capture-${providerRef}`]);
  });

  it('reports a declined capture and an order PayPal no longer knows as failed', async () => {
    const paypal = provider();
    const { providerRef } = await paypal.createCheckout(ctx, { ...checkout, paymentId: 11 });
    fake.approve(providerRef);
    fake.declineNextCapture();
    expect(await lookup(paypal, providerRef)).toEqual({ type: 'payment.failed', providerRef });
    expect(await lookup(paypal, 'ORD-EXPIRED-1')).toEqual({ type: 'payment.failed', providerRef: 'ORD-EXPIRED-1' });
  });

  it('retries PayPal outages with the same request id, and gives up after two retries', async () => {
    const paypal = provider();
    await paypal.createCheckout(ctx, { ...checkout, paymentId: 11 }); // the access token is fetched
    fake.failNext(2);
    const session = await paypal.createCheckout(ctx, { ...checkout, paymentId: 12 });
    expect(fake.orders.has(session.providerRef)).toBe(true);
    const attempts = fake.requests.filter((request) => request.requestId === 'checkout-payment-12');
    expect(attempts).toHaveLength(3);
    fake.failNext(3);
    await expect(paypal.createCheckout(ctx, { ...checkout, paymentId: 13 })).rejects.toThrow(PayPalApiError);
  });

  it('refunds part and then the rest of a capture, once per idempotency key', async () => {
    const paypal = provider();
    const { providerRef } = await paypal.createCheckout(ctx, { ...checkout, paymentId: 14 });
    fake.approve(providerRef);
    const captured = await lookup(paypal, providerRef);
    const chargeRef = (captured as { chargeRef: string }).chargeRef;
    const refund = (amountMinor: number, idempotencyKey: string) =>
      paypal.refund(ctx, { paymentId: 14, providerRef, chargeRef, amountMinor, currency: 'JPY', idempotencyKey });

    const part = await refund(500, 'refund-key-part');
    expect(await refund(500, 'refund-key-part')).toEqual(part);
    const rest = await refund(780, 'refund-key-rest');
    expect(fake.refunds.filter((one) => one.captureId === chargeRef)).toEqual([
      {
        id: part.refundRef,
        captureId: chargeRef,
        amount: { currency_code: 'JPY', value: '500' },
        requestId: 'refund-key-part',
        customId: 'shop-refund.refund-key-part',
      },
      {
        id: rest.refundRef,
        captureId: chargeRef,
        amount: { currency_code: 'JPY', value: '780' },
        requestId: 'refund-key-rest',
        customId: 'shop-refund.refund-key-rest',
      },
    ]);
    await expect(refund(1, 'refund-key-more')).rejects.toThrow(/CAPTURE_FULLY_REFUNDED/);
  });

  it('refunds what the capture took when money is owed back whole, whatever the shop had asked', async () => {
    const paypal = provider();
    const { providerRef } = await paypal.createCheckout(ctx, { ...checkout, paymentId: 15 });
    fake.approve(providerRef);
    fake.captureNextWith({ currency_code: 'JPY', value: '900' });
    const chargeRef = ((await lookup(paypal, providerRef)) as { chargeRef: string }).chargeRef;
    const owed = { paymentId: 15, providerRef, chargeRef, amountMinor: 1280, currency: 'JPY' as const };
    await paypal.refund(ctx, { ...owed, idempotencyKey: 'refund-payment-15', whole: true });
    expect(fake.refunds.filter((one) => one.captureId === chargeRef)).toEqual([
      expect.objectContaining({ amount: { currency_code: 'JPY', value: '900' }, requestId: 'refund-payment-15' }),
    ]);
  });
});

describe('paypal webhooks', () => {
  async function approvedOrder(paymentId: number) {
    const paypal = provider();
    const { providerRef } = await paypal.createCheckout(ctx, { ...checkout, paymentId });
    fake.approve(providerRef);
    return { paypal, providerRef };
  }

  it('takes a capture signed with the certificate PayPal names, for our webhook id', async () => {
    const { paypal, providerRef } = await approvedOrder(20);
    const completed = fake.webhook('PAYMENT.CAPTURE.COMPLETED', providerRef);
    const capture = fake.orders.get(providerRef)!.captures[0]!;
    expect(await paypal.verifyWebhook(Buffer.from(completed.body), headersOf(completed))).toEqual({
      eventId: completed.eventId,
      type: 'payment.succeeded',
      providerRef,
      paymentId: 20,
      chargeRef: capture.id,
      amountMinor: 1280,
      currency: 'JPY',
    });
    const denied = fake.webhook('PAYMENT.CAPTURE.DENIED', providerRef);
    expect(await paypal.verifyWebhook(Buffer.from(denied.body), headersOf(denied))).toMatchObject({
      eventId: denied.eventId,
      type: 'payment.failed',
      providerRef,
    });
  });

  it('records order approvals as ignored', async () => {
    const { paypal, providerRef } = await approvedOrder(21);
    const webhook = fake.webhook('CHECKOUT.ORDER.APPROVED', providerRef);
    expect(await paypal.verifyWebhook(Buffer.from(webhook.body), headersOf(webhook))).toEqual({
      eventId: webhook.eventId,
      type: 'ignored',
      gatewayType: 'CHECKOUT.ORDER.APPROVED',
    });
  });

  it('reports a refund with its capture and amount, and the shop’s tag only when the shop asked for it', async () => {
    const { paypal, providerRef } = await approvedOrder(24);
    fake.webhook('PAYMENT.CAPTURE.COMPLETED', providerRef); // the fake captures the order to report it
    const captureId = fake.orders.get(providerRef)!.captures[0]!.id;
    await paypal.refund(ctx, {
      paymentId: 24,
      providerRef,
      chargeRef: captureId,
      amountMinor: 300,
      currency: 'JPY',
      idempotencyKey: 'staff-refund-24',
    });
    const ours = fake.webhook('PAYMENT.CAPTURE.REFUNDED', providerRef);
    expect(await paypal.verifyWebhook(Buffer.from(ours.body), headersOf(ours))).toEqual({
      eventId: ours.eventId,
      type: 'refund.succeeded',
      refundRef: fake.refunds.at(-1)!.id,
      chargeRef: captureId,
      amountMinor: 300,
      currency: 'JPY',
      shopTag: 'shop-refund.staff-refund-24',
    });
    // Made in PayPal's dashboard: the resource carries the capture's custom_id (our payment id), not a tag.
    const theirs = fake.dashboardRefund(captureId, { currency_code: 'JPY', value: '200' });
    const reported = fake.webhook('PAYMENT.CAPTURE.REFUNDED', providerRef, { refundId: theirs.id });
    expect(await paypal.verifyWebhook(Buffer.from(reported.body), headersOf(reported))).toEqual({
      eventId: reported.eventId,
      type: 'refund.succeeded',
      refundRef: theirs.id,
      chargeRef: captureId,
      amountMinor: 200,
      currency: 'JPY',
    });
  });

  it('refuses a wrong key, another webhook id, a changed body, a missing header and a certificate from elsewhere', async () => {
    const { paypal, providerRef } = await approvedOrder(22);
    const downloadsBefore = fake.certificateDownloads();
    const refused = (body: string, headers: Record<string, string | undefined>) =>
      expect(paypal.verifyWebhook(Buffer.from(body), headers)).rejects.toThrow(WebhookVerificationError);

    const stranger = fake.webhook('PAYMENT.CAPTURE.COMPLETED', providerRef, { signedBy: 'stranger' });
    await refused(stranger.body, stranger.headers);
    const otherHook = fake.webhook('PAYMENT.CAPTURE.COMPLETED', providerRef, { webhookId: 'WH-SOMEONE-ELSE' });
    await refused(otherHook.body, otherHook.headers);
    const good = fake.webhook('PAYMENT.CAPTURE.COMPLETED', providerRef);
    await refused(good.body.replace('"1280"', '"1"'), good.headers);
    await refused(good.body, { ...good.headers, 'paypal-transmission-sig': undefined });
    await refused(good.body, { ...good.headers, 'paypal-auth-algo': 'SHA1withRSA' });
    await refused(good.body, {
      ...good.headers,
      'paypal-cert-url': 'https://certs.example/v1/notifications/certs/CERT-1',
    });
    await refused(good.body, { ...good.headers, 'paypal-cert-url': `${fake.url}/elsewhere/CERT-1` });
    // The untouched delivery still passes, and the certificate was downloaded once for all of them.
    expect((await paypal.verifyWebhook(Buffer.from(good.body), headersOf(good))).type).toBe('payment.succeeded');
    expect(fake.certificateDownloads()).toBe(downloadsBefore + 1);
  });

  it('fetches a certificate only from PayPal’s own hosts when no test base is set', async () => {
    const { providerRef } = await approvedOrder(23);
    const live = createPayPalWebhookVerifier({
      webhookId: credentials.webhookId,
      certOrigins: ['https://api.paypal.com', 'https://api-m.paypal.com'],
    });
    const webhook = fake.webhook('PAYMENT.CAPTURE.COMPLETED', providerRef);
    const before = fake.certificateDownloads();
    for (const certUrl of [
      webhook.headers['paypal-cert-url']!,
      'http://api.paypal.com/v1/notifications/certs/CERT-1',
      'https://api.paypal.com.attacker.example/v1/notifications/certs/CERT-1',
      'https://user@api.paypal.com/v1/notifications/certs/CERT-1',
    ]) {
      await expect(live(Buffer.from(webhook.body), { ...webhook.headers, 'paypal-cert-url': certUrl })).rejects.toThrow(
        /is not PayPal's/,
      );
    }
    expect(fake.certificateDownloads()).toBe(before);
  });
});
