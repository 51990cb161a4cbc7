import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments } from '../../server/db/schema';
import { startFakeStripe, type FakeStripe } from '../../server/domains/payments/testing/fake-stripe';
import { makeBuyer } from '../support/buyers';
import { useBrowserSuite } from '../support/browser';
import { makeOrder, orderRow } from '../api/payments-fixtures';

/**
 * Several methods on the pay page in Chromium (ADR 0141): Stripe's card, Alipay and WeChat Pay
 * beside the sandbox (SANDBOX_PAYMENTS=on). The buyer picks the sandbox in the list and pays
 * there; the list works without client code (a radio group in the form).
 */
const WEBHOOK_SECRET = 'whsec_browser_methods_secret';
let fake: FakeStripe;

beforeAll(async () => {
  fake = await startFakeStripe(WEBHOOK_SECRET);
});
afterAll(async () => {
  await fake?.close();
});

const suite = useBrowserSuite({
  env: () => ({
    STRIPE_SECRET_KEY: 'sk_test_browser_methods',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: fake.url,
    SANDBOX_PAYMENTS: 'on',
  }),
});

describe.each([
  { locale: 'en', sandbox: 'Test payment', card: 'Credit or debit card', viewport: { width: 1280, height: 800 } },
  { locale: 'zh-cn', sandbox: '测试支付', card: '信用卡或借记卡', viewport: { width: 390, height: 844 } },
] as const)('choosing how to pay ($locale)', ({ locale, sandbox, card, viewport }) => {
  it('lists the methods with the first chosen, and pays with the sandbox when the buyer picks it', async () => {
    const buyer = await makeBuyer(suite.server);
    const orderId = await makeOrder(suite.server.ctx, buyer.id, 9_900, 'CNY');
    const page = await suite.open({ viewport });
    await suite.context.addCookies([{ name: 'access_token', value: buyer.headers.token, url: suite.server.url }]);

    await page.goto(`${suite.server.url}/${locale}/order/pay?order_id=${orderId}`);
    const radios = page.getByTestId('pay-methods').getByRole('radio');
    expect(await radios.count()).toBe(4);
    expect(await page.getByRole('radio', { name: new RegExp(card) }).isChecked()).toBe(true);

    // Clicking anywhere on the row picks it.
    await page.getByTestId('pay-method-sandbox').click();
    expect(await page.getByRole('radio', { name: new RegExp(sandbox) }).isChecked()).toBe(true);
    await page.getByTestId('pay-button').click();
    await page.waitForURL(/\/sandbox-gateway\/checkout\//);
    await page.locator('button.pay').click();
    await page.waitForURL(new RegExp(`/${locale}/result/success\\?order_id=${orderId}`));
    await expect
      .poll(() => page.getByTestId('payment-result').getAttribute('data-outcome'), { timeout: 20_000 })
      .toBe('success');

    expect(await orderRow(suite.server.ctx, orderId)).toMatchObject({ status: 10, payStatus: 2 });
    const [payment] = await suite.server.ctx.db.select().from(payments).where(eq(payments.orderId, orderId));
    expect(payment).toMatchObject({
      provider: 'sandbox',
      method: 'sandbox',
      status: 'succeeded',
    });
    // Nothing was opened at Stripe for this order.
    expect(fake.requests.filter((request) => request.form.get('metadata[order_id]') === String(orderId))).toEqual([]);
  });
});
