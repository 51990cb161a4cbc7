import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAlipay, type FakeAlipay } from '../../server/domains/payments/testing/fake-alipay';
import { makeBuyer } from '../support/buyers';
import { useBrowserSuite } from '../support/browser';
import { makeOrder, orderRow, paymentRow } from '../api/payments-fixtures';

/**
 * Paying with Alipay in Chromium (ADR 0143): the pay page sends the buyer to the local fake
 * Alipay's cashier (page pay on a desktop, mobile-web pay on a phone), Pay there sends the
 * signed notify to the shop and the buyer back with signed return parameters, and the result
 * page shows the order paid. The key pairs are made here.
 */
const APP_ID = '2021000000000088';
const rsaPair = () =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
const app = rsaPair();
const alipay = rsaPair();
let fake: FakeAlipay;

beforeAll(async () => {
  fake = await startFakeAlipay({ appId: APP_ID, appPublicKey: app.publicKey, alipayPrivateKey: alipay.privateKey });
});
afterAll(async () => {
  await fake?.close();
});

const suite = useBrowserSuite({
  env: () => ({
    ALIPAY_APP_ID: APP_ID,
    ALIPAY_PRIVATE_KEY: app.privateKey,
    ALIPAY_PUBLIC_KEY: alipay.publicKey,
    ALIPAY_GATEWAY: fake.gateway,
  }),
});

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

describe.each([
  { locale: 'en', device: 'desktop', cashier: 'FAST_INSTANT_TRADE_PAY', viewport: { width: 1280, height: 800 } },
  { locale: 'zh-cn', device: 'phone', cashier: 'QUICK_WAP_WAY', viewport: { width: 390, height: 844 } },
] as const)('paying with Alipay ($locale, $device)', ({ locale, device, cashier, viewport }) => {
  it('goes through the fake Alipay cashier and lands on the result page with the order paid', async () => {
    const buyer = await makeBuyer(suite.server);
    const orderId = await makeOrder(suite.server.ctx, buyer.id, 25_800, 'CNY');
    const page = await suite.open({ viewport, ...(device === 'phone' ? { userAgent: IPHONE, isMobile: true } : {}) });
    await suite.context.addCookies([{ name: 'access_token', value: buyer.headers.token, url: suite.server.url }]);

    await page.goto(`${suite.server.url}/${locale}/order/pay?order_id=${orderId}`);
    // Alipay is the one method configured for a CNY order here: listed with its name, and chosen.
    const alipayChoice = page.getByTestId('pay-method-alipay');
    expect(await alipayChoice.innerText()).toContain(locale === 'en' ? 'Alipay' : '支付宝');
    await alipayChoice.locator('input[type=radio]').check();
    await page.getByTestId('pay-button').click();

    await page.waitForURL((url) => url.href.startsWith(fake.gateway));
    expect(await page.locator('#alipay-amount').innerText()).toBe('¥258.00');
    expect(await page.locator('main').innerText()).toContain(cashier);
    await page.locator('#alipay-pay').click();

    await page.waitForURL(new RegExp(`/${locale}/result/success\\?order_id=${orderId}&`));
    await expect
      .poll(() => page.getByTestId('payment-result').getAttribute('data-outcome'), { timeout: 20_000 })
      .toBe('success');
    expect(await orderRow(suite.server.ctx, orderId)).toMatchObject({ status: 10, payStatus: 2 });
    const [trade] = [...fake.trades.values()].filter((candidate) => candidate.totalFen === 25_800).slice(-1);
    expect(trade).toMatchObject({ productCode: cashier, status: 'TRADE_SUCCESS' });
    const paymentId = Number(trade!.outTradeNo.split('_')[1]);
    expect(await paymentRow(suite.server.ctx, paymentId)).toMatchObject({
      status: 'succeeded',
      chargeRef: trade!.tradeNo,
    });
  });
});
