import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refunds } from '../../server/db/schema';
import { createAlipayProvider } from '../../server/domains/payments/alipay-provider';
import { PERMISSIONS } from '../../server/domains/staff/permissions';
import { startFakeAlipay, type FakeAlipay } from '../../server/domains/payments/testing/fake-alipay';
import { makeBuyer, type Buyer } from '../support/buyers';
import { createSignedInStaff, type TestStaff } from '../support/staff';
import { startTestServer, type TestServer } from '../support/test-server';
import { makeOrder, orderRow, paidHistoryRows, paymentRow } from './payments-fixtures';
import { deliverAlipayNotify, expectUnpaid, startAlipay } from './payments-alipay-support';

/**
 * Alipay's public-key certificate mode (公钥证书模式, ADR 0143) against the local fake: the SDK
 * computes app_cert_sn and alipay_root_cert_sn from the certificates and sends them with every
 * call; the fake finds the app's key by that SN, and signs answers and notifies with the key of
 * "Alipay's" certificate. The certificates are the committed test fixtures made by
 * tests/fixtures/alipay-cert/make-certs.sh, whose fixed serial numbers give the SNs below.
 */
const APP_ID = '2021000000000042';
const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/alipay-cert/${name}`, import.meta.url));
const text = (name: string) => readFileSync(fixture(name), 'utf8');
const APP = 'appCertPublicKey_2021000000000042';
const ALIPAY = 'alipayCertPublicKey_RSA2';
const STRANGER = 'strangerCertPublicKey_RSA2';
/** md5 of each certificate's issuer and decimal serial; the root's joins its two RSA-signed roots (the EC root does not count). */
const APP_CERT_SN = 'd275efbcd74ef65a2061a0e1c6678e4d';
const ALIPAY_CERT_SN = 'ae11659e942caa4a2c61a15548bc1151';
const ROOT_CERT_SN = '339208cb2977442557a307bcd4309016_0408897d9536010eac049c1936307f52';

let fake: FakeAlipay;
let server: TestServer;
let buyer: Buyer;
let owner: TestStaff;

beforeAll(async () => {
  fake = await startFakeAlipay({
    appId: APP_ID,
    appPublicKey: text(`${APP}.crt`),
    alipayPrivateKey: text(`${ALIPAY}.key`),
    notifyRetryMs: 200,
    certificates: { appCertSn: APP_CERT_SN, alipayRootCertSn: ROOT_CERT_SN, alipayCertSn: ALIPAY_CERT_SN },
  });
  server = await startTestServer({
    ALIPAY_APP_ID: APP_ID,
    ALIPAY_PRIVATE_KEY: text(`${APP}.key`),
    // Both forms operators use: a file's path, and its text pasted with `\n` written out.
    ALIPAY_APP_CERT: fixture(`${APP}.crt`),
    ALIPAY_PUBLIC_CERT: text(`${ALIPAY}.crt`).trim().replaceAll('\n', '\\n'),
    ALIPAY_ROOT_CERT: fixture('alipayRootCert.crt'),
    ALIPAY_GATEWAY: fake.gateway,
  });
  buyer = await makeBuyer(server);
  owner = await createSignedInStaff(server, { permissions: PERMISSIONS, refundLimitMinor: null });
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const startPaying = (orderId: number) => startAlipay(server, buyer, orderId);
const deliver = (body: string) => deliverAlipayNotify(server, body);

/** What the fake answered the shop's last call of a method. */
const lastCall = (method: string) => fake.requests.filter((request) => request.method === method).at(-1);

describe('alipay in certificate mode (alipay-sdk against a local fake gateway)', () => {
  it('sends page pay with both certificate SNs, and the fake notify, checked with Alipay certificate key, is answered "success"', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id, 12_345, 'CNY');
    const { paymentId, outTradeNo, redirectUrl } = await startPaying(orderId);
    const link = new URL(redirectUrl);
    expect(link.searchParams.get('method')).toBe('alipay.trade.page.pay');
    expect(link.searchParams.get('app_cert_sn')).toBe(APP_CERT_SN);
    expect(link.searchParams.get('alipay_root_cert_sn')).toBe(ROOT_CERT_SN);
    const cashier = await fetch(redirectUrl);
    expect(cashier.status).toBe(200);
    expect(await cashier.text()).toContain('¥123.45');
    expect(lastCall('alipay.trade.page.pay')).toEqual({ method: 'alipay.trade.page.pay', verified: true });

    await fake.pay(outTradeNo); // the fake posts its signed notify to the listening shop and awaits the answer
    expect(fake.deliveries.filter((delivery) => delivery.outTradeNo === outTradeNo)).toEqual([
      { outTradeNo, status: 200, body: 'success' },
    ]);
    const tradeNo = fake.trades.get(outTradeNo)!.tradeNo;
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 10, payStatus: 2 });
    expect(await paymentRow(server.ctx, paymentId)).toMatchObject({ status: 'succeeded', chargeRef: tradeNo });
    expect(await paidHistoryRows(server.ctx, orderId)).toBe(1);
  });

  it('asks alipay.trade.query on a signed return and takes its answer, signed with the key of Alipay certificate', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id, 7_700, 'CNY');
    const { paymentId, outTradeNo, redirectUrl } = await startPaying(orderId);
    await fetch(redirectUrl);
    fake.holdNotifies(true);
    const back = new URL(await fake.pay(outTradeNo));
    fake.holdNotifies(false);
    const queries = fake.requests.filter((request) => request.method === 'alipay.trade.query').length;

    const page = await server.request(`${back.pathname}${back.search}`, {
      cookies: { access_token: buyer.headers.token },
    });
    expect(page.status).toBe(200);
    expect(fake.requests.filter((request) => request.method === 'alipay.trade.query')).toHaveLength(queries + 1);
    expect(lastCall('alipay.trade.query')).toEqual({ method: 'alipay.trade.query', verified: true });
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 10, payStatus: 2 });
    expect(await paymentRow(server.ctx, paymentId)).toMatchObject({
      status: 'succeeded',
      chargeRef: fake.trades.get(outTradeNo)!.tradeNo,
    });
  });

  it('refunds through the console with a certificate-mode call', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id, 10_000, 'CNY');
    const { paymentId, outTradeNo, redirectUrl } = await startPaying(orderId);
    await fetch(redirectUrl);
    await fake.pay(outTradeNo);
    await expect.poll(async () => (await paymentRow(server.ctx, paymentId))?.status).toBe('succeeded');

    const refund = await owner.request(`/v1/admin/orders/${orderId}/refunds`, {
      method: 'POST',
      body: { amount_minor: 2_550, reason: 'Damaged in transit', idempotency_key: `cert-part-${paymentId}` },
    });
    expect(refund.status).toBe(200);
    await expect
      .poll(
        async () => (await server.ctx.db.select().from(refunds).where(eq(refunds.id, refund.body.data.id)))[0]?.status,
        { timeout: 10_000 },
      )
      .toBe('succeeded');
    expect(fake.refunds.filter((made) => made.outTradeNo === outTradeNo)).toEqual([
      { outTradeNo, outRequestNo: `cert_part_${paymentId}`, refundFen: 2_550 },
    ]);
    expect(lastCall('alipay.trade.refund')).toEqual({ method: 'alipay.trade.refund', verified: true });
    expect(fake.trades.get(outTradeNo)).toMatchObject({ refundedFen: 2_550, status: 'TRADE_SUCCESS' });
  });

  it('refuses a notify signed with the key of another certificate (400, not "success"), and changes nothing', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id, 8_800, 'CNY');
    const { paymentId, outTradeNo, redirectUrl } = await startPaying(orderId);
    await fetch(redirectUrl);
    const tradeNo = fake.trades.get(outTradeNo)!.tradeNo;

    // A certificate from the same root, but not Alipay's; and the app's own certificate's key.
    for (const key of [`${STRANGER}.key`, `${APP}.key`]) {
      const forged = await deliver(fake.notify(outTradeNo, 'TRADE_SUCCESS', { signWith: text(key) }));
      expect(forged.status).toBe(400);
      expect(forged.body).toEqual({ code: 400, msg: 'Invalid webhook signature', data: null });
    }
    await expectUnpaid(server, { orderId, paymentId, tradeNo });
  });

  it('is refused by the fake when it names an app certificate or root certificate Alipay does not hold for the app', async () => {
    const lookup = {
      paymentId: 1,
      providerRef: 'pay_1_000000000000',
      method: 'alipay',
      amountMinor: 100,
      currency: 'CNY',
    } as const;
    const checkout = {
      paymentId: 1,
      orderId: 1,
      method: 'alipay',
      amountMinor: 100,
      currency: 'CNY',
      country: 'CN',
      locale: 'en',
      description: 'ORDER-1',
      successUrl: 'https://shop.test/en/result/success',
      failUrl: 'https://shop.test/en/result/fail',
    } as const;
    // Another app certificate (and its key: the shop signs correctly, for a certificate Alipay never issued to this app).
    const otherApp = createAlipayProvider({
      appId: APP_ID,
      privateKey: text(`${STRANGER}.key`),
      certificates: {
        app: fixture(`${STRANGER}.crt`),
        alipay: fixture(`${ALIPAY}.crt`),
        root: fixture('alipayRootCert.crt'),
      },
      gateway: fake.gateway,
    });
    const refused = await fetch((await otherApp.createCheckout(server.ctx, checkout)).redirectUrl);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toBe('isv.app-cert-not-exist');
    await expect(otherApp.lookupPayment(server.ctx, lookup)).rejects.toThrow(
      'alipay: query refused: 40002 isv.app-cert-not-exist',
    );
    expect(lastCall('alipay.trade.query')).toEqual({
      method: 'alipay.trade.query',
      verified: false,
      refusal: 'isv.app-cert-not-exist',
    });

    // An outdated root file (one of Alipay's two RSA roots): its SN no longer matches.
    const rootPem = text('alipayRootCert.crt');
    const oldRoot = createAlipayProvider({
      appId: APP_ID,
      privateKey: text(`${APP}.key`),
      certificates: {
        app: fixture(`${APP}.crt`),
        alipay: fixture(`${ALIPAY}.crt`),
        root: rootPem.slice(0, rootPem.indexOf('-----END CERTIFICATE-----') + 25),
      },
      gateway: fake.gateway,
    });
    await expect(oldRoot.lookupPayment(server.ctx, lookup)).rejects.toThrow(
      'alipay: query refused: 40002 isv.invalid-alipay-root-cert-sn',
    );
  });
});
