import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentEvents } from '../../server/db/schema';
import { startFakeStripe, type FakeStripe } from '../../server/domains/payments/testing/fake-stripe';
import { makeBuyer, type Buyer } from '../support/buyers';
import { startTestServer, type TestServer } from '../support/test-server';
import { cancelOrder, makeOrder, orderRow, paidHistoryRows, paymentRow } from './payments-fixtures';

const WEBHOOK_SECRET = 'whsec_api_test_secret';
let fake: FakeStripe;
let server: TestServer;
let buyer: Buyer;

beforeAll(async () => {
  fake = await startFakeStripe(WEBHOOK_SECRET);
  server = await startTestServer({
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_api',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: fake.url,
  });
  buyer = await makeBuyer(server);
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

async function startPaying(orderId: number) {
  const response = await buyer.call('/v1/pay', { method: 'POST', body: { order_id: orderId } });
  expect(response.body.code).toBe(200);
  const paymentId = response.body.data.payment_id as number;
  const providerRef = (await paymentRow(server.ctx, paymentId))!.providerRef!;
  return { paymentId, providerRef, redirectUrl: response.body.data.redirect_url as string };
}

function deliver(webhook: { body: string; signature: string }, signature = webhook.signature) {
  return server.request('/v1/pay/webhook/stripe', {
    method: 'POST',
    rawBody: webhook.body,
    headers: { lang: 'en', 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
  });
}

describe('stripe payments (SDK against a local fake)', () => {
  it('opens a Checkout Session for the order amount and marks the order paid on checkout.session.completed', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id, 4_200, 'USD');
    const { paymentId, providerRef, redirectUrl } = await startPaying(orderId);
    expect(redirectUrl).toBe(`https://checkout.stripe.test/c/pay/${providerRef}`);
    const session = fake.sessions.get(providerRef)!;
    expect(session).toMatchObject({
      amount_total: 4_200,
      currency: 'usd',
      client_reference_id: String(paymentId),
      success_url: `${server.url}/en/result/success?order_id=${orderId}`,
      cancel_url: `${server.url}/en/result/fail?order_id=${orderId}`,
    });

    const completed = fake.webhook('checkout.session.completed', providerRef);
    const response = await deliver(completed);
    expect(response.body).toEqual({ code: 200, msg: 'ok', data: { received: true, outcome: 'paid' } });
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 10, payStatus: 2 });
    expect(await paymentRow(server.ctx, paymentId)).toMatchObject({
      status: 'succeeded',
      chargeRef: `pi_test_${providerRef}`,
    });

    // Stripe retries deliveries: the same event again changes nothing.
    expect((await deliver(completed)).body.data.outcome).toBe('duplicate');
    expect(await paidHistoryRows(server.ctx, orderId)).toBe(1);
    // A later expiry notice for the same session cannot undo the payment.
    expect((await deliver(fake.webhook('checkout.session.expired', providerRef))).body.data.outcome).toBe('stale');
    expect((await buyer.call(`/v1/pay/PayStatus/${orderId}`)).body.data).toMatchObject({
      order_status: 10,
      pay_status: 2,
      payment_status: 'succeeded',
    });
  });

  it('refuses a webhook whose signature does not match (400) and changes nothing', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id);
    const { paymentId, providerRef } = await startPaying(orderId);
    const completed = fake.webhook('checkout.session.completed', providerRef, { secret: 'whsec_not_ours' });
    const response = await deliver(completed);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 400, msg: 'Invalid webhook signature', data: null });
    const tampered = fake.webhook('checkout.session.completed', providerRef);
    expect((await deliver({ ...tampered, body: tampered.body.replace('"paid"', '"unpaid"') })).status).toBe(400);
    expect((await deliver(tampered, '')).status).toBe(400);
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 1, payStatus: 1 });
    expect((await paymentRow(server.ctx, paymentId))?.status).toBe('pending');
    expect(await server.ctx.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, tampered.eventId))).toEqual(
      [],
    );
  });

  it('marks an expired session failed and keeps the order payable', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id);
    const { paymentId, providerRef } = await startPaying(orderId);
    expect((await deliver(fake.webhook('checkout.session.expired', providerRef))).body.data.outcome).toBe('failed');
    expect((await paymentRow(server.ctx, paymentId))?.status).toBe('failed');
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 1, payStatus: 1 });
    expect((await buyer.call('/v1/pay', { method: 'POST', body: { order_id: orderId } })).body.code).toBe(200);
  });

  it('refunds through Stripe when the payment lands after the order was cancelled', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id);
    const { paymentId, providerRef } = await startPaying(orderId);
    await cancelOrder(server.ctx, orderId);
    expect((await deliver(fake.webhook('checkout.session.completed', providerRef))).body.data.outcome).toBe(
      'refund_due',
    );
    const refund = fake.refunds.find((candidate) => candidate.payment_intent === `pi_test_${providerRef}`);
    expect(refund?.idempotencyKey).toBe(`refund-payment-${paymentId}`);
    expect(await paymentRow(server.ctx, paymentId)).toMatchObject({ status: 'refunded', refundRef: refund!.id });
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 60, payStatus: 3 });
  });

  it('keeps a refund owed when Stripe is down, and the payments job pays it back later', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id);
    const { paymentId, providerRef } = await startPaying(orderId);
    await cancelOrder(server.ctx, orderId);
    fake.failNext(3); // the SDK retries twice; all three attempts fail
    expect((await deliver(fake.webhook('checkout.session.completed', providerRef))).body.data.outcome).toBe(
      'refund_due',
    );
    const owed = await paymentRow(server.ctx, paymentId);
    expect(owed?.status).toBe('refund_pending');
    expect(owed?.lastError).toMatch(/^refund: /);
    // Age the last try past the retry pause instead of waiting a minute.
    const { payments } = await import('../../server/db/schema');
    await server.ctx.db
      .update(payments)
      .set({ updatedAt: new Date(Date.now() - 120_000) })
      .where(eq(payments.id, paymentId));
    await expect
      .poll(async () => (await paymentRow(server.ctx, paymentId))?.status, { timeout: 10_000, interval: 250 })
      .toBe('refunded');
  });

  it('answers 502 with a clear message when Stripe cannot open a session, and nothing is charged', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id);
    fake.failNext(3);
    const response = await buyer.call('/v1/pay', { method: 'POST', body: { order_id: orderId } });
    expect(response.status).toBe(502);
    expect(response.body.msg).toBe('The payment service is not responding. Please try again in a moment');
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 1, payStatus: 1 });
  });
});
