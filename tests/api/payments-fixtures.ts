import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { orders, orderStatusHistory, payments } from '../../server/db/schema';
import { signSandboxPayload } from '../../server/domains/payments/sandbox/sandbox-signature';
import type { AppContext } from '../../server/context';
import type { TestServer } from '../support/test-server';

export const SANDBOX_SECRET = 'sandbox-webhook-secret-for-tests-0123456789';

/** An unpaid order as checkout leaves it (status 1, pay status 1). */
export async function makeOrder(
  ctx: AppContext,
  userId: number,
  totalMinor = 12_345,
  currency = 'CNY',
): Promise<number> {
  const [order] = await ctx.db
    .insert(orders)
    .values({
      orderNo: `T${Date.now()}${Math.floor(Math.random() * 1e6)}`,
      userId,
      locale: 'en',
      currency,
      goodsAmountMinor: totalMinor - 1_000,
      shippingFeeMinor: 1_000,
      totalMinor,
      displayCurrency: currency,
      displayRateMicros: 1_000_000,
      displayTotalMinor: totalMinor,
      address: {
        country_code: 'CN',
        country_name: { en: 'China', 'zh-cn': '中国' },
        province_id: null,
        province_name: { en: 'Guangdong', 'zh-cn': '广东' },
        city_id: null,
        city_name: { en: 'Guangzhou', 'zh-cn': '广州' },
        detail: '88 Tianhe Road',
        postal_code: '510000',
        contact_name: 'Li Lei',
        contact_phone: '13812345678',
      },
      paymentDeadline: new Date(Date.now() + 30 * 60_000),
    })
    .returning({ id: orders.id });
  if (!order) throw new Error(`inserting an unpaid order for user ${userId} returned no row`);
  return order.id;
}

export async function orderRow(ctx: AppContext, orderId: number) {
  const [order] = await ctx.db.select().from(orders).where(eq(orders.id, orderId));
  return order;
}

/** What the payment-timeout sweep does to an unpaid order. */
export async function cancelOrder(ctx: AppContext, orderId: number): Promise<void> {
  await ctx.db.update(orders).set({ status: 60, payStatus: 3, cancelledAt: new Date() }).where(eq(orders.id, orderId));
}

export async function paymentRow(ctx: AppContext, paymentId: number) {
  const [payment] = await ctx.db.select().from(payments).where(eq(payments.id, paymentId));
  return payment;
}

export async function paidHistoryRows(ctx: AppContext, orderId: number): Promise<number> {
  const rows = await ctx.db.select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, orderId));
  return rows.filter((row) => row.actor === 'payment').length;
}

/** A sandbox webhook signed like the gateway signs them (tests know the secret). */
export function sandboxWebhook(
  server: Pick<TestServer, 'request'>,
  event: { id?: string; type: string; sessionId: string; amount: number; currency?: string; reference?: string },
  secret = SANDBOX_SECRET,
) {
  const body = JSON.stringify({
    id: event.id ?? `evt_test_${randomUUID()}`,
    type: event.type,
    created: Math.floor(Date.now() / 1000),
    data: {
      session_id: event.sessionId,
      reference: event.reference ?? '0',
      amount: event.amount,
      currency: event.currency ?? 'CNY',
    },
  });
  return server.request('/v1/pay/webhook/sandbox', {
    method: 'POST',
    rawBody: body,
    headers: { lang: 'en', 'content-type': 'application/json', 'sandbox-signature': signSandboxPayload(secret, body) },
  });
}
