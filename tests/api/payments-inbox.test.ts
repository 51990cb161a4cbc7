import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentEvents, payments } from '../../server/db/schema';
import { reconcilePayments } from '../../server/domains/payments/payment-reconciliation';
import { startFakeStripe, type FakeStripe } from '../../server/domains/payments/testing/fake-stripe';
import { makeBuyer, type Buyer } from '../support/buyers';
import { startTestServer, type TestServer } from '../support/test-server';
import { makeOrder, orderRow, paidHistoryRows, paymentRow } from './payments-fixtures';

/**
 * One event inbox (ADR 0141): an event for a payment the shop does not know yet is kept and
 * applied once the payment is known, never answered 200 and dropped.
 */
const WEBHOOK_SECRET = 'whsec_inbox_test_secret';
let fake: FakeStripe;
let server: TestServer;
let buyer: Buyer;

beforeAll(async () => {
  fake = await startFakeStripe(WEBHOOK_SECRET);
  server = await startTestServer({
    STRIPE_SECRET_KEY: 'sk_test_inbox',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: fake.url,
  });
  buyer = await makeBuyer(server);
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

function deliver(webhook: { body: string; signature: string }) {
  return server.request('/v1/pay/webhook/stripe', {
    method: 'POST',
    rawBody: webhook.body,
    headers: { 'content-type': 'application/json', 'stripe-signature': webhook.signature },
  });
}

async function eventRow(eventId: string) {
  const [row] = await server.ctx.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, eventId));
  return row;
}

describe('payment event inbox', () => {
  it('keeps a capture that outruns our record of the session, and applies it once the session is recorded', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id, 6_600, 'USD');
    let early:
      | { webhook: { body: string; signature: string; eventId: string }; answer: { status: number; body: any } }
      | undefined;
    fake.beforeSessionAnswer = async (sessionId) => {
      // Stripe reports the capture before the shop has heard back from its create call, and
      // this gateway does not echo our payment id: the shop cannot know which payment it is.
      fake.settle(sessionId, 'paid');
      const webhook = fake.webhook('checkout.session.completed', sessionId, {
        secret: WEBHOOK_SECRET,
        withoutMetadata: true,
      });
      const answer = await deliver(webhook);
      early = { webhook, answer: { status: answer.status, body: answer.body } };
    };
    const started = await buyer.call('/v1/pay', { method: 'POST', body: { order_id: orderId } });
    fake.beforeSessionAnswer = undefined;
    expect(started.body.code).toBe(200);

    // Acknowledged (the gateway need not retry) because it is kept, not dropped.
    expect(early!.answer).toEqual({
      status: 200,
      body: { code: 200, msg: 'ok', data: { received: true, outcome: 'held' } },
    });
    const payment = await paymentRow(server.ctx, started.body.data.payment_id);
    // Applied as soon as the session id was recorded, in the same request.
    expect(payment).toMatchObject({ status: 'succeeded', chargeRef: `pi_test_${payment!.providerRef}` });
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 10, payStatus: 2 });
    expect(await eventRow(early!.webhook.eventId)).toMatchObject({
      outcome: 'paid',
      paymentId: payment!.id,
      held: null,
    });

    // Stripe's retry of the same event, or another notice of the same capture, changes nothing.
    expect((await deliver(early!.webhook)).body.data.outcome).toBe('duplicate');
    const another = fake.webhook('checkout.session.completed', payment!.providerRef!);
    expect((await deliver(another)).body.data.outcome).toBe('stale');
    expect(await paidHistoryRows(server.ctx, orderId)).toBe(1);
  });

  it('finds a payment whose session id was never recorded by the payment id Stripe echoes back', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id, 3_300, 'USD');
    let outcome: string | undefined;
    fake.beforeSessionAnswer = async (sessionId) => {
      fake.settle(sessionId, 'paid');
      outcome = (await deliver(fake.webhook('checkout.session.completed', sessionId))).body.data.outcome;
    };
    const started = await buyer.call('/v1/pay', { method: 'POST', body: { order_id: orderId } });
    fake.beforeSessionAnswer = undefined;
    expect(outcome).toBe('paid');
    expect(await paymentRow(server.ctx, started.body.data.payment_id)).toMatchObject({ status: 'succeeded' });
    expect(await paidHistoryRows(server.ctx, orderId)).toBe(1);
  });

  it('applies a held event from the payments job when the copy that recorded the session died before applying it', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id, 7_700, 'CNY');
    const sessionId = 'cs_test_recorded_by_a_copy_that_died';
    const early = fake.webhook('checkout.session.completed', sessionId, {
      secret: WEBHOOK_SECRET,
      withoutMetadata: true,
      amountTotal: 7_700,
    });
    expect((await deliver(early)).body.data.outcome).toBe('held');
    // What startPayment had committed when its copy was killed: the attempt with Stripe's session id.
    const [payment] = await server.ctx.db
      .insert(payments)
      .values({
        orderId,
        userId: buyer.id,
        provider: 'stripe',
        method: 'card',
        providerRef: sessionId,
        amountMinor: 7_700,
        currency: 'CNY',
        chargedAmountMinor: 7_700,
        chargedCurrency: 'CNY',
      })
      .returning();
    const pass = await reconcilePayments(server.ctx);
    expect(pass.heldApplied).toBe(1);
    expect(await eventRow(early.eventId)).toMatchObject({ outcome: 'paid', paymentId: payment!.id, held: null });
    expect(await paymentRow(server.ctx, payment!.id)).toMatchObject({
      status: 'succeeded',
      chargeRef: `pi_test_${sessionId}`,
    });
    // A second pass (or another copy) finds nothing left to apply.
    expect((await reconcilePayments(server.ctx)).heldApplied).toBe(0);
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 10, payStatus: 2 });
    expect(await paidHistoryRows(server.ctx, orderId)).toBe(1);
  });

  it('keeps an event whose payment never appears, with what it reported, rather than dropping it', async () => {
    const stray = fake.webhook('checkout.session.completed', 'cs_test_never_ours', {
      secret: WEBHOOK_SECRET,
      withoutMetadata: true,
    });
    const answer = await deliver(stray);
    expect(answer.body.data.outcome).toBe('held');
    expect(await eventRow(stray.eventId)).toMatchObject({
      provider: 'stripe',
      outcome: 'held',
      providerRef: 'cs_test_never_ours',
      paymentId: null,
      held: { type: 'payment.succeeded', providerRef: 'cs_test_never_ours', currency: 'CNY' },
    });
    // A replay is recognised as the same event.
    expect((await deliver(stray)).body.data.outcome).toBe('duplicate');
  });
});
