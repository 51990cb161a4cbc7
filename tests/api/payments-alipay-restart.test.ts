import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { staffMemberRoles, staffMembers, staffRoles } from '../../server/db/schema';
import { onlyRow } from '../../server/db/rows';
import { PERMISSIONS } from '../../server/domains/staff/permissions';
import { createStaffSession } from '../../server/domains/staff/staff-sessions.service';
import { startFakeAlipay, type FakeAlipay } from '../../server/domains/payments/testing/fake-alipay';
import type { AppContext } from '../../server/context';
import { startHttpForwarder } from '../support/http-forwarder';
import { buyerWithSession, preparePersistentShop } from '../support/persistent-shop';
import { freePort, spawnServer, unshed, waitForReady, type SpawnedServer } from '../support/spawn-server';
import { makeOrder } from './payments-fixtures';

/**
 * Alipay payments survive a shop killed between Alipay's word and the shop's commit:
 *
 * - the return: the buyer comes back from the cashier, the shop asks Alipay about the trade and
 *   dies with Alipay's answer in hand; nothing was stored, and the buyer's next visit (or the
 *   notify, or reconciliation) marks the order paid;
 * - the notify: the shop dies as Alipay's notify reaches it, before anything is stored; Alipay
 *   hears no `success`, sends it again, and the restarted shop applies it once;
 * - a refund: the shop dies after Alipay refunded and before its answer reaches the shop; the
 *   restarted shop asks again with the same out_request_no, Alipay refunds nothing more
 *   (fund_change N), and the refund is stored as done. One refund at Alipay.
 *
 * The fake gateway stands behind a forwarder that does the killing; both key pairs are made here.
 */
const SESSION_SECRET = 'alipay-restart-session-secret-'.padEnd(48, 'x');
const APP_ID = '2021000000000077';
const CSRF = 'alipay-restart-csrf';
const rsaPair = () =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });

async function ownerWithSession(ctx: AppContext) {
  const member = onlyRow(
    await ctx.db
      .insert(staffMembers)
      .values({ email: 'alipay-restart-owner@shop.example', name: 'owner', passwordHash: 'x', locale: 'en' })
      .returning({ id: staffMembers.id }),
  );
  const role = onlyRow(
    await ctx.db
      .insert(staffRoles)
      .values({ name: { en: 'all', 'zh-cn': 'all' }, permissions: [...PERMISSIONS], refundLimitMinor: null })
      .returning({ id: staffRoles.id }),
  );
  await ctx.db.insert(staffMemberRoles).values({ staffId: member.id, roleId: role.id });
  const session = await createStaffSession(ctx, member.id, { ip: '127.0.0.1', userAgent: 'vitest' });
  return {
    cookie: `staff_session=${session.token}; csrf_token=${CSRF}`,
    'x-csrf-token': CSRF,
    'content-type': 'application/json',
    lang: 'en',
  };
}

async function ready(server: SpawnedServer) {
  try {
    await waitForReady(server.url);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${server.output()}`, { cause: error });
  }
}

describe('alipay payments survive a killed server', { timeout: 300_000 }, () => {
  it('a return and a notify that killed the shop are applied once by the restarted shop; a refund made as the shop died is not made twice', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-alipay-restart-'));
    const app = rsaPair();
    const alipay = rsaPair();
    let fake: FakeAlipay | undefined;
    let current: SpawnedServer | undefined;
    const servers: SpawnedServer[] = [];
    let killNextNotify = true;
    let killAfterRefund = false;
    let killedAtRefund = 0;
    let killAfterQuery = false;
    let killedAtQuery = 0;
    const kill = async () => {
      const dying = current!;
      dying.child.kill('SIGKILL');
      await dying.exited;
    };
    // The shop's public address: Alipay's notifies reach the shop through it.
    const front = await startHttpForwarder(() => current!.url, {
      async before(request) {
        if (!(killNextNotify && request.url === '/v1/pay/webhook/alipay')) return 'pass';
        killNextNotify = false;
        await kill();
        return 'drop';
      },
    });
    const gatewayFront = await startHttpForwarder(() => fake!.url, {
      async after(request) {
        if (killAfterQuery && request.method === 'POST' && request.url?.includes('alipay.trade.query')) {
          killAfterQuery = false;
          killedAtQuery = Date.now();
          return kill();
        }
        if (!killAfterRefund || request.method !== 'POST' || !request.url?.includes('alipay.trade.refund')) return;
        killAfterRefund = false;
        killedAtRefund = Date.now();
        await kill();
      },
    });
    try {
      fake = await startFakeAlipay({
        appId: APP_ID,
        appPublicKey: app.publicKey,
        alipayPrivateKey: alipay.privateKey,
        notifyRetryMs: 1_000,
      });
      const shop = await preparePersistentShop(dataDir, SESSION_SECRET, async (ctx) => {
        const buyer = await buyerWithSession(ctx, 'alipay-restart-buyer');
        return {
          orderId: await makeOrder(ctx, buyer.userId, 16_800, 'CNY'),
          returnOrderId: await makeOrder(ctx, buyer.userId, 9_900, 'CNY'),
          buyer: buyer.headers,
          owner: await ownerWithSession(ctx),
        };
      });
      const env = {
        // ALIPAY_GATEWAY is a test knob, refused in production.
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        DATABASE_URL: shop.databaseUrl,
        SESSION_SECRET,
        PUBLIC_URL: front.url,
        ALIPAY_APP_ID: APP_ID,
        ALIPAY_PRIVATE_KEY: app.privateKey,
        ALIPAY_PUBLIC_KEY: alipay.publicKey,
        ALIPAY_GATEWAY: `${gatewayFront.url}/gateway.do`,
        SEED_DEMO_DATA: 'false',
        LOG_LEVEL: 'warn',
      };
      const start = async () => {
        current = spawnServer(env, await freePort());
        servers.push(current);
        await ready(current);
        return current;
      };
      /** The order's pay status; a fresh copy may shed its first requests (503) while it warms up, so this waits for an answer. */
      const status = async (orderId = shop.orderId) => {
        const answer = await unshed(() => fetch(`${front.url}/v1/pay/PayStatus/${orderId}`, { headers: shop.buyer }));
        expect(answer.status).toBe(200);
        return ((await answer.json()) as { data: Record<string, unknown> }).data;
      };
      /** Opens an Alipay payment for the order; answers the trade the cashier opened. */
      const payWithAlipay = async (orderId: number) => {
        const paying = await unshed(() =>
          fetch(`${front.url}/v1/pay`, {
            method: 'POST',
            headers: shop.buyer,
            body: JSON.stringify({ order_id: orderId, method: 'alipay' }),
          }),
        );
        expect(paying.status).toBe(200);
        const redirectUrl = ((await paying.json()) as { data: { redirect_url: string } }).data.redirect_url;
        expect((await fetch(redirectUrl)).status).toBe(200);
        return [...fake!.trades.keys()].at(-1)!;
      };
      const visit = (address: string) =>
        unshed(() => fetch(address, { headers: { cookie: `access_token=${shop.buyer.token}` } }));

      await start();
      // Paid at the cashier, the notify held back: the buyer's return makes the shop ask Alipay, and it dies with the answer.
      const returnTrade = await payWithAlipay(shop.returnOrderId);
      fake.holdNotifies(true);
      const back = await fake.pay(returnTrade);
      fake.holdNotifies(false);
      expect(back.startsWith(`${front.url}/en/result/success?order_id=${shop.returnOrderId}&`)).toBe(true);
      killAfterQuery = true;
      await expect(visit(back)).rejects.toThrow();
      expect(killedAtQuery).toBeGreaterThan(0);
      await start();
      expect(await status(shop.returnOrderId)).toMatchObject({
        order_status: 1,
        pay_status: 1,
        payment_status: 'pending',
      });
      expect((await visit(back)).status).toBe(200);
      expect(await status(shop.returnOrderId)).toMatchObject({
        order_status: 10,
        pay_status: 2,
        payment_status: 'succeeded',
      });

      const outTradeNo = await payWithAlipay(shop.orderId);
      await fake.pay(outTradeNo); // the first delivery kills the shop
      expect(fake.deliveries).toEqual([{ outTradeNo, status: 0, body: expect.any(String) }]);
      expect(fake.trades.get(returnTrade)?.status).toBe('TRADE_SUCCESS');

      await start();
      await expect
        .poll(status, { timeout: 60_000, interval: 500 })
        .toMatchObject({ order_status: 10, pay_status: 2, payment_status: 'succeeded' });
      expect(fake.deliveries.at(-1)).toEqual({ outTradeNo, status: 200, body: 'success' });

      // A full refund from the console; the gateway refunds, and the shop dies before hearing it.
      killAfterRefund = true;
      const refundKey = `alipay-restart-${process.pid}-${Date.now()}`;
      const refunding = await unshed(() =>
        fetch(`${front.url}/v1/admin/orders/${shop.orderId}/refunds`, {
          method: 'POST',
          headers: shop.owner,
          body: JSON.stringify({ amount_minor: 16_800, reason: 'Out of stock', idempotency_key: refundKey }),
        }),
      );
      expect(refunding.status).toBe(200);
      await expect.poll(() => killedAtRefund, { timeout: 60_000, interval: 200 }).toBeGreaterThan(0);
      expect(fake.refunds).toEqual([{ outTradeNo, outRequestNo: refundKey.replace(/-/g, '_'), refundFen: 16_800 }]);

      await start();
      // The refund effect's lease runs out and the restarted shop asks Alipay again with the same out_request_no.
      const refundSeen = async () =>
        (
          (await (await fetch(`${front.url}/v1/admin/orders/${shop.orderId}`, { headers: shop.owner })).json()) as {
            data: { refunded_minor: number; refundable_minor: number };
          }
        ).data;
      await expect
        .poll(refundSeen, { timeout: 90_000, interval: 1_000 })
        .toMatchObject({ refunded_minor: 16_800, refundable_minor: 0 });
      expect(fake.requests.filter((request) => request.method === 'alipay.trade.refund')).toHaveLength(2);
      expect(fake.refunds).toHaveLength(1);
      expect(fake.trades.get(outTradeNo)).toMatchObject({ refundedFen: 16_800, status: 'TRADE_CLOSED' });
    } finally {
      for (const server of servers) await server.stop('SIGKILL');
      await front.close();
      await gatewayFront.close();
      await fake?.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
