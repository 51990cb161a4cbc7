import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakePayPal } from '../../server/domains/payments/testing/fake-paypal';
import { startHttpForwarder } from '../support/http-forwarder';
import { buyerWithSession, preparePersistentShop } from '../support/persistent-shop';
import { freePort, spawnServer, unshed, waitForReady, type SpawnedServer } from '../support/spawn-server';
import { makeOrder } from './payments-fixtures';

/**
 * A PayPal capture survives a shop killed between PayPal's answer and the shop's commit: the
 * fake PayPal stands behind a forwarder that kills the shop once PayPal has captured, before
 * the answer reaches it. The restarted shop learns the capture when the buyer reloads the page
 * (it asks PayPal, which says the order is completed: no second capture) and again from
 * PayPal's webhook, which changes nothing more. One capture at PayPal, the order paid once.
 */
const SESSION_SECRET = 'paypal-restart-session-secret-'.padEnd(48, 'x');
const credentials = {
  clientId: 'paypal-restart-client',
  clientSecret: 'paypal-restart-secret',
  webhookId: 'WH-RESTART-1',
};

async function ready(server: SpawnedServer) {
  try {
    await waitForReady(server.url);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${server.output()}`, { cause: error });
  }
}

describe('paypal payments survive a killed server', { timeout: 240_000 }, () => {
  it('a capture PayPal made as the shop died is taken once by the restarted shop', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-paypal-restart-'));
    let first: SpawnedServer | undefined;
    let second: SpawnedServer | undefined;
    let killedAtCapture = 0;
    const paypal = await startFakePayPal(credentials);
    const gatewayFront = await startHttpForwarder(paypal.url, {
      async after(request) {
        if (killedAtCapture || request.method !== 'POST' || !request.url?.endsWith('/capture')) return;
        killedAtCapture = Date.now();
        first!.child.kill('SIGKILL');
        await first!.exited;
      },
    });
    try {
      const shop = await preparePersistentShop(dataDir, SESSION_SECRET, async (ctx) => {
        const buyer = await buyerWithSession(ctx, 'paypal-restart-buyer');
        return { orderId: await makeOrder(ctx, buyer.userId, 4_200, 'USD'), headers: buyer.headers };
      });
      const env = {
        // PAYPAL_API_BASE is a test knob, refused in production.
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        DATABASE_URL: shop.databaseUrl,
        SESSION_SECRET,
        PAYPAL_CLIENT_ID: credentials.clientId,
        PAYPAL_CLIENT_SECRET: credentials.clientSecret,
        PAYPAL_WEBHOOK_ID: credentials.webhookId,
        SEED_DEMO_DATA: 'false',
        LOG_LEVEL: 'warn',
      };
      first = spawnServer({ ...env, PAYPAL_API_BASE: gatewayFront.url }, await freePort());
      await ready(first);
      const paying = await unshed(() =>
        fetch(`${first!.url}/v1/pay`, {
          method: 'POST',
          headers: shop.headers,
          body: JSON.stringify({ order_id: shop.orderId, method: 'paypal' }),
        }),
      );
      const { redirect_url: redirectUrl } = ((await paying.json()) as { data: { redirect_url: string } }).data;
      const providerRef = new URL(redirectUrl).searchParams.get('token')!;
      paypal.approve(providerRef);

      // Back from PayPal: the shop captures, and dies as PayPal's answer is on its way.
      const returnPath = `/en/result/success?order_id=${shop.orderId}&token=${providerRef}&PayerID=FAKEPAYER01`;
      const cookie = `access_token=${shop.headers.token}`;
      await fetch(`${first.url}${returnPath}`, { headers: { cookie } }).catch(() => undefined);
      await expect.poll(() => killedAtCapture, { timeout: 60_000, interval: 200 }).toBeGreaterThan(0);
      expect(paypal.orders.get(providerRef)).toMatchObject({
        status: 'COMPLETED',
        captures: [{ status: 'COMPLETED' }],
      });

      second = spawnServer({ ...env, PAYPAL_API_BASE: paypal.url }, await freePort());
      await ready(second);
      const status = async () =>
        (
          (await (
            await unshed(() => fetch(`${second!.url}/v1/pay/PayStatus/${shop.orderId}`, { headers: shop.headers }))
          ).json()) as { data: unknown }
        ).data;
      expect(await status()).toMatchObject({ order_status: 1, pay_status: 1, payment_status: 'pending' });

      // The buyer reloads the page: PayPal says the order is completed, nothing is captured again.
      expect((await unshed(() => fetch(`${second!.url}${returnPath}`, { headers: { cookie } }))).status).toBe(200);
      expect(await status()).toMatchObject({ order_status: 10, pay_status: 2, payment_status: 'succeeded' });
      const captureCalls = paypal.requests.filter((request) => request.path.endsWith('/capture'));
      expect(captureCalls).toHaveLength(1);
      expect(paypal.orders.get(providerRef)!.captures).toHaveLength(1);

      // PayPal's webhook of the capture arrives as well: taken, changes nothing.
      const completed = paypal.webhook('PAYMENT.CAPTURE.COMPLETED', providerRef);
      const delivered = await unshed(() =>
        fetch(`${second!.url}/v1/pay/webhook/paypal`, {
          method: 'POST',
          headers: completed.headers,
          body: completed.body,
        }),
      );
      expect(((await delivered.json()) as { data: { outcome: string } }).data.outcome).toBe('stale');
      expect(await status()).toMatchObject({ order_status: 10, pay_status: 2, payment_status: 'succeeded' });
    } finally {
      await first?.stop('SIGKILL');
      await second?.stop();
      await gatewayFront.close();
      await paypal.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
