import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { asc, eq } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { products, productSkus, staffMemberRoles, staffMembers, staffRoles } from '../../server/db/schema';
import { onlyRow } from '../../server/db/rows';
import { PERMISSIONS } from '../../server/domains/staff/permissions';
import { createStaffSession } from '../../server/domains/staff/staff-sessions.service';
import { startFakeStripe, type FakeStripe } from '../../server/domains/payments/testing/fake-stripe';
import { chinaAddress } from '../support/buyers';
import type { AppContext } from '../../server/context';
import { postgresAdminUrl } from '../support/database';
import { decodedMail, startFakeSmtp, type FakeSmtp } from '../support/mail';
import { buyerWithSession, preparePersistentShop } from '../support/persistent-shop';
import { freePort, spawnServer, unshed, waitForReady, type SpawnedServer } from '../support/spawn-server';
import { SANDBOX_SECRET } from './payments-fixtures';

/**
 * A case's refund survives a server killed after the gateway refunded and before the shop
 * stored it (ADR 0130 over ADR 0101): the refund effect is leased in the outbox, a restarted
 * server takes it over, asks the gateway again with the same idempotency key, gets the same
 * refund back, and the case completes. One refund at the gateway, one "refunded" email.
 *
 * The gateway is Stripe's API played by the local fake (server/domains/payments/testing),
 * behind a forwarder that kills the shop the moment the fake has made the refund, before its
 * answer leaves: the shop's process dies between the provider's yes and its own commit, on
 * PGlite and on PostgreSQL alike.
 */
const SESSION_SECRET = 'after-sales-restart-secret-'.padEnd(48, 'x');
const WEBHOOK_SECRET = 'whsec_after_sales_restart';
const CSRF = 'after-sales-restart-csrf';

/** A signed-in staff member with every permission, refunding up to `refundLimitMinor` (null: no limit). */
async function staffWithSession(ctx: AppContext, email: string, refundLimitMinor: number | null) {
  const member = onlyRow(
    await ctx.db
      .insert(staffMembers)
      .values({ email, name: email.split('@')[0]!, passwordHash: 'x', locale: 'en' })
      .returning({ id: staffMembers.id }),
  );
  const role = onlyRow(
    await ctx.db
      .insert(staffRoles)
      .values({ name: { en: email, 'zh-cn': email }, permissions: [...PERMISSIONS], refundLimitMinor })
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

/**
 * A buyer with a session, a SKU at 45.00 with stock, a signed-in owner and a member who may
 * refund up to 10.00, in a database spawned servers share.
 */
function prepareShop(dataDir: string) {
  return preparePersistentShop(dataDir, SESSION_SECRET, async (ctx) => {
    const buyer = await buyerWithSession(ctx, 'after-sales-restart-buyer');
    const [sku] = await ctx.db
      .select({ id: productSkus.id, productId: productSkus.productId })
      .from(productSkus)
      .innerJoin(products, eq(products.id, productSkus.productId))
      .where(eq(products.listed, true))
      .orderBy(asc(productSkus.id))
      .limit(1);
    await ctx.db.update(productSkus).set({ stock: 100, priceMinor: 4_500 }).where(eq(productSkus.id, sku!.id));
    await ctx.db.update(products).set({ finalSale: false }).where(eq(products.id, sku!.productId));
    return {
      skuId: sku!.id,
      headers: {
        buyer: buyer.headers,
        owner: await staffWithSession(ctx, 'restart-owner@shop.example', null),
        limited: await staffWithSession(ctx, 'restart-limited@shop.example', 1_000),
      },
    };
  });
}

type Shop = Awaited<ReturnType<typeof prepareShop>>;

/** A JSON call to a spawned server as one of the shop's people; answers `data`, expecting 200. */
async function call(
  server: SpawnedServer,
  shop: Shop,
  as: keyof Shop['headers'],
  route: string,
  method = 'GET',
  body?: unknown,
) {
  const { 'content-type': contentType, ...headers } = shop.headers[as];
  const answer = await unshed(() =>
    fetch(`${server.url}${route}`, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': contentType },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const json = (await answer.json()) as { code: number; msg: string; data: any };
  expect(answer.status, `${method} ${route}: ${json.msg}`).toBe(200);
  return json.data;
}

/**
 * An order of one unit placed and paid (by `pay`, which answers the gateway's session id),
 * shipped and received; then a refund-only case for it, approved: ready to refund 45.00.
 */
async function approvedCase(server: SpawnedServer, shop: Shop, pay: (orderId: number) => Promise<string>) {
  const address = await call(server, shop, 'buyer', '/v1/useraddress', 'POST', chinaAddress);
  const order = await call(server, shop, 'buyer', '/v2/order', 'POST', {
    items: [{ sku_id: shop.skuId, quantity: 1 }],
    address_id: address.id,
  });
  const sessionId = await pay(order.id);
  await call(server, shop, 'owner', `/v1/admin/orders/${order.id}/ship`, 'POST', {
    carrier_code: 'shunfeng',
    tracking_no: `SF${order.id}0009`,
  });
  await call(server, shop, 'buyer', `/v1/order/confirm/${order.id}`, 'PUT');
  const options = await call(server, shop, 'buyer', `/v1/after-sale/order/${order.id}`);
  const created = await call(server, shop, 'buyer', '/v1/after-sale', 'POST', {
    order_id: order.id,
    type: 10,
    reason: 'changed_mind',
    lines: [{ order_item_id: options.lines[0].order_item_id, quantity: 1 }],
    idempotency_key: `restart-case-${process.pid}-${order.id}`,
  });
  await call(server, shop, 'owner', `/v1/admin/after-sales/${created.id}/approve`, 'POST', {});
  return { orderId: order.id as number, caseId: created.id as number, caseNo: created.case_no as string, sessionId };
}

/** The case as its buyer sees it on `server`. */
async function caseSeen(server: SpawnedServer, shop: Shop, caseId: number) {
  const answer = await unshed(() => fetch(`${server.url}/v1/after-sale/${caseId}`, { headers: shop.headers.buyer }));
  return ((await answer.json()) as { data: { state: string; refunds: Array<{ status: string }> } }).data;
}

/** The "refund completed" emails of a case. */
function refundMails(smtp: FakeSmtp, caseNo: string) {
  return smtp.inbox
    .map((mail) => decodedMail(mail.raw))
    .filter((mail) => mail.includes(`Refund of CN¥45.00 for ${caseNo} completed`));
}

/**
 * Forwards to the fake Stripe. The first refund request waits for `release` (the test's own
 * call has had its answer), goes to the fake, and `onRefund` runs once the fake has made the
 * refund and before its answer is passed on (the test kills the shop there).
 */
async function startGatewayForwarder(fake: FakeStripe, release: Promise<void>, onRefund: () => Promise<void>) {
  let armed = true;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    const forward = async () => {
      const refund = armed && request.method === 'POST' && request.url?.startsWith('/v1/refunds');
      if (refund) {
        armed = false;
        await release;
      }
      const upstream = await fetch(`${fake.url}${request.url}`, {
        method: request.method,
        headers: Object.fromEntries(
          Object.entries(request.headers).filter(
            (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[0] !== 'host',
          ),
        ),
        body: request.method === 'GET' ? undefined : Buffer.concat(chunks),
      });
      const body = await upstream.text();
      if (refund) await onRefund();
      response.writeHead(upstream.status, { 'content-type': 'application/json' });
      response.end(body);
    };
    request.on('end', () => void forward());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Waits for a spawned server, showing its output when it never gets ready. */
async function ready(server: SpawnedServer) {
  try {
    await waitForReady(server.url);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${server.output()}`, { cause: error });
  }
}

describe('after-sale refunds survive a killed server', { timeout: 240_000 }, () => {
  it('completes the case with one refund at the gateway and one email after a SIGKILL between the gateway and the commit', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-after-sales-restart-'));
    const smtp = await startFakeSmtp();
    const fake = await startFakeStripe(WEBHOOK_SECRET);
    let first: SpawnedServer | undefined;
    let second: SpawnedServer | undefined;
    let killedAt = 0;
    let letRefundThrough = () => {};
    const release = new Promise<void>((resolve) => (letRefundThrough = resolve));
    const forwarder = await startGatewayForwarder(fake, release, async () => {
      killedAt = Date.now();
      first!.child.kill('SIGKILL');
      await first!.exited;
    });
    try {
      const shop = await prepareShop(dataDir);
      const env = {
        // STRIPE_API_BASE is a test knob, refused in production.
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        DATABASE_URL: shop.databaseUrl,
        SESSION_SECRET,
        SMTP_URL: smtp.url,
        PAYMENT_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_after_sales_restart',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_BASE: forwarder.url,
        SEED_DEMO_DATA: 'false',
        LOG_LEVEL: 'warn',
      };
      first = spawnServer(env, await freePort());
      await ready(first);
      const running = first;
      const { orderId, caseId, caseNo, sessionId } = await approvedCase(running, shop, async (id) => {
        const paying = await call(running, shop, 'buyer', '/v1/pay', 'POST', { order_id: id });
        const session = (paying.redirect_url as string).split('/').pop()!;
        const completed = fake.webhook('checkout.session.completed', session, { secret: WEBHOOK_SECRET });
        const delivered = await fetch(`${running.url}/v1/pay/webhook/stripe`, {
          method: 'POST',
          headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': completed.signature },
          body: completed.body,
        });
        expect(((await delivered.json()) as { data: { outcome: string } }).data.outcome).toBe('paid');
        return session;
      });
      const refundKey = `restart-refund-${process.pid}-${Date.now()}`;
      const refunding = await call(running, shop, 'owner', `/v1/admin/after-sales/${caseId}/refund`, 'POST', {
        idempotency_key: refundKey,
      });
      expect(refunding.state).toBe('refunding');
      letRefundThrough();

      // The outbox asks the gateway; the forwarder kills the shop once the gateway has refunded.
      await expect.poll(() => killedAt, { timeout: 60_000, interval: 200 }).toBeGreaterThan(0);
      expect(fake.refunds.filter((refund) => refund.idempotencyKey === refundKey)).toHaveLength(1);

      second = spawnServer({ ...env, STRIPE_API_BASE: fake.url }, await freePort());
      await ready(second);
      const restarted = second;
      // The refund effect's lease (20 s) runs out and the restarted server takes it over.
      await expect
        .poll(() => caseSeen(restarted, shop, caseId), { timeout: 90_000, interval: 1_000 })
        .toMatchObject({ state: 'completed', refunds: [{ status: 'succeeded' }] });

      // The gateway was asked twice with the one key and holds one refund of 45.00.
      expect(
        fake.requests.filter((request) => request.method === 'POST' && request.path === '/v1/refunds'),
      ).toHaveLength(2);
      expect(fake.refunds).toEqual([
        expect.objectContaining({ idempotencyKey: refundKey, amount: '4500', payment_intent: `pi_test_${sessionId}` }),
      ]);
      await expect.poll(() => refundMails(smtp, caseNo).length, { timeout: 30_000 }).toBe(1);
      expect(await call(restarted, shop, 'owner', `/v1/admin/orders/${orderId}`)).toMatchObject({
        status: 41,
        refunded_minor: 4_500,
      });
      // Nothing more arrives later.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(refundMails(smtp, caseNo)).toHaveLength(1);
    } finally {
      await first?.stop('SIGKILL');
      await second?.stop();
      await forwarder.close();
      await fake.close();
      await smtp.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  // The sandbox gateway lives in the shop's own database: the shop is stopped between the
  // gateway's commit and its own by holding the payment's row lock from outside, which only
  // PostgreSQL allows (a PGlite database belongs to the one process that opened it).
  it.skipIf(!postgresAdminUrl)(
    'at the sandbox gateway too (PostgreSQL): one sandbox_gateway_refunds row for the key, the case completed',
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-after-sales-restart-'));
      const smtp = await startFakeSmtp();
      let first: SpawnedServer | undefined;
      let second: SpawnedServer | undefined;
      let locker: pg.Client | undefined;
      try {
        const shop = await prepareShop(dataDir);
        const env = {
          DATA_DIR: dataDir,
          DATABASE_URL: shop.databaseUrl,
          SESSION_SECRET,
          SMTP_URL: smtp.url,
          SANDBOX_WEBHOOK_SECRET: SANDBOX_SECRET,
          SEED_DEMO_DATA: 'false',
          LOG_LEVEL: 'warn',
        };
        first = spawnServer(env, await freePort());
        await ready(first);
        const running = first;
        const { orderId, caseId, caseNo, sessionId } = await approvedCase(running, shop, async (id) => {
          const paying = await call(running, shop, 'buyer', '/v1/pay', 'POST', { order_id: id });
          const redirect = paying.redirect_url as string;
          const pressed = await fetch(`${running.url}${redirect}/pay`, { method: 'POST', redirect: 'manual' });
          expect(pressed.status).toBe(303);
          await expect
            .poll(async () => (await call(running, shop, 'buyer', `/v1/pay/PayStatus/${id}`)).pay_status, {
              timeout: 30_000,
            })
            .toBe(2);
          return redirect.split('/').pop()!;
        });

        // Above the limited member's 10.00: the refund waits, nothing is owed to the gateway yet.
        const refundKey = `restart-sandbox-${process.pid}-${Date.now()}`;
        const refunding = await call(running, shop, 'limited', `/v1/admin/after-sales/${caseId}/refund`, 'POST', {
          idempotency_key: refundKey,
        });
        expect(refunding).toMatchObject({ state: 'refunding', refunds: [{ status: 'awaiting_approval' }] });
        const refundId = refunding.refunds[0].id as number;

        // Hold the payment's row: the gateway call goes through, the shop's commit of it waits.
        locker = new pg.Client({ connectionString: shop.databaseUrl });
        await locker.connect();
        await locker.query('begin');
        await locker.query('select id from payments where order_id = $1 for update', [orderId]);
        await call(running, shop, 'owner', `/v1/admin/refunds/${refundId}/approve`, 'POST');
        const atGateway = async () =>
          (
            await locker!.query<{ idempotency_key: string; amount_minor: number }>(
              'select idempotency_key, amount_minor from sandbox_gateway_refunds where session_id = $1',
              [sessionId],
            )
          ).rows;
        await expect.poll(async () => (await atGateway()).length, { timeout: 60_000, interval: 200 }).toBe(1);
        // The gateway has refunded; the shop has not stored it.
        expect((await locker.query('select status from refunds where id = $1', [refundId])).rows).toEqual([
          { status: 'pending' },
        ]);
        running.child.kill('SIGKILL');
        await running.exited;
        await locker.query('rollback');

        second = spawnServer(env, await freePort());
        await ready(second);
        const restarted = second;
        await expect
          .poll(() => caseSeen(restarted, shop, caseId), { timeout: 90_000, interval: 1_000 })
          .toMatchObject({ state: 'completed', refunds: [{ status: 'succeeded' }] });
        expect(await atGateway()).toEqual([{ idempotency_key: refundKey, amount_minor: 4_500 }]);
        const refundRow = await locker.query('select idempotency_key, status from refunds where id = $1', [refundId]);
        expect(refundRow.rows).toEqual([{ idempotency_key: refundKey, status: 'succeeded' }]);
        await expect.poll(() => refundMails(smtp, caseNo).length, { timeout: 30_000 }).toBe(1);
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        expect(refundMails(smtp, caseNo)).toHaveLength(1);
      } finally {
        await locker?.end();
        await first?.stop('SIGKILL');
        await second?.stop();
        await smtp.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
