import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context';
import type { Currency } from '../../shared/money';
import { createAlipayProvider } from './alipay-provider';
import { ACCEPTED_CURRENCIES, chargeCurrencyFor } from './charge-currency';
import type { CheckoutRequest } from './payment-provider';
import { createPayPalProvider } from './paypal-provider';
import { createSandboxProvider } from './sandbox/sandbox-provider';
import { createStripeProvider } from './stripe-provider';
import { startFakeAlipay, type FakeAlipay } from './testing/fake-alipay';
import { startFakePayPal, type FakePayPal } from './testing/fake-paypal';
import { startFakeStripe, type FakeStripe } from './testing/fake-stripe';

/*
 * No amount is ever sent at 1/100 or 100x (ADR 0144): each gateway's own request, made
 * against its local fake, carries the hand-written figure for a zero-decimal currency (JPY,
 * KRW) and a two-decimal one.
 */
const ctx = {} as AppContext;
const paypalKeys = { clientId: 'paypal-minor-units', clientSecret: 'paypal-minor-secret', webhookId: 'WH-MINOR-1' };
const rsa = (type: 'pkcs1' | 'pkcs8') =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type, format: 'pem' },
  });
const appKeys = rsa('pkcs1');
const alipayKeys = rsa('pkcs8');
const ALIPAY_APP_ID = '2021000000000144';

let stripeFake: FakeStripe;
let paypalFake: FakePayPal;
let alipayFake: FakeAlipay;

beforeAll(async () => {
  [stripeFake, paypalFake, alipayFake] = await Promise.all([
    startFakeStripe('whsec_minor_units'),
    startFakePayPal(paypalKeys),
    startFakeAlipay({ appId: ALIPAY_APP_ID, appPublicKey: appKeys.publicKey, alipayPrivateKey: alipayKeys.privateKey }),
  ]);
});
afterAll(async () => {
  await Promise.all([stripeFake?.close(), paypalFake?.close(), alipayFake?.close()]);
});

const stripe = () =>
  createStripeProvider({
    secretKey: 'sk_test_minor',
    webhookSecret: 'whsec_minor_units',
    apiBase: stripeFake.url,
    methods: ['card', 'alipay', 'wechat_pay'],
  });
const paypal = () => createPayPalProvider({ ...paypalKeys, environment: 'sandbox', apiBase: paypalFake.url });
const alipay = () =>
  createAlipayProvider({
    appId: ALIPAY_APP_ID,
    privateKey: appKeys.privateKey,
    alipayPublicKey: alipayKeys.publicKey,
    gateway: alipayFake.gateway,
  });

let paymentId = 100;
function checkout(
  method: CheckoutRequest['method'],
  amountMinor: number,
  currency: Currency,
  country = 'US',
): CheckoutRequest {
  paymentId++;
  return {
    paymentId,
    orderId: paymentId,
    method,
    amountMinor,
    currency,
    country,
    locale: 'en',
    description: `ORDER-${paymentId}`,
    successUrl: 'https://shop.test/en/result/success',
    failUrl: 'https://shop.test/en/result/fail',
  };
}

describe('amounts as each gateway receives them', () => {
  it('Stripe gets integer minor units: 21457 yen, 19685 won, 4167 cents', async () => {
    const sent = async (method: CheckoutRequest['method'], amount: number, currency: Currency) => {
      await stripe().createCheckout(ctx, checkout(method, amount, currency));
      const form = stripeFake.requests.at(-1)!.form;
      return [form.get('line_items[0][price_data][unit_amount]'), form.get('line_items[0][price_data][currency]')];
    };
    expect(await sent('card', 21_457, 'JPY')).toEqual(['21457', 'jpy']);
    expect(await sent('card', 19_685, 'KRW')).toEqual(['19685', 'krw']);
    expect(await sent('card', 4_167, 'USD')).toEqual(['4167', 'usd']);
    expect(await sent('wechat_pay', 2_137, 'JPY')).toEqual(['2137', 'jpy']);
  });

  it('PayPal gets value strings with the currency’s own decimals, and its breakdown adds up', async () => {
    const jpy = await paypal().createCheckout(ctx, {
      ...checkout('paypal', 21_457, 'JPY'),
      amountParts: { goodsMinor: 20_384, shippingMinor: 1_073, discountMinor: 0, dutiesMinor: 0 },
    });
    expect(paypalFake.orders.get(jpy.providerRef)!.purchaseUnit.amount).toEqual({
      currency_code: 'JPY',
      value: '21457',
      breakdown: {
        item_total: { currency_code: 'JPY', value: '20384' },
        shipping: { currency_code: 'JPY', value: '1073' },
      },
    });
    const usd = await paypal().createCheckout(ctx, checkout('paypal', 4_167, 'USD'));
    expect(paypalFake.orders.get(usd.providerRef)!.purchaseUnit.amount).toEqual({
      currency_code: 'USD',
      value: '41.67',
    });
  });

  it('PayPal is not offered for won (not on its list) nor yuan (in-country accounts only)', () => {
    expect(paypal().methodsFor({ currency: 'KRW', country: 'KR' })).toEqual([]);
    expect(paypal().methodsFor({ currency: 'CNY', country: 'US' })).toEqual([]);
  });

  it('Alipay directly gets yuan with two decimals and refuses any other currency before calling out', async () => {
    const session = await alipay().createCheckout(ctx, checkout('alipay', 100_000, 'CNY', 'CN'));
    const bizContent = JSON.parse(new URL(session.redirectUrl).searchParams.get('biz_content')!);
    expect(bizContent.total_amount).toBe('1000.00');
    await expect(alipay().createCheckout(ctx, checkout('alipay', 21_457, 'JPY'))).rejects.toThrow(/CNY only/);
    await expect(alipay().createCheckout(ctx, checkout('alipay', 19_685, 'KRW'))).rejects.toThrow(/CNY only/);
  });
});

describe('which currency a method charges (one rule)', () => {
  const order = (displayCurrency: Currency, country = 'US') => ({
    displayCurrency,
    settlementCurrency: 'CNY' as const,
    country,
  });

  it('charges the buyer’s currency where the provider’s method takes it, else the settlement currency, else nothing', () => {
    expect(chargeCurrencyFor(stripe(), 'card', order('KRW'))).toBe('KRW');
    expect(chargeCurrencyFor(stripe(), 'alipay', order('KRW'))).toBe('CNY');
    expect(chargeCurrencyFor(stripe(), 'alipay', order('HKD'))).toBe('HKD');
    expect(chargeCurrencyFor(paypal(), 'paypal', order('USD'))).toBe('USD');
    expect(chargeCurrencyFor(paypal(), 'paypal', order('KRW'))).toBeNull();
    expect(chargeCurrencyFor(alipay(), 'alipay', order('JPY', 'CN'))).toBe('CNY');
    expect(chargeCurrencyFor(createSandboxProvider('sandbox-secret'), 'sandbox', order('KRW'))).toBe('KRW');
  });

  it('lists what each provider takes with each method', () => {
    expect(ACCEPTED_CURRENCIES.alipay).toEqual({ alipay: new Set(['CNY']) });
    expect(ACCEPTED_CURRENCIES.sandbox).toEqual({ sandbox: 'any' });
    const paypalList = ACCEPTED_CURRENCIES.paypal.paypal as ReadonlySet<string>;
    expect(['USD', 'EUR', 'GBP', 'JPY', 'AUD', 'CAD', 'HKD'].every((code) => paypalList.has(code))).toBe(true);
    expect(['CNY', 'KRW', 'HUF', 'TWD'].some((code) => paypalList.has(code))).toBe(false);
  });
});
