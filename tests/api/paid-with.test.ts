import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { exchangeRates, orders } from '../../server/db/schema';
import { orderMailData, renderOrderMail } from '../../server/domains/orders/order-mail';
import { bumpContentVersion } from '../../server/shared/content-version';
import { makeBuyer, type Buyer } from '../support/buyers';
import { useTestServer } from '../support/test-server';
import { makeOrder, orderRow, SANDBOX_SECRET } from './payments-fixtures';

/**
 * What the buyer is told they paid (ADR 0144): the pay page says the exact amount when every
 * method charges their own currency, and once paid the order detail, the result page and the
 * "payment received" mail show what the gateway took, in the currency it charged.
 */
const server = useTestServer({ PAYMENT_PROVIDER: 'sandbox', SANDBOX_WEBHOOK_SECRET: SANDBOX_SECRET });
let buyer: Buyer;

beforeAll(async () => {
  buyer = await makeBuyer(server);
});

/** An unpaid CNY 100.00 order the buyer saw in `display` at `rateMicros`, as checkout froze it. */
async function orderShownIn(display: string, rateMicros: number, displayTotal: number): Promise<number> {
  const orderId = await makeOrder(server.ctx, buyer.id, 10_000, 'CNY');
  await server.ctx.db
    .update(orders)
    .set({ displayCurrency: display, displayRateMicros: rateMicros, displayTotalMinor: displayTotal })
    .where(eq(orders.id, orderId));
  return orderId;
}

/** Pays through the sandbox's hosted page and waits for its webhook to mark the order paid. */
async function payInSandbox(orderId: number): Promise<void> {
  const started = await buyer.call('/v1/pay', { method: 'POST', body: { order_id: orderId } });
  expect(started.body.code, started.body.msg).toBe(200);
  const pressed = await server.request(`${started.body.data.redirect_url as string}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    rawBody: '',
  });
  expect(pressed.status).toBeLessThan(400);
  await expect.poll(async () => (await orderRow(server.ctx, orderId))?.payStatus, { timeout: 15_000 }).toBe(2);
}

async function page(path: string): Promise<string> {
  const answer = await server.request(path, { headers: { cookie: `access_token=${buyer.headers.token}` } });
  expect(answer.status).toBe(200);
  return answer.text;
}

describe('what the buyer is told they paid', () => {
  it('charges a CNY 100.00 order shown in EUR exactly €13.02, and says so on the pay page, the order, the result page and the mail', async () => {
    // CNY 100.00 x 0.1302 = EUR 13.02.
    const orderId = await orderShownIn('EUR', 130_200, 1_302);
    const payPage = await page(`/en/order/pay?order_id=${orderId}`);
    expect(payPage).toContain('Settles as CN¥100.00 at the order’s rate');
    expect(payPage).toContain('Pay €13.02');

    await payInSandbox(orderId);
    const detail = await buyer.call(`/v1/order/${orderId}`);
    expect(detail.body.data.paid_with).toEqual({
      method: 'sandbox',
      method_name: 'Test payment',
      charged_amount_minor: 1_302,
      charged_currency: 'EUR',
      charged_text: '€13.02',
    });
    const inChinese = await buyer.call(`/v1/order/${orderId}`, { headers: { lang: 'zh-cn' } });
    expect(inChinese.body.data.paid_with).toMatchObject({ method_name: '测试支付', charged_text: '€13.02' });

    expect(await page(`/en/my/order/${orderId}`)).toContain('€13.02 by Test payment');
    expect(await page(`/zh-cn/my/order/${orderId}`)).toContain('13.02欧元（测试支付）');
    const result = await page(`/en/result/success?order_id=${orderId}`);
    expect(result).toContain('€13.02');
    expect(result).toContain('Paid with Test payment');

    const mail = await orderMailData(server.ctx, orderId);
    expect(renderOrderMail('paid', mail!.data).text).toContain(
      'We received your payment of €13.02 by Test payment for order',
    );
  });

  it('charges CNY while the display currency’s rate is stale, and the paid order says CN¥, not yen', async () => {
    await server.ctx.db
      .update(exchangeRates)
      .set({ setAt: new Date(Date.now() - 73 * 3_600_000) })
      .where(eq(exchangeRates.currency, 'JPY'));
    await bumpContentVersion(server.ctx);
    const orderId = await orderShownIn('JPY', 21_370_000, 2_137);
    const payPage = await page(`/en/order/pay?order_id=${orderId}`);
    expect(payPage).not.toContain('Settles as');
    expect(payPage).toContain('Pay CN¥100.00');

    await payInSandbox(orderId);
    const detail = await buyer.call(`/v1/order/${orderId}`);
    expect(detail.body.data.paid_with).toMatchObject({
      charged_amount_minor: 10_000,
      charged_currency: 'CNY',
      charged_text: 'CN¥100.00',
    });
  });

  it('shows no payment on an order that is not paid yet', async () => {
    const orderId = await orderShownIn('USD', 138_900, 1_389);
    expect((await buyer.call(`/v1/order/${orderId}`)).body.data.paid_with).toBeNull();
    expect(await page(`/en/my/order/${orderId}`)).not.toContain('data-testid="detail-paid-with"');
  });
});
