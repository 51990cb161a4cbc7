import { generateKeyPairSync } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentEvents, payments, refunds } from '../../server/db/schema';
import { PERMISSIONS } from '../../server/domains/staff/permissions';
import { startFakeAlipay, type FakeAlipay } from '../../server/domains/payments/testing/fake-alipay';
import { makeBuyer, type Buyer } from '../support/buyers';
import { createSignedInStaff, type TestStaff } from '../support/staff';
import { startTestServer, type TestServer } from '../support/test-server';
import { cancelOrder, makeOrder, orderRow, paidHistoryRows, paymentRow } from './payments-fixtures';
import { deliverAlipayNotify, expectUnpaid, startAlipay } from './payments-alipay-support';

/**
 * Alipay through the official SDK against a local fake gateway (ADR 0143): the shop's RSA2
 * requests are checked by the fake with the app's public key; the fake signs notifies, return
 * parameters and answers with "Alipay's" key, whose public half the shop is given. Both key
 * pairs are made here.
 */
const APP_ID = '2021000000000042';
const rsaPair = (type: 'pkcs1' | 'pkcs8') =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type, format: 'pem' },
  });
const app = rsaPair('pkcs1');
const alipay = rsaPair('pkcs8');
const stranger = rsaPair('pkcs8');
/** As Alipay's key tool writes keys: bare base64 of the DER, no PEM lines. */
const bareBase64 = (pem: string) => pem.replace(/-----[A-Z ]+-----|\s/g, '');

let fake: FakeAlipay;
let server: TestServer;
let buyer: Buyer;
let owner: TestStaff;

beforeAll(async () => {
  fake = await startFakeAlipay({
    appId: APP_ID,
    appPublicKey: app.publicKey,
    alipayPrivateKey: alipay.privateKey,
    notifyRetryMs: 200,
  });
  server = await startTestServer({
    ALIPAY_APP_ID: APP_ID,
    ALIPAY_PRIVATE_KEY: bareBase64(app.privateKey),
    ALIPAY_PUBLIC_KEY: bareBase64(alipay.publicKey),
    ALIPAY_GATEWAY: fake.gateway,
  });
  buyer = await makeBuyer(server);
  owner = await createSignedInStaff(server, { permissions: PERMISSIONS, refundLimitMinor: null });
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const DESKTOP_CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

const startPaying = (orderId: number, userAgent = DESKTOP_CHROME) => startAlipay(server, buyer, orderId, userAgent);

/** The buyer opens the cashier link the shop gave (the fake checks the shop's signature and opens the trade). */
async function openCashier(redirectUrl: string) {
  const page = await fetch(redirectUrl);
  return { status: page.status, html: await page.text() };
}

const deliver = (body: string) => deliverAlipayNotify(server, body);

async function eventsOf(paymentId: number) {
  return server.ctx.db
    .select({ eventId: paymentEvents.eventId, type: paymentEvents.type, outcome: paymentEvents.outcome })
    .from(paymentEvents)
    .where(eq(paymentEvents.paymentId, paymentId))
    .orderBy(paymentEvents.id);
}

describe('alipay payments (alipay-sdk against a local fake gateway)', () => {
  it('sends a desktop buyer to page pay for the order amount in yuan and marks the order paid on the TRADE_SUCCESS notify, answered "success"', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id, 12_345, 'CNY');
    const { paymentId, outTradeNo, redirectUrl } = await startPaying(orderId);
    expect(outTradeNo).toMatch(new RegExp(`^pay_${paymentId}_[0-9a-f]{12}$`));
    const link = new URL(redirectUrl);
    expect(`${link.origin}${link.pathname}`).toBe(fake.gateway);
    expect(link.searchParams.get('method')).toBe('alipay.trade.page.pay');
    expect(link.searchParams.get('sign_type')).toBe('RSA2');
    expect(link.searchParams.get('return_url')).toBe(`${server.url}/en/result/success?order_id=${orderId}`);
    expect(link.searchParams.get('notify_url')).toBe(`${server.url}/v1/pay/webhook/alipay`);
    expect(JSON.parse(link.searchParams.get('biz_content')!)).toEqual({
      out_trade_no: outTradeNo,
      total_amount: '123.45',
      subject: (await orderRow(server.ctx, orderId))!.orderNo,
      product_code: 'FAST_INSTANT_TRADE_PAY',
    });

    const cashier = await openCashier(redirectUrl);
    expect(cashier.status).toBe(200);
    expect(cashier.html).toContain('¥123.45');
    expect(fake.requests.at(-1)).toEqual({ method: 'alipay.trade.page.pay', verified: true });

    fake.holdNotifies(true);
    await fake.pay(outTradeNo);
    fake.holdNotifies(false);
    const tradeNo = fake.trades.get(outTradeNo)!.tradeNo;
    const notify = fake.notify(outTradeNo, 'TRADE_SUCCESS');
    const response = await deliver(notify);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(response.text).toBe('success');
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 10, payStatus: 2 });
    expect(await paymentRow(server.ctx, paymentId)).toMatchObject({ status: 'succeeded', chargeRef: tradeNo });

    // Alipay repeats a notify until it reads "success" (and sometimes after): the same news changes nothing.
    expect((await deliver(notify)).text).toBe('success');
    expect((await deliver(fake.notify(outTradeNo, 'TRADE_SUCCESS'))).text).toBe('success');
    expect(await paidHistoryRows(server.ctx, orderId)).toBe(1);
    expect(await eventsOf(paymentId)).toEqual([
      { eventId: `${tradeNo}:TRADE_SUCCESS`, type: 'payment.succeeded', outcome: 'paid' },
    ]);
  });

  it('sends a phone to mobile-web pay (wap), whose back button returns to the fail page', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id, 5_000, 'CNY');
    const { outTradeNo, redirectUrl } = await startPaying(orderId, IPHONE_SAFARI);
    const link = new URL(redirectUrl);
    expect(link.searchParams.get('method')).toBe('alipay.trade.wap.pay');
    expect(JSON.parse(link.searchParams.get('biz_content')!)).toEqual({
      out_trade_no: outTradeNo,
      total_amount: '50.00',
      subject: (await orderRow(server.ctx, orderId))!.orderNo,
      product_code: 'QUICK_WAP_WAY',
      quit_url: `${server.url}/en/result/fail?order_id=${orderId}`,
    });
    expect((await openCashier(redirectUrl)).html).toContain('QUICK_WAP_WAY');
    // A client that says which cashier it wants is believed over its User-Agent.
    const asked = await buyer.call('/v1/pay', {
      method: 'POST',
      body: { order_id: orderId, method: 'alipay', device: 'desktop' },
      headers: { 'user-agent': IPHONE_SAFARI },
    });
    expect(new URL(asked.body.data.redirect_url).searchParams.get('method')).toBe('alipay.trade.page.pay');
  });

  it('refuses a notify that Alipay did not sign for this app (400, not "success"), and changes nothing', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id, 8_800, 'CNY');
    const { paymentId, outTradeNo, redirectUrl } = await startPaying(orderId);
    await openCashier(redirectUrl);
    const tradeNo = fake.trades.get(outTradeNo)!.tradeNo;

    const forged = await deliver(fake.notify(outTradeNo, 'TRADE_SUCCESS', { signWith: stranger.privateKey }));
    expect(forged.status).toBe(400);
    expect(forged.text).not.toBe('success');
    expect(forged.body).toEqual({ code: 400, msg: 'Invalid webhook signature', data: null });
    const genuine = fake.notify(outTradeNo, 'TRADE_SUCCESS');
    expect((await deliver(genuine.replace('trade_status=TRADE_SUCCESS', 'trade_status=TRADE_FINISHED'))).status).toBe(
      400,
    );
    expect((await deliver(genuine.replace(/&sign=[^&]*/, ''))).status).toBe(400);
    // Signed by Alipay, but for another merchant's app.
    expect((await deliver(fake.notify(outTradeNo, 'TRADE_SUCCESS', { appId: '2021000000000999' }))).status).toBe(400);
    expect((await deliver('not a form at all')).status).toBe(400);
    await expectUnpaid(server, { orderId, paymentId, tradeNo });
  });

  it('takes trade states in any order: WAIT_BUYER_PAY is ignored, TRADE_FINISHED before TRADE_SUCCESS pays once, TRADE_CLOSED after paying is stale', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id, 20_000, 'CNY');
    const { paymentId, outTradeNo, redirectUrl } = await startPaying(orderId);
    await openCashier(redirectUrl);
    const tradeNo = fake.trades.get(outTradeNo)!.tradeNo;

    expect((await deliver(fake.notify(outTradeNo, 'WAIT_BUYER_PAY'))).text).toBe('success');
    expect((await paymentRow(server.ctx, paymentId))?.status).toBe('pending');
    expect((await deliver(fake.notify(outTradeNo, 'TRADE_FINISHED'))).text).toBe('success');
    expect((await deliver(fake.notify(outTradeNo, 'TRADE_SUCCESS'))).text).toBe('success');
    expect((await deliver(fake.notify(outTradeNo, 'TRADE_CLOSED'))).text).toBe('success');

    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 10, payStatus: 2 });
    expect((await paymentRow(server.ctx, paymentId))?.status).toBe('succeeded');
    expect(await paidHistoryRows(server.ctx, orderId)).toBe(1);
    expect(await eventsOf(paymentId)).toEqual([
      { eventId: `${tradeNo}:TRADE_FINISHED`, type: 'payment.succeeded', outcome: 'paid' },
      { eventId: `${tradeNo}:TRADE_SUCCESS`, type: 'payment.succeeded', outcome: 'stale' },
      { eventId: `${tradeNo}:TRADE_CLOSED`, type: 'payment.failed', outcome: 'stale' },
    ]);
  });

  it('asks Alipay about the trade when the buyer comes back with signed return parameters, and takes only its answer', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id, 7_700, 'CNY');
    const { paymentId, outTradeNo, redirectUrl } = await startPaying(orderId);
    await openCashier(redirectUrl);
    const resultPage = (address: string) => {
      const url = new URL(address);
      return server.request(`${url.pathname}${url.search}`, { cookies: { access_token: buyer.headers.token } });
    };
    const queries = () => fake.requests.filter((request) => request.method === 'alipay.trade.query').length;

    // A return made before paying (signed, but the trade waits for the buyer): Alipay says so, nothing moves.
    const early = fake.returnUrl(outTradeNo);
    const asked = queries();
    expect((await resultPage(early)).status).toBe(200);
    expect(queries()).toBe(asked + 1);
    expect((await paymentRow(server.ctx, paymentId))?.status).toBe('pending');

    // Parameters Alipay did not sign are not even worth a question.
    const forged = new URL(early);
    forged.searchParams.set('total_amount', '0.01');
    expect((await resultPage(forged.toString())).status).toBe(200);
    expect(queries()).toBe(asked + 1);

    // Paid, with the notify still on its way: the return's query marks the order paid.
    fake.holdNotifies(true);
    const back = await fake.pay(outTradeNo);
    fake.holdNotifies(false);
    expect(back).toMatch(new RegExp(`^${server.url}/en/result/success\\?order_id=${orderId}&`));
    expect((await resultPage(back)).status).toBe(200);
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 10, payStatus: 2 });
    expect(await paymentRow(server.ctx, paymentId)).toMatchObject({
      status: 'succeeded',
      chargeRef: fake.trades.get(outTradeNo)!.tradeNo,
    });
    // The notify that follows finds the payment paid.
    expect((await deliver(fake.notify(outTradeNo, 'TRADE_SUCCESS'))).text).toBe('success');
    expect(await paidHistoryRows(server.ctx, orderId)).toBe(1);
  });

  it('marks a trade closed unpaid failed and keeps the order payable', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id, 3_000, 'CNY');
    const { paymentId, outTradeNo, redirectUrl } = await startPaying(orderId);
    await openCashier(redirectUrl);
    expect((await deliver(fake.notify(outTradeNo, 'TRADE_CLOSED'))).text).toBe('success');
    expect((await paymentRow(server.ctx, paymentId))?.status).toBe('failed');
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 1, payStatus: 1 });
    expect((await startPaying(orderId)).paymentId).toBeGreaterThan(paymentId);
  });

  it('refunds through Alipay when the payment lands after the order was cancelled', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id, 6_600, 'CNY');
    const { paymentId, outTradeNo, redirectUrl } = await startPaying(orderId);
    await openCashier(redirectUrl);
    await cancelOrder(server.ctx, orderId);
    fake.holdNotifies(true);
    await fake.pay(outTradeNo);
    fake.holdNotifies(false);
    expect((await deliver(fake.notify(outTradeNo, 'TRADE_SUCCESS'))).text).toBe('success');

    expect(fake.refunds.filter((refund) => refund.outTradeNo === outTradeNo)).toEqual([
      { outTradeNo, outRequestNo: `refund_payment_${paymentId}`, refundFen: 6_600 },
    ]);
    const tradeNo = fake.trades.get(outTradeNo)!.tradeNo;
    expect(await paymentRow(server.ctx, paymentId)).toMatchObject({
      status: 'refunded',
      refundRef: `${tradeNo}/refund_payment_${paymentId}`,
    });
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 60, payStatus: 3 });
    expect(fake.trades.get(outTradeNo)!.status).toBe('TRADE_CLOSED');
  });

  it('does not take a notify whose amount differs from what the shop asked for: the money goes back', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id, 12_000, 'CNY');
    const { paymentId, outTradeNo, redirectUrl } = await startPaying(orderId);
    await openCashier(redirectUrl);
    fake.holdNotifies(true);
    await fake.pay(outTradeNo);
    fake.holdNotifies(false);
    expect((await deliver(fake.notify(outTradeNo, 'TRADE_SUCCESS', { totalAmount: '0.01' }))).text).toBe('success');
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 1, payStatus: 1 });
    expect((await paymentRow(server.ctx, paymentId))?.status).toBe('refunded');
    expect(fake.refunds.filter((refund) => refund.outTradeNo === outTradeNo)).toEqual([
      { outTradeNo, outRequestNo: `refund_payment_${paymentId}`, refundFen: 12_000 },
    ]);
  });

  it('refunds part and then the rest through the console; the same refund key asked again refunds once', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id, 10_000, 'CNY');
    const { paymentId, outTradeNo, redirectUrl } = await startPaying(orderId);
    await openCashier(redirectUrl);
    await fake.pay(outTradeNo); // the fake's own notify reaches the listening shop
    await expect.poll(async () => (await paymentRow(server.ctx, paymentId))?.status).toBe('succeeded');

    const refund = (amountMinor: number, idempotencyKey: string) =>
      owner.request(`/v1/admin/orders/${orderId}/refunds`, {
        method: 'POST',
        body: { amount_minor: amountMinor, reason: 'Damaged in transit', idempotency_key: idempotencyKey },
      });
    const settled = async (id: number) => {
      await expect
        .poll(async () => (await server.ctx.db.select().from(refunds).where(eq(refunds.id, id)))[0]?.status, {
          timeout: 10_000,
        })
        .toBe('succeeded');
    };
    const partKey = `alipay-part-${paymentId}`;
    const part = await refund(3_050, partKey);
    expect(part.status).toBe(200);
    await settled(part.body.data.id);
    expect((await refund(3_050, partKey)).body.data.id).toBe(part.body.data.id);
    const rest = await refund(6_950, `alipay-rest-${paymentId}`);
    await settled(rest.body.data.id);

    expect(fake.refunds.filter((made) => made.outTradeNo === outTradeNo)).toEqual([
      { outTradeNo, outRequestNo: `alipay_part_${paymentId}`, refundFen: 3_050 },
      { outTradeNo, outRequestNo: `alipay_rest_${paymentId}`, refundFen: 6_950 },
    ]);
    expect(fake.trades.get(outTradeNo)).toMatchObject({ refundedFen: 10_000, status: 'TRADE_CLOSED' });
    // Alipay's notify of the refund is recorded and acted on by nobody: the refund was settled by our own call.
    expect(
      (
        await deliver(
          fake.notify(outTradeNo, 'TRADE_CLOSED', {
            extra: { gmt_refund: '2026-11-27 12:00:00', refund_fee: '100.00' },
          }),
        )
      ).text,
    ).toBe('success');
    expect((await paymentRow(server.ctx, paymentId))?.status).not.toBe('failed');
  });

  it('records a refund made in Alipay’s merchant portal from its notify (refund_fee is the running total), once; the shop’s own is not doubled', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id, 10_000, 'CNY');
    const { paymentId, outTradeNo, redirectUrl } = await startPaying(orderId);
    await openCashier(redirectUrl);
    await fake.pay(outTradeNo);
    await expect.poll(async () => (await paymentRow(server.ctx, paymentId))?.status).toBe('succeeded');
    const tradeNo = (await paymentRow(server.ctx, paymentId))!.chargeRef!;
    const refundNotify = (status: 'TRADE_SUCCESS' | 'TRADE_CLOSED', outBizNo: string, refundFee: string) =>
      fake.notify(outTradeNo, status, {
        extra: { gmt_refund: '2026-11-27 12:00:00', out_biz_no: outBizNo, refund_fee: refundFee },
      });
    const rows = async () =>
      (await server.ctx.db.select().from(refunds).where(eq(refunds.paymentId, paymentId)).orderBy(refunds.id)).map(
        (row) => [row.amountMinor, row.chargedAmountMinor, row.madeIn, row.providerRefundRef],
      );

    // CN¥30.00 refunded in the portal.
    const portal = refundNotify('TRADE_SUCCESS', 'HZ01RF0001', '30.00');
    expect((await deliver(portal)).text).toBe('success');
    expect((await deliver(portal)).text).toBe('success');
    expect(await rows()).toEqual([[3_000, 3_000, 'alipay', `${tradeNo}/HZ01RF0001`]]);

    // The shop refunds CN¥20.05 (refund_amount "20.05"); its notify, total 50.05, is its own.
    const key = `alipay-own-${paymentId}`;
    const own = await owner.request(`/v1/admin/orders/${orderId}/refunds`, {
      method: 'POST',
      body: { amount_minor: 2_005, reason: 'Damaged in transit', idempotency_key: key },
    });
    await expect
      .poll(async () => (await server.ctx.db.select().from(refunds).where(eq(refunds.id, own.body.data.id)))[0]?.status)
      .toBe('succeeded');
    expect(fake.refunds.filter((made) => made.outTradeNo === outTradeNo)).toEqual([
      { outTradeNo, outRequestNo: `alipay_own_${paymentId}`, refundFen: 2_005 },
    ]);
    expect((await deliver(refundNotify('TRADE_SUCCESS', `alipay_own_${paymentId}`, '50.05'))).text).toBe('success');

    // The rest, CN¥49.95, in the portal: the trade closes with CN¥100.00 given back.
    expect((await deliver(refundNotify('TRADE_CLOSED', 'HZ01RF0002', '100.00'))).text).toBe('success');
    expect(await rows()).toEqual([
      [3_000, 3_000, 'alipay', `${tradeNo}/HZ01RF0001`],
      [2_005, 2_005, 'shop', `${tradeNo}/alipay_own_${paymentId}`],
      [4_995, 4_995, 'alipay', `${tradeNo}/HZ01RF0002`],
    ]);
    expect((await paymentRow(server.ctx, paymentId))?.status).toBe('refunded');
    expect(await orderRow(server.ctx, orderId)).toMatchObject({ status: 41 });
    expect((await eventsOf(paymentId)).filter((event) => event.type === 'refund.succeeded')).toEqual([
      { eventId: `refund:${tradeNo}/HZ01RF0001`, type: 'refund.succeeded', outcome: 'refunded' },
      { eventId: `refund:${tradeNo}/alipay_own_${paymentId}`, type: 'refund.succeeded', outcome: 'stale' },
      { eventId: `refund:${tradeNo}/HZ01RF0002`, type: 'refund.succeeded', outcome: 'refunded' },
    ]);
  });

  it('refuses a portal refund’s running total (not "success", so Alipay sends it again) while one of the shop’s own refunds waits for its answer', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id, 10_000, 'CNY');
    const { paymentId, outTradeNo, redirectUrl } = await startPaying(orderId);
    await openCashier(redirectUrl);
    await fake.pay(outTradeNo);
    await expect.poll(async () => (await paymentRow(server.ctx, paymentId))?.status).toBe('succeeded');
    // The shop's CN¥30.00 whose answer has not come back: the running total may or may not count it.
    await server.ctx.db.insert(refunds).values({
      orderId,
      paymentId,
      amountMinor: 3_000,
      currency: 'CNY',
      chargedAmountMinor: 3_000,
      chargedCurrency: 'CNY',
      reason: 'Returned',
      status: 'pending',
      idempotencyKey: `alipay-waiting-${paymentId}`,
    });
    const portal = fake.notify(outTradeNo, 'TRADE_SUCCESS', {
      extra: { gmt_refund: '2026-11-27 12:00:00', out_biz_no: 'HZ01RF0009', refund_fee: '50.00' },
    });
    const answer = await deliver(portal);
    expect(answer.text).not.toBe('success');
    expect(answer.status).toBe(409);
    expect(
      (await server.ctx.db.select().from(refunds).where(eq(refunds.paymentId, paymentId))).map((row) => row.madeIn),
    ).toEqual(['shop']);
  });

  it('keeps a refund owed while Alipay is down, and the payments job pays it back later', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id, 4_200, 'CNY');
    const { paymentId, outTradeNo, redirectUrl } = await startPaying(orderId);
    await openCashier(redirectUrl);
    await cancelOrder(server.ctx, orderId);
    fake.holdNotifies(true);
    await fake.pay(outTradeNo);
    fake.holdNotifies(false);
    fake.failNext(1);
    expect((await deliver(fake.notify(outTradeNo, 'TRADE_SUCCESS'))).text).toBe('success');
    const owed = await paymentRow(server.ctx, paymentId);
    expect(owed?.status).toBe('refund_pending');
    expect(owed?.lastError).toMatch(/^refund: /);
    await server.ctx.db
      .update(payments)
      .set({ updatedAt: new Date(Date.now() - 120_000) })
      .where(eq(payments.id, paymentId));
    await expect
      .poll(async () => (await paymentRow(server.ctx, paymentId))?.status, { timeout: 10_000, interval: 250 })
      .toBe('refunded');
    expect(fake.refunds.filter((refund) => refund.outTradeNo === outTradeNo)).toHaveLength(1);
  });
});
