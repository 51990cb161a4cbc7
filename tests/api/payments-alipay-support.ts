import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { paymentEvents } from '../../server/db/schema';
import type { Buyer } from '../support/buyers';
import type { TestServer } from '../support/test-server';
import { orderRow, paymentRow } from './payments-fixtures';

/** The buyer asks to pay an order with Alipay; answers the payment, its out_trade_no and the cashier link. */
export async function startAlipay(server: TestServer, buyer: Buyer, orderId: number, userAgent?: string) {
  const response = await buyer.call('/v1/pay', {
    method: 'POST',
    body: { order_id: orderId, method: 'alipay' },
    headers: userAgent ? { 'user-agent': userAgent } : {},
  });
  expect(response.body.code, response.body.msg).toBe(200);
  const paymentId = response.body.data.payment_id as number;
  const outTradeNo = (await paymentRow(server.ctx, paymentId))!.providerRef!;
  return { paymentId, outTradeNo, redirectUrl: response.body.data.redirect_url as string };
}

/** Posts a notify body to the shop as Alipay does. */
export function deliverAlipayNotify(server: TestServer, body: string) {
  return server.request('/v1/pay/webhook/alipay', {
    method: 'POST',
    rawBody: body,
    headers: { lang: 'en', 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
  });
}

/** A refused notify left the order unpaid, the payment pending and no event for the trade's success. */
export async function expectUnpaid(server: TestServer, ids: { orderId: number; paymentId: number; tradeNo: string }) {
  expect(await orderRow(server.ctx, ids.orderId)).toMatchObject({ status: 1, payStatus: 1 });
  expect((await paymentRow(server.ctx, ids.paymentId))?.status).toBe('pending');
  expect(
    await server.ctx.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.eventId, `${ids.tradeNo}:TRADE_SUCCESS`)),
  ).toEqual([]);
}
