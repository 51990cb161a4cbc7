import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context';
import type { Currency } from '../../shared/money';
import { WebhookVerificationError } from './payment-provider';
import { createStripeProvider } from './stripe-provider';
import { startFakeStripe, type FakeStripe } from './testing/fake-stripe';

const webhookSecret = 'whsec_unit_test_secret';
const ctx = {} as AppContext;
let fake: FakeStripe;

beforeAll(async () => {
  fake = await startFakeStripe(webhookSecret);
});
afterAll(() => fake.close());

function provider() {
  return createStripeProvider({
    secretKey: 'sk_test_unit',
    webhookSecret,
    apiBase: fake.url,
    methods: ['card', 'alipay', 'wechat_pay'],
  });
}

const checkout = {
  paymentId: 7,
  orderId: 3,
  method: 'card' as const,
  amountMinor: 1280,
  currency: 'JPY' as const,
  country: 'JP',
  locale: 'zh-cn' as const,
  description: 'ORDER-3',
  successUrl: 'https://shop.test/zh-cn/result/success?order_id=3',
  failUrl: 'https://shop.test/zh-cn/result/fail?order_id=3',
};

describe('stripe provider (against a local fake of the API)', () => {
  it('creates a Checkout Session with the amount in minor units, our references and an idempotency key', async () => {
    const session = await provider().createCheckout(ctx, checkout);
    expect(session.redirectUrl).toMatch(/^https:\/\/checkout\.stripe\.test\//);
    const sent = fake.requests.at(-1)!;
    expect(sent.path).toBe('/v1/checkout/sessions');
    expect(sent.authorization).toBe('Bearer sk_test_unit');
    expect(sent.form.get('line_items[0][price_data][unit_amount]')).toBe('1280');
    expect(sent.form.get('line_items[0][price_data][currency]')).toBe('jpy');
    expect(sent.form.get('client_reference_id')).toBe('7');
    expect(sent.form.get('metadata[order_id]')).toBe('3');
    expect(sent.form.get('locale')).toBe('zh');
    expect(sent.form.get('success_url')).toBe(checkout.successUrl);
    expect(sent.form.get('cancel_url')).toBe(checkout.failUrl);
  });

  it('normalizes signed webhooks and refuses tampered or unsigned ones', async () => {
    const { providerRef } = await provider().createCheckout(ctx, { ...checkout, paymentId: 8 });
    const paid = fake.webhook('checkout.session.completed', providerRef);
    await expect(
      provider().verifyWebhook(Buffer.from(paid.body), { 'stripe-signature': paid.signature }),
    ).resolves.toEqual({
      eventId: paid.eventId,
      type: 'payment.succeeded',
      providerRef,
      paymentId: 8,
      amountMinor: 1280,
      currency: 'JPY',
      chargeRef: `pi_test_${providerRef}`,
    });
    const expired = fake.webhook('checkout.session.expired', providerRef);
    await expect(
      provider().verifyWebhook(Buffer.from(expired.body), { 'stripe-signature': expired.signature }),
    ).resolves.toMatchObject({ type: 'payment.failed' });
    const other = fake.webhook('payment_intent.created', providerRef);
    await expect(
      provider().verifyWebhook(Buffer.from(other.body), { 'stripe-signature': other.signature }),
    ).resolves.toMatchObject({ type: 'ignored' });

    await expect(
      provider().verifyWebhook(Buffer.from(paid.body.replace('1280', '1')), { 'stripe-signature': paid.signature }),
    ).rejects.toThrow(WebhookVerificationError);
    await expect(provider().verifyWebhook(Buffer.from(paid.body), {})).rejects.toThrow(WebhookVerificationError);
    const foreign = fake.webhook('checkout.session.completed', providerRef, { secret: 'whsec_someone_else' });
    await expect(
      provider().verifyWebhook(Buffer.from(foreign.body), { 'stripe-signature': foreign.signature }),
    ).rejects.toThrow(WebhookVerificationError);
    const old = fake.webhook('checkout.session.completed', providerRef, {
      secret: webhookSecret,
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    await expect(
      provider().verifyWebhook(Buffer.from(old.body), { 'stripe-signature': old.signature }),
    ).rejects.toThrow(WebhookVerificationError);
  });

  it('offers Alipay and WeChat Pay only in the currencies Stripe takes them in, and only those the shop turned on', () => {
    expect(provider().methodsFor({ currency: 'EUR', country: 'DE' })).toEqual(['card', 'alipay', 'wechat_pay']);
    // A currency neither wallet takes (the shop's list may grow): cards only.
    expect(provider().methodsFor({ currency: 'KRW' as Currency, country: 'KR' })).toEqual(['card']);
    const cardsOnly = createStripeProvider({ secretKey: 'sk_test_unit', webhookSecret, methods: ['card'] });
    expect(cardsOnly.methodsFor({ currency: 'CNY', country: 'CN' })).toEqual(['card']);
  });

  it('refuses to send the buyer to a session without the chosen method (not turned on in the dashboard)', async () => {
    const cardsOnlyDashboard = await startFakeStripe(webhookSecret, ['card']);
    try {
      const stripe = createStripeProvider({
        secretKey: 'sk_test_unit',
        webhookSecret,
        apiBase: cardsOnlyDashboard.url,
        methods: ['card', 'wechat_pay'],
      });
      await expect(stripe.createCheckout(ctx, { ...checkout, paymentId: 11, method: 'wechat_pay' })).rejects.toThrow(
        /wechat_pay is not turned on in the Stripe dashboard/,
      );
    } finally {
      await cardsOnlyDashboard.close();
    }
  });

  it('looks a session up: pending while open, paid once complete, failed once expired', async () => {
    const lookup = (providerRef: string) =>
      provider().lookupPayment(ctx, { paymentId: 12, providerRef, method: 'card', amountMinor: 1280, currency: 'JPY' });
    const { providerRef } = await provider().createCheckout(ctx, { ...checkout, paymentId: 12 });
    expect(await lookup(providerRef)).toBe('pending');
    fake.settle(providerRef, 'paid');
    expect(await lookup(providerRef)).toEqual({
      type: 'payment.succeeded',
      providerRef,
      paymentId: 12,
      amountMinor: 1280,
      currency: 'JPY',
      chargeRef: `pi_test_${providerRef}`,
    });
    const other = await provider().createCheckout(ctx, { ...checkout, paymentId: 13 });
    fake.settle(other.providerRef, 'expired');
    expect(await lookup(other.providerRef)).toMatchObject({ type: 'payment.failed', providerRef: other.providerRef });
  });

  it('refunds the payment intent once, however often it is asked', async () => {
    const request = {
      paymentId: 9,
      providerRef: 'cs_x',
      chargeRef: 'pi_abc',
      amountMinor: 100,
      currency: 'USD' as const,
      idempotencyKey: 'refund-payment-9',
    };
    const first = await provider().refund(ctx, request);
    const second = await provider().refund(ctx, request);
    expect(second.refundRef).toBe(first.refundRef);
    expect(fake.refunds.filter((refund) => refund.payment_intent === 'pi_abc')).toHaveLength(1);
  });

  it('sends no amount for money owed back whole (Stripe refunds what is left), and tags every refund', async () => {
    const owed = { paymentId: 11, providerRef: 'cs_w', chargeRef: 'pi_whole', currency: 'USD' as const };
    await provider().refund(ctx, { ...owed, amountMinor: 900, idempotencyKey: 'refund-payment-11', whole: true });
    expect(fake.refunds.filter((refund) => refund.payment_intent === 'pi_whole')).toEqual([
      expect.objectContaining({
        amount: null,
        metadata: { payment_id: '11', shop_refund: 'shop-refund.refund-payment-11' },
      }),
    ]);
  });

  it('reports a succeeded refund with its payment intent and the shop’s tag; a pending one is ignored', async () => {
    const ours = await provider().refund(ctx, {
      paymentId: 14,
      providerRef: 'cs_t',
      chargeRef: 'pi_tagged',
      amountMinor: 250,
      currency: 'USD',
      idempotencyKey: 'staff-refund-14',
    });
    const created = fake.refundWebhook('refund.created', ours.refundRef);
    expect(
      await provider().verifyWebhook(Buffer.from(created.body), { 'stripe-signature': created.signature }),
    ).toEqual({
      eventId: created.eventId,
      type: 'refund.succeeded',
      refundRef: ours.refundRef,
      chargeRef: 'pi_tagged',
      amountMinor: 250,
      currency: 'CNY',
      shopTag: 'shop-refund.staff-refund-14',
    });
    const theirs = fake.dashboardRefund('pi_tagged', 100);
    const pending = fake.refundWebhook('refund.updated', theirs.id, { status: 'pending' });
    expect(
      await provider().verifyWebhook(Buffer.from(pending.body), { 'stripe-signature': pending.signature }),
    ).toEqual({
      eventId: pending.eventId,
      type: 'ignored',
      gatewayType: 'refund.updated:pending',
    });
  });

  it('sends the amount of a partial refund and its own idempotency key', async () => {
    const part = { paymentId: 10, providerRef: 'cs_y', chargeRef: 'pi_def', currency: 'USD' as const };
    await provider().refund(ctx, { ...part, amountMinor: 300, idempotencyKey: 'staff-refund-a' });
    await provider().refund(ctx, { ...part, amountMinor: 200, idempotencyKey: 'staff-refund-b' });
    expect(fake.refunds.filter((refund) => refund.payment_intent === 'pi_def')).toEqual([
      expect.objectContaining({ amount: '300', idempotencyKey: 'staff-refund-a' }),
      expect.objectContaining({ amount: '200', idempotencyKey: 'staff-refund-b' }),
    ]);
  });
});
