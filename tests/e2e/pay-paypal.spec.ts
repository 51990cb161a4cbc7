import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakePayPal, type FakePayPal } from '../../server/domains/payments/testing/fake-paypal';
import { makeBuyer } from '../support/buyers';
import { useBrowserSuite } from '../support/browser';
import { makeOrder, orderRow, paymentRow } from '../api/payments-fixtures';

/**
 * Paying with PayPal in Chromium (ADR 0142): the pay page sends the buyer to the local fake
 * PayPal's approval page; Approve sends them back to the result page, whose loader has the shop
 * capture the approved order, and the page shows the order paid. Cancel brings them back to the
 * fail page with the order still payable.
 */
const credentials = { clientId: 'paypal-e2e-client', clientSecret: 'paypal-e2e-secret', webhookId: 'WH-E2E-0001' };
let fake: FakePayPal;

beforeAll(async () => {
  fake = await startFakePayPal(credentials);
});
afterAll(async () => {
  await fake?.close();
});

const suite = useBrowserSuite({
  env: () => ({
    PAYPAL_CLIENT_ID: credentials.clientId,
    PAYPAL_CLIENT_SECRET: credentials.clientSecret,
    PAYPAL_WEBHOOK_ID: credentials.webhookId,
    PAYPAL_API_BASE: fake.url,
  }),
});

async function payPageOf(locale: 'en' | 'zh-cn', viewport: { width: number; height: number }, totalMinor: number) {
  const buyer = await makeBuyer(suite.server);
  const orderId = await makeOrder(suite.server.ctx, buyer.id, totalMinor, 'USD');
  const page = await suite.open({ viewport });
  await suite.context.addCookies([{ name: 'access_token', value: buyer.headers.token, url: suite.server.url }]);
  await page.goto(`${suite.server.url}/${locale}/order/pay?order_id=${orderId}`);
  const choice = page.getByTestId('pay-method-paypal');
  expect(await choice.innerText()).toContain('PayPal');
  await choice.locator('input[type=radio]').check();
  await page.getByTestId('pay-button').click();
  await page.waitForURL((url) => url.href.startsWith(`${fake.url}/checkoutnow?token=`));
  return { page, orderId, providerRef: new URL(page.url()).searchParams.get('token')! };
}

describe.each([
  { locale: 'en', viewport: { width: 1280, height: 800 } },
  { locale: 'zh-cn', viewport: { width: 390, height: 844 } },
] as const)('paying with PayPal ($locale, $viewport.width px)', ({ locale, viewport }) => {
  it('approves on the fake PayPal page and lands on the result page with the order paid', async () => {
    const { page, orderId, providerRef } = await payPageOf(locale, viewport, 12_900);
    expect(await page.locator('#paypal-amount').innerText()).toBe('129.00 USD');
    await page.locator('#paypal-approve').click();

    await page.waitForURL(new RegExp(`/${locale}/result/success\\?order_id=${orderId}&token=${providerRef}`));
    await expect
      .poll(() => page.getByTestId('payment-result').getAttribute('data-outcome'), { timeout: 20_000 })
      .toBe('success');
    expect(await orderRow(suite.server.ctx, orderId)).toMatchObject({ status: 10, payStatus: 2 });
    const capture = fake.orders.get(providerRef)!.captures;
    expect(capture).toEqual([
      expect.objectContaining({ status: 'COMPLETED', amount: { currency_code: 'USD', value: '129.00' } }),
    ]);
    const paymentId = Number(fake.orders.get(providerRef)!.purchaseUnit.custom_id);
    expect(await paymentRow(suite.server.ctx, paymentId)).toMatchObject({
      status: 'succeeded',
      chargeRef: capture[0]!.id,
    });
  });
});

describe('cancelling at PayPal', () => {
  it('comes back to the fail page and the order can still be paid', async () => {
    const { page, orderId } = await payPageOf('en', { width: 1280, height: 800 }, 5_000);
    await page.locator('#paypal-cancel').click();
    await page.waitForURL(new RegExp(`/en/result/fail\\?order_id=${orderId}&token=`));
    expect(await page.getByTestId('payment-result').getAttribute('data-outcome')).toBe('fail');
    expect(await orderRow(suite.server.ctx, orderId)).toMatchObject({ status: 1, payStatus: 1 });
  });
});
