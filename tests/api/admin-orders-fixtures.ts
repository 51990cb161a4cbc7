import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { orders, payments, sandboxGatewaySessions } from '../../server/db/schema';
import type { AppContext } from '../../server/context';
import { applyPaymentEvent } from '../../server/domains/payments/payments.service';
import { openSandboxSession } from '../../server/domains/payments/sandbox/sandbox-gateway.service';
import { makeOrder } from './payments-fixtures';

export { makeOrder };

/**
 * An order paid at the sandbox gateway: a session the gateway holds as paid and the
 * gateway's "payment succeeded" event applied as the webhook would (order 1 -> 10).
 */
export async function paidSandboxOrder(ctx: AppContext, userId: number, totalMinor: number) {
  return payAtSandbox(ctx, { orderId: await makeOrder(ctx, userId, totalMinor, 'CNY'), userId, totalMinor });
}

/** Pays an unpaid order of `userId` at the sandbox gateway (its total, in CNY). */
export async function payAtSandbox(ctx: AppContext, input: { orderId: number; userId: number; totalMinor: number }) {
  const { orderId, userId, totalMinor } = input;
  const [payment] = await ctx.db
    .insert(payments)
    .values({
      orderId,
      userId,
      provider: 'sandbox',
      method: 'sandbox',
      amountMinor: totalMinor,
      currency: 'CNY',
      chargedAmountMinor: totalMinor,
      chargedCurrency: 'CNY',
    })
    .returning();
  if (!payment) throw new Error('payment insert returned no row');
  const session = await openSandboxSession(ctx, {
    paymentId: payment.id,
    orderId,
    amountMinor: totalMinor,
    currency: 'CNY',
    locale: 'en',
    description: 'test order',
    successUrl: 'http://shop.test/ok',
    failUrl: 'http://shop.test/fail',
  });
  await ctx.db.update(payments).set({ providerRef: session.id }).where(eq(payments.id, payment.id));
  await ctx.db.update(sandboxGatewaySessions).set({ status: 'paid' }).where(eq(sandboxGatewaySessions.id, session.id));
  const outcome = await applyPaymentEvent(ctx, 'sandbox', {
    eventId: `evt_test_${randomUUID()}`,
    type: 'payment.succeeded',
    providerRef: session.id,
    amountMinor: totalMinor,
    currency: 'CNY',
    chargeRef: session.id,
  });
  if (outcome !== 'paid') throw new Error(`paying test order ${orderId}: ${outcome}`);
  return { orderId, paymentId: payment.id, sessionId: session.id };
}

/** An order with the given facts, for list filters: placed at `createdAt`, in `status`. */
export async function listedOrder(
  ctx: AppContext,
  userId: number,
  facts: {
    orderNo: string;
    createdAt: string;
    status: number;
    payStatus: number;
    totalMinor: number;
    country: string;
    contactName: string;
  },
): Promise<number> {
  const id = await makeOrder(ctx, userId, facts.totalMinor, 'CNY');
  const [row] = await ctx.db.select({ address: orders.address }).from(orders).where(eq(orders.id, id));
  await ctx.db
    .update(orders)
    .set({
      orderNo: facts.orderNo,
      createdAt: new Date(facts.createdAt),
      status: facts.status,
      payStatus: facts.payStatus,
      address: { ...row!.address, country_code: facts.country, contact_name: facts.contactName },
    })
    .where(eq(orders.id, id));
  return id;
}
