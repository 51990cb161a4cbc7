import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentEvents, payments } from '../../server/db/schema';
import { reconcilePayments } from '../../server/domains/payments/payment-reconciliation';
import { startFakeStripe, type FakeStripe } from '../../server/domains/payments/testing/fake-stripe';
import { makeBuyer, type Buyer } from '../support/buyers';
import { startTestServer, type TestServer } from '../support/test-server';
import { cancelOrder, makeOrder, orderRow, paidHistoryRows, paymentRow } from './payments-fixtures';

/**
 * Reconciliation (ADR 0141): a payment still pending PAYMENT_RECONCILE_AFTER_MINUTES (10 here,
 * the default) after its last change is asked about at Stripe, and the answer is applied like
 * a webhook, once, however many copies ask.
 */
const WEBHOOK_SECRET = 'whsec_reconcile_test_secret';
const MINUTE = 60_000;
let fake: FakeStripe;
let server: TestServer;
let buyer: Buyer;

beforeAll(async () => {
  fake = await startFakeStripe(WEBHOOK_SECRET);
  server = await startTestServer({
    STRIPE_SECRET_KEY: 'sk_test_reconcile',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: fake.url,
  });
  buyer = await makeBuyer(server);
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

async function startPaying(totalMinor: number) {
  const orderId = await makeOrder(server.ctx, buyer.id, totalMinor, 'USD');
  const response = await buyer.call('/v1/pay', { method: 'POST', body: { order_id: orderId } });
  expect(response.body.code).toBe(200);
  const paymentId = response.body.data.payment_id as number;
  return { orderId, paymentId, sessionId: (await paymentRow(server.ctx, paymentId))!.providerRef! };
}

/** How often Stripe was asked about a session. */
function lookupsOf(sessionId: string): number {
  return fake.requests.filter(
    (request) => request.method === 'GET' && request.path === `/v1/checkout/sessions/${sessionId}`,
  ).length;
}

/** Nobody looked at these payments for `minutes` (instead of waiting). */
async function quietFor(paymentIds: number[], minutes: number) {
  for (const id of paymentIds)
    await server.ctx.db
      .update(payments)
      .set({ updatedAt: new Date(Date.now() - minutes * MINUTE) })
      .where(eq(payments.id, id));
}

describe('payment reconciliation', () => {
  it('pays a pending payment whose webhook never came, but only after ten quiet minutes', async () => {
    const { orderId, paymentId, sessionId } = await startPaying(4_400);
    fake.settle(sessionId, 'paid');

    await quietFor([paymentId], 9);
    const early = await reconcilePayments(server.ctx);
    expect(early.asked.filter((entry) => entry.paymentId === paymentId)).toEqual([]);
    expect(lookupsOf(sessionId)).toBe(0);

    await quietFor([paymentId], 11);
    const due = await reconcilePayments(server.ctx);
    expect(due.asked.filter((entry) => entry.paymentId === paymentId)).toEqual([{ paymentId, outcome: 'paid' }]);
    expect(await paymentRow(server.ctx, paymentId)).toMatchObject({
      status: 'succeeded',
      chargeRef: `pi_test_${sessionId}`,
    });
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 10, payStatus: 2 });
    const [recorded] = await server.ctx.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.eventId, `reconcile:${paymentId}:payment.succeeded`));
    expect(recorded).toMatchObject({ provider: 'stripe', outcome: 'paid', paymentId });

    // The webhook that finally arrives changes nothing.
    const late = fake.webhook('checkout.session.completed', sessionId);
    const answer = await server.request('/v1/pay/webhook/stripe', {
      method: 'POST',
      rawBody: late.body,
      headers: { 'content-type': 'application/json', 'stripe-signature': late.signature },
    });
    expect(answer.body.data.outcome).toBe('stale');
    expect(await paidHistoryRows(server.ctx, orderId)).toBe(1);
  });

  it('pays each payment once when two copies reconcile at the same moment', async () => {
    const first = await startPaying(1_100);
    const second = await startPaying(2_200);
    fake.settle(first.sessionId, 'paid');
    fake.settle(second.sessionId, 'paid');
    await quietFor([first.paymentId, second.paymentId], 11);

    const [copyA, copyB] = await Promise.all([reconcilePayments(server.ctx), reconcilePayments(server.ctx)]);
    const asked = [...copyA.asked, ...copyB.asked].filter((entry) =>
      [first.paymentId, second.paymentId].includes(entry.paymentId),
    );
    expect(asked.map((entry) => entry.outcome)).toEqual(['paid', 'paid']);
    expect(lookupsOf(first.sessionId)).toBe(1);
    expect(lookupsOf(second.sessionId)).toBe(1);
    expect(await paidHistoryRows(server.ctx, first.orderId)).toBe(1);
    expect(await paidHistoryRows(server.ctx, second.orderId)).toBe(1);

    // Even if both copies had heard "paid", the second answer is the same event: a duplicate.
    await server.ctx.db
      .update(payments)
      .set({ status: 'pending', updatedAt: new Date(Date.now() - 11 * MINUTE) })
      .where(eq(payments.id, first.paymentId));
    const again = await reconcilePayments(server.ctx);
    expect(again.asked.filter((entry) => entry.paymentId === first.paymentId)).toEqual([
      { paymentId: first.paymentId, outcome: 'duplicate' },
    ]);
    expect(await paidHistoryRows(server.ctx, first.orderId)).toBe(1);
  });

  it('asks again only ten minutes later while the buyer has not paid, and marks an expired session failed', async () => {
    const { orderId, paymentId, sessionId } = await startPaying(3_000);
    await quietFor([paymentId], 11);
    const open = await reconcilePayments(server.ctx);
    expect(open.asked.filter((entry) => entry.paymentId === paymentId)).toEqual([{ paymentId, outcome: 'pending' }]);
    // Just asked: the next pass leaves it alone.
    await reconcilePayments(server.ctx);
    expect(lookupsOf(sessionId)).toBe(1);

    fake.settle(sessionId, 'expired');
    await quietFor([paymentId], 11);
    const expired = await reconcilePayments(server.ctx);
    expect(expired.asked.filter((entry) => entry.paymentId === paymentId)).toEqual([{ paymentId, outcome: 'failed' }]);
    expect(await paymentRow(server.ctx, paymentId)).toMatchObject({ status: 'failed' });
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 1, payStatus: 1 });
  });

  it('refunds money that reconciliation finds captured for an order cancelled meanwhile', async () => {
    const { orderId, paymentId, sessionId } = await startPaying(5_500);
    await cancelOrder(server.ctx, orderId);
    fake.settle(sessionId, 'paid');
    await quietFor([paymentId], 11);
    const result = await reconcilePayments(server.ctx);
    expect(result.asked.filter((entry) => entry.paymentId === paymentId)).toEqual([
      { paymentId, outcome: 'refund_due' },
    ]);
    expect(await paymentRow(server.ctx, paymentId)).toMatchObject({ status: 'refunded' });
    expect(fake.refunds.filter((refund) => refund.payment_intent === `pi_test_${sessionId}`)).toEqual([
      // Owed back whole: no amount sent, Stripe refunds all it charged (CN¥55.00 here).
      expect.objectContaining({ amount: null, amountMinor: 5_500, idempotencyKey: `refund-payment-${paymentId}` }),
    ]);
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 60, payStatus: 3 });
  });
});
