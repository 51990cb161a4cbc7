import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buyerWithSession, preparePersistentShop } from '../support/persistent-shop';
import { freePort, spawnServer, unshed, waitForReady, type SpawnedServer } from '../support/spawn-server';
import { makeOrder, SANDBOX_SECRET } from './payments-fixtures';

const SESSION_SECRET = 'restart-test-session-secret-'.padEnd(48, 'x');

/** A buyer with a live session and an unpaid order, in a database the spawned servers share. */
function prepareShop(dataDir: string) {
  return preparePersistentShop(dataDir, SESSION_SECRET, async (ctx) => {
    const buyer = await buyerWithSession(ctx, 'restart-buyer');
    return { orderId: await makeOrder(ctx, buyer.userId, 8_800, 'CNY'), headers: buyer.headers };
  });
}

describe('payments survive a killed server', { timeout: 180_000 }, () => {
  it('the sandbox gateway keeps the undelivered webhook and a restarted server receives it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-payments-restart-'));
    const shop = await prepareShop(dataDir);
    const [firstPort, secondPort] = [await freePort(), await freePort()];
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: shop.databaseUrl,
      SESSION_SECRET,
      SANDBOX_WEBHOOK_SECRET: SANDBOX_SECRET,
      SEED_DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
    };
    let first: SpawnedServer | undefined;
    let second: SpawnedServer | undefined;
    try {
      // The first server's webhooks go to where the second will listen: nothing answers yet.
      first = spawnServer(
        { ...env, SANDBOX_WEBHOOK_URL: `http://127.0.0.1:${secondPort}/v1/pay/webhook/sandbox` },
        firstPort,
      );
      await waitForReady(first.url);
      const paying = await unshed(() =>
        fetch(`${first!.url}/v1/pay`, {
          method: 'POST',
          headers: shop.headers,
          body: JSON.stringify({ order_id: shop.orderId }),
        }),
      );
      const { redirect_url: redirectUrl } = (await paying.json()).data as { redirect_url: string };
      const pressed = await unshed(() =>
        fetch(`${first!.url}${redirectUrl}/pay`, { method: 'POST', redirect: 'manual' }),
      );
      expect(pressed.status).toBe(303);
      const status = async (server: SpawnedServer) =>
        (
          await (
            await unshed(() => fetch(`${server.url}/v1/pay/PayStatus/${shop.orderId}`, { headers: shop.headers }))
          ).json()
        ).data;
      expect(await status(first)).toMatchObject({ order_status: 1, pay_status: 1, payment_status: 'pending' });

      first.child.kill('SIGKILL');
      await first.exited;

      second = spawnServer(env, secondPort);
      await waitForReady(second.url);
      const restarted = second;
      await expect
        .poll(() => status(restarted), { timeout: 60_000, interval: 500 })
        .toMatchObject({ order_status: 10, pay_status: 2, payment_status: 'succeeded' });
    } finally {
      await first?.stop('SIGKILL');
      await second?.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
