import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chinaAddress } from '../support/buyers';
import { decodedMail, startFakeSmtp, type FakeSmtp } from '../support/mail';
import { prepareBuyingShop } from '../support/persistent-shop';
import { freePort, spawnServer, unshed, waitForReady, type SpawnedServer } from '../support/spawn-server';

const SESSION_SECRET = 'outbox-restart-session-secret-'.padEnd(48, 'x');

/** A buyer with a live session and a SKU with plenty of stock, in a database the spawned servers share. */
const prepareShop = (dataDir: string) => prepareBuyingShop(dataDir, SESSION_SECRET, 'outbox-buyer');

/** Runs `test` with a prepared shop and its environment, and cleans up whatever it started. */
async function withShop(
  mail: FakeSmtp,
  test: (
    shop: Awaited<ReturnType<typeof prepareShop>>,
    env: Record<string, string | undefined>,
    started: SpawnedServer[],
  ) => Promise<void>,
) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-outbox-restart-'));
  const started: SpawnedServer[] = [];
  try {
    const shop = await prepareShop(dataDir);
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: shop.databaseUrl,
      SESSION_SECRET,
      SMTP_URL: mail.url,
      SEED_DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
    };
    await test(shop, env, started);
  } finally {
    for (const server of started) await server.stop('SIGKILL');
    await mail.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Places `count` orders of one unit, 20 at a time, and answers their order numbers. */
async function placeOrders(
  server: SpawnedServer,
  shop: { skuId: number; headers: Record<string, string> },
  count: number,
) {
  const call = (route: string, body: unknown) =>
    unshed(() => fetch(`${server.url}${route}`, { method: 'POST', headers: shop.headers, body: JSON.stringify(body) }));
  expect((await call('/v1/useraddress', chinaAddress)).status).toBe(200);
  const orderNumbers: string[] = [];
  for (let placed = 0; placed < count; placed += 20) {
    const answers = await Promise.all(
      Array.from({ length: Math.min(20, count - placed) }, () =>
        call('/v2/order', { items: [{ sku_id: shop.skuId, quantity: 1 }] }),
      ),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      orderNumbers.push(((await answer.json()) as { data: { order_no: string } }).data.order_no);
    }
  }
  return orderNumbers;
}

/** The order numbers of the "order placed" mails delivered, and how many distinct Message-IDs they carry. */
function placedMails(mail: FakeSmtp) {
  return {
    orderNumbers: mail.inbox
      .map((message) => /We received your order (\d+)/.exec(decodedMail(message.raw))?.[1])
      .sort(),
    messageIds: new Set(mail.inbox.map((message) => /^Message-ID: (.+)$/im.exec(message.raw)?.[1])).size,
  };
}

describe('the outbox across a stopped server', { timeout: 240_000 }, () => {
  it('delivers each of 200 order placed emails exactly once across a SIGKILL in the middle of sending', async () => {
    // The mail server answers 50 messages, then holds every later one unanswered until the kill.
    const holding = { on: true, held: 0 };
    const mail = await startFakeSmtp(() => {
      if (!holding.on || mail.inbox.length < 50) return 'take';
      holding.held++;
      return 'hold';
    });
    await withShop(mail, async (shop, env, started) => {
      const first = spawnServer(env, await freePort());
      started.push(first);
      await waitForReady(first.url);
      const orderNumbers = await placeOrders(first, shop, 200);
      // Killed while some emails wait for the mail server's answer and most are not sent yet.
      // The two seconds let the server record the mails that were answered: a kill in the
      // instant between a "250" and that record resends the mail (the same Message-ID, one
      // message in a mailbox; ADR 0093), which SMTP gives no way to avoid.
      await expect.poll(() => holding.held, { timeout: 60_000 }).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      first.child.kill('SIGKILL');
      await first.exited;
      expect(mail.inbox.length).toBeLessThan(200);
      holding.on = false;

      // The restarted server sends the rest, including those held at the kill once their lease runs out.
      const second = spawnServer(env, await freePort());
      started.push(second);
      await waitForReady(second.url);
      await expect.poll(() => mail.inbox.length, { timeout: 120_000, interval: 500 }).toBeGreaterThanOrEqual(200);
      // Nothing more arrives later either.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(mail.inbox).toHaveLength(200);
      expect(placedMails(mail)).toEqual({ orderNumbers: [...orderNumbers].sort(), messageIds: 200 });
    });
  });

  it('sends every email still owed on SIGTERM before the server exits', async () => {
    // A slow mail server: a third of a second per message, so most are still owed at the SIGTERM.
    const mail = await startFakeSmtp(async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return 'take' as const;
    });
    await withShop(mail, async (shop, env, started) => {
      const server = spawnServer(env, await freePort());
      started.push(server);
      await waitForReady(server.url);
      const orderNumbers = await placeOrders(server, shop, 40);
      server.child.kill('SIGTERM');
      const deliveredAtTheSignal = mail.inbox.length;
      expect(await server.exited).toBe(0);
      expect(deliveredAtTheSignal).toBeLessThan(40);
      expect(placedMails(mail)).toEqual({ orderNumbers: [...orderNumbers].sort(), messageIds: 40 });
    });
  });
});
