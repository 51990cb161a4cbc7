import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, orders, outbox, refunds } from '../../server/db/schema';
import { PERMISSIONS } from '../../server/domains/staff/permissions';
import {
  startFakePayPal,
  type FakePayPal,
  type FakePayPalWebhook,
} from '../../server/domains/payments/testing/fake-paypal';
import { startFakeStripe, type FakeStripe } from '../../server/domains/payments/testing/fake-stripe';
import { makeBuyer, type Buyer } from '../support/buyers';
import { createSignedInStaff, type TestStaff } from '../support/staff';
import { startTestServer, type TestServer } from '../support/test-server';
import { makeOrder, orderRow, paymentRow } from './payments-fixtures';

/**
 * Refunds the gateways report (issue 17): one made in Stripe's or PayPal's dashboard is
 * recorded and moves the payment and order as a shop refund would; one the shop asked for is
 * matched to its own row whether the webhook comes before or after the gateway's answer; the
 * inbox makes every report count once. Also the smallest refund a charge in another currency takes.
 */
const STRIPE_SECRET = 'whsec_gateway_refunds';
const paypalKeys = { clientId: 'paypal-refunds', clientSecret: 'paypal-refunds-secret', webhookId: 'WH-REF-0001' };
let stripe: FakeStripe;
let paypal: FakePayPal;
let server: TestServer;
let buyer: Buyer;
let owner: TestStaff;

beforeAll(async () => {
  [stripe, paypal] = await Promise.all([startFakeStripe(STRIPE_SECRET), startFakePayPal(paypalKeys)]);
  server = await startTestServer({
    STRIPE_SECRET_KEY: 'sk_test_refunds',
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

/** An unpaid CNY 1,000.00 order (950.00 goods, 50.00 shipping) shown to the buyer in JPY at 21.4567: ¥21,457. */
async function cnyOrderShownInYen(): Promise<number> {
  const orderId = await makeOrder(server.ctx, buyer.id, 100_000, 'CNY');
  await server.ctx.db
    .update(orders)
    .set({ displayCurrency: 'JPY', displayRateMicros: 21_456_700, displayTotalMinor: 21_457 })
    .where(eq(orders.id, orderId));
  return orderId;
}

async function pay(orderId: number, method: 'card' | 'paypal') {
  const response = await buyer.call('/v1/pay', { method: 'POST', body: { order_id: orderId, method } });
  expect(response.body.code, response.body.msg).toBe(200);
  const paymentId = response.body.data.payment_id as number;
  const providerRef = (await paymentRow(server.ctx, paymentId))!.providerRef!;
  if (method === 'card') {
    expect((await deliverStripe(stripe.webhook('checkout.session.completed', providerRef))).body.data.outcome).toBe(
      'paid',
    );
    return { paymentId, chargeRef: `pi_test_${providerRef}` };
  }
  paypal.approve(providerRef);
  const back = await fetch(`${server.url}/en/result/success?order_id=${orderId}&token=${providerRef}`, {
    headers: { cookie: `access_token=${buyer.headers.token}` },
  });
  expect(back.status).toBe(200);
  const payment = await paymentRow(server.ctx, paymentId);
  expect(payment?.status).toBe('succeeded');
  return { paymentId, chargeRef: payment!.chargeRef! };
}

async function deliverStripe(webhook: { body: string; signature: string }) {
  return server.request('/v1/pay/webhook/stripe', {
    method: 'POST',
    rawBody: webhook.body,
    headers: { lang: 'en', 'content-type': 'application/json; charset=utf-8', 'stripe-signature': webhook.signature },
  });
}

async function deliverPayPal(webhook: Pick<FakePayPalWebhook, 'body' | 'headers'>) {
  return server.request('/v1/pay/webhook/paypal', {
    method: 'POST',
    rawBody: webhook.body,
    headers: { lang: 'en', ...webhook.headers },
  });
}

function askRefund(orderId: number, amountMinor: number, key: string, lang = 'en') {
  return owner.request(`/v1/admin/orders/${orderId}/refunds`, {
    method: 'POST',
    headers: { lang },
    body: { amount_minor: amountMinor, reason: 'Returned', idempotency_key: key },
  });
}

async function refundsOf(paymentId: number) {
  return server.ctx.db.select().from(refunds).where(eq(refunds.paymentId, paymentId)).orderBy(refunds.id);
}

async function settled(refundId: number) {
  await expect
    .poll(async () => (await server.ctx.db.select().from(refunds).where(eq(refunds.id, refundId)))[0]?.status, {
      timeout: 15_000,
    })
    .toBe('succeeded');
}

async function refundMailsOwed(refundId: number): Promise<number> {
  return (
    await server.ctx.db
      .select()
      .from(outbox)
      .where(eq(outbox.dedupeKey, `refund-mail:${refundId}`))
  ).length;
}

async function auditOf(refundId: number) {
  return server.ctx.db
    .select({ action: auditEvents.action, actor: auditEvents.actorLabel })
    .from(auditEvents)
    .where(and(eq(auditEvents.entityType, 'refund'), eq(auditEvents.entityId, String(refundId))));
}

describe('refunds made in a gateway’s dashboard', () => {
  it('PayPal: recorded in yen as PayPal says and in yuan at the order’s rate, once; the last one refunds the order', async () => {
    const orderId = await cnyOrderShownInYen();
    const { paymentId, chargeRef } = await pay(orderId, 'paypal');

    // ¥5,000 at 21.4567 per yuan is CN¥233.0274..., recorded as CN¥233.03.
    const first = paypal.dashboardRefund(chargeRef, { currency_code: 'JPY', value: '5000' });
    const report = paypal.webhook('PAYMENT.CAPTURE.REFUNDED', (await paymentRow(server.ctx, paymentId))!.providerRef!, {
      refundId: first.id,
    });
    expect((await deliverPayPal(report)).body.data.outcome).toBe('refunded');
    expect((await deliverPayPal(report)).body.data.outcome).toBe('duplicate');
    const [recorded] = await refundsOf(paymentId);
    expect(recorded).toMatchObject({
      amountMinor: 23_303,
      currency: 'CNY',
      chargedAmountMinor: 5_000,
      chargedCurrency: 'JPY',
      status: 'succeeded',
      madeIn: 'paypal',
      requestedBy: null,
      reason: '',
      providerRefundRef: first.id,
    });
    expect(await auditOf(recorded!.id)).toEqual([{ action: 'refund.succeeded', actor: 'paypal' }]);
    expect(await refundMailsOwed(recorded!.id)).toBe(1);
    expect((await paymentRow(server.ctx, paymentId))?.status).toBe('succeeded');
    expect((await orderRow(server.ctx, orderId))?.status).toBe(10);

    // The same refund told again under another event id (PayPal resends) is known by its id.
    const again = paypal.webhook('PAYMENT.CAPTURE.REFUNDED', (await paymentRow(server.ctx, paymentId))!.providerRef!, {
      refundId: first.id,
    });
    expect((await deliverPayPal(again)).body.data.outcome).toBe('stale');

    // The rest, ¥16,457, takes the CN¥766.97 left: the rounding remainder too.
    const rest = paypal.dashboardRefund(chargeRef, { currency_code: 'JPY', value: '16457' });
    const last = paypal.webhook('PAYMENT.CAPTURE.REFUNDED', (await paymentRow(server.ctx, paymentId))!.providerRef!, {
      refundId: rest.id,
    });
    expect((await deliverPayPal(last)).body.data.outcome).toBe('refunded');
    expect((await refundsOf(paymentId)).map((row) => [row.amountMinor, row.chargedAmountMinor, row.madeIn])).toEqual([
      [23_303, 5_000, 'paypal'],
      [76_697, 16_457, 'paypal'],
    ]);
    expect((await paymentRow(server.ctx, paymentId))?.status).toBe('refunded');
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 41 });
    // The console's order page says where each was made, and by no member.
    const detail = await owner.request(`/v1/admin/orders/${orderId}`);
    expect(
      (detail.body.data.refunds as Array<Record<string, unknown>>).map((row) => [
        row.amount_minor,
        row.made_in,
        row.requested_by,
      ]),
    ).toEqual([
      [23_303, 'paypal', null],
      [76_697, 'paypal', null],
    ]);
    // Nothing is left to refund from the console.
    const more = await askRefund(orderId, 100, `after-dashboard-${orderId}`);
    expect(more.status).toBe(409);
  });

  it('Stripe: refund.created records it, refund.updated and charge.refund.updated of the same refund change nothing', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id, 4_200, 'USD');
    const { paymentId, chargeRef } = await pay(orderId, 'card');
    const pending = stripe.dashboardRefund(chargeRef, 1_000);
    expect(
      (await deliverStripe(stripe.refundWebhook('refund.created', pending.id, { status: 'pending' }))).body.data
        .outcome,
    ).toBe('ignored');
    expect(await refundsOf(paymentId)).toEqual([]);
    expect((await deliverStripe(stripe.refundWebhook('refund.updated', pending.id))).body.data.outcome).toBe(
      'refunded',
    );
    expect((await deliverStripe(stripe.refundWebhook('charge.refund.updated', pending.id))).body.data.outcome).toBe(
      'stale',
    );
    expect(
      (await refundsOf(paymentId)).map((row) => [row.amountMinor, row.chargedAmountMinor, row.currency, row.madeIn]),
    ).toEqual([[1_000, 1_000, 'USD', 'stripe']]);
    // The console counts it: USD 32.00 is left of USD 42.00.
    const over = await askRefund(orderId, 3_300, `over-the-rest-${orderId}`);
    expect(over.body.msg).toBe('At most $32.00 of this order can still be refunded');
    expect((await paymentRow(server.ctx, paymentId))?.status).toBe('succeeded');
  });
});

describe('refunds the shop asked for, reported by the gateway', () => {
  it('PayPal: the webhook before the gateway’s answer confirms the shop’s own refund, which the answer then finds done', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id, 10_000, 'USD');
    const { paymentId } = await pay(orderId, 'paypal');
    const providerRef = (await paymentRow(server.ctx, paymentId))!.providerRef!;
    const outcomes: string[] = [];
    paypal.beforeRefundAnswer = async (refund) => {
      outcomes.push(
        (await deliverPayPal(paypal.webhook('PAYMENT.CAPTURE.REFUNDED', providerRef, { refundId: refund.id }))).body
          .data.outcome,
      );
    };
    try {
      const key = `paypal-early-${orderId}`;
      const asked = await askRefund(orderId, 2_550, key);
      expect(asked.status, asked.body.msg).toBe(200);
      await settled(asked.body.data.id);
      // The row is confirmed as the webhook's transaction commits, a moment before its answer is read.
      await expect.poll(() => outcomes).toEqual(['refund_confirmed']);
      const made = paypal.refunds.find((refund) => refund.requestId === key)!;
      expect(made.customId).toBe(`shop-refund.${key}`);
      const rows = await refundsOf(paymentId);
      expect(rows.map((row) => [row.amountMinor, row.status, row.madeIn, row.providerRefundRef])).toEqual([
        [2_550, 'succeeded', 'shop', made.id],
      ]);
      expect((await auditOf(rows[0]!.id)).map((event) => event.action)).toEqual([
        'refund.requested',
        'refund.succeeded',
      ]);
      expect(await refundMailsOwed(rows[0]!.id)).toBe(1);
    } finally {
      paypal.beforeRefundAnswer = undefined;
    }

    // After the answer: the webhook finds the refund recorded.
    const later = await askRefund(orderId, 1_000, `paypal-late-${orderId}`);
    await settled(later.body.data.id);
    const lateRef = paypal.refunds.find((refund) => refund.requestId === `paypal-late-${orderId}`)!.id;
    expect(
      (await deliverPayPal(paypal.webhook('PAYMENT.CAPTURE.REFUNDED', providerRef, { refundId: lateRef }))).body.data
        .outcome,
    ).toBe('stale');
    expect((await refundsOf(paymentId)).map((row) => [row.amountMinor, row.madeIn])).toEqual([
      [2_550, 'shop'],
      [1_000, 'shop'],
    ]);
  });

  it('Stripe: the same, with the refund’s tag in its metadata', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id, 4_200, 'USD');
    const { paymentId } = await pay(orderId, 'card');
    const outcomes: string[] = [];
    stripe.beforeRefundAnswer = async (refund) => {
      const answer = await deliverStripe(stripe.refundWebhook('refund.created', refund.id));
      outcomes.push(answer.body.data?.outcome ?? `${answer.status} ${answer.body.msg}`);
    };
    try {
      const key = `stripe-early-${orderId}`;
      const asked = await askRefund(orderId, 1_200, key);
      await settled(asked.body.data.id);
      // The row is confirmed as the webhook's transaction commits, a moment before its answer is read.
      await expect.poll(() => outcomes).toEqual(['refund_confirmed']);
      const made = stripe.refunds.find((refund) => refund.idempotencyKey === key)!;
      expect(made.metadata).toEqual({ payment_id: String(paymentId), shop_refund: `shop-refund.${key}` });
      expect((await deliverStripe(stripe.refundWebhook('refund.updated', made.id))).body.data.outcome).toBe('stale');
      expect((await refundsOf(paymentId)).map((row) => [row.amountMinor, row.madeIn, row.providerRefundRef])).toEqual([
        [1_200, 'shop', made.id],
      ]);
    } finally {
      stripe.beforeRefundAnswer = undefined;
    }
  });
});

describe('a refund the shop gave up on that the gateway made after all', () => {
  it('Stripe: its tagged report settles the failed row, once', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id, 4_200, 'USD');
    const { paymentId } = await pay(orderId, 'card');
    const key = `stripe-gave-up-${orderId}`;
    const asked = await askRefund(orderId, 1_200, key);
    await settled(asked.body.data.id);
    const made = stripe.refunds.find((refund) => refund.idempotencyKey === key)!;
    // As the outbox leaves a refund whose every attempt timed out: failed, no gateway reference.
    await server.ctx.db
      .update(refunds)
      .set({ status: 'failed', providerRefundRef: null, succeededAt: null })
      .where(eq(refunds.id, asked.body.data.id));
    expect((await deliverStripe(stripe.refundWebhook('refund.updated', made.id))).body.data.outcome).toBe(
      'refund_confirmed',
    );
    expect((await deliverStripe(stripe.refundWebhook('refund.updated', made.id))).body.data.outcome).toBe('stale');
    expect((await refundsOf(paymentId)).map((row) => [row.status, row.amountMinor, row.providerRefundRef])).toEqual([
      ['succeeded', 1_200, made.id],
    ]);
  });
});

describe('the smallest refund of a charge in another currency', () => {
  it('refuses CN¥0.01 and CN¥0.02 of a yen charge (¥0 at 21.4567) with the smallest, CN¥0.03, in the member’s language; nothing is written', async () => {
    const orderId = await cnyOrderShownInYen();
    const { paymentId, chargeRef } = await pay(orderId, 'card');
    const tiny = await askRefund(orderId, 1, `tiny-one-${orderId}`);
    expect(tiny.status).toBe(400);
    expect(tiny.body.msg).toBe(
      'The smallest refund of this payment is CN¥0.03: it was charged in JPY, and CN¥0.01 is less than its smallest unit',
    );
    const inChinese = await askRefund(orderId, 2, `tiny-two-zh-${orderId}`, 'zh-cn');
    expect(inChinese.body.msg).toBe('该笔付款最少退款 CN¥0.03：它以 JPY 扣款，CN¥0.02 不足其最小单位');
    expect(await refundsOf(paymentId)).toEqual([]);

    // CN¥0.03 is ¥0.64, given back as ¥1.
    const smallest = await askRefund(orderId, 3, `smallest-${orderId}`);
    expect(smallest.status, smallest.body.msg).toBe(200);
    await settled(smallest.body.data.id);
    expect(
      stripe.refunds.filter((refund) => refund.payment_intent === chargeRef).map((refund) => refund.amount),
    ).toEqual(['1']);
  });
});
