import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { asc, eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../../server/db/client';
import { products, productSkus, users } from '../../server/db/schema';
import { createSession } from '../../server/domains/customers/sessions.service';
import type { AppContext } from '../../server/context';
import { chinaAddress } from '../support/buyers';
import { openTestDatabase, postgresAdminUrl, templateDumpPath } from '../support/database';
import { decodedMail } from '../support/mail';
import { freePort, spawnServer, waitForReady, type SpawnedServer } from '../support/spawn-server';

const SESSION_SECRET = 'outbox-restart-session-secret-'.padEnd(48, 'x');
const ORDERS = 200;
/** The mail server answers this many messages, then holds every later one unanswered until the kill. */
const ANSWERED_BEFORE_THE_KILL = 50;

/**
 * A mail server that delivers a message only once it has answered 250 to its data, as SMTP
 * has it: a message whose sender died before that answer was never delivered, and the
 * sender must send it again.
 */
async function startMailServer() {
  const delivered: Array<{ messageId: string; text: string }> = [];
  const state = { holding: true, held: 0 };
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, answer) {
      let raw = '';
      stream.on('data', (chunk) => (raw += chunk));
      stream.on('end', () => {
        if (state.holding && delivered.length >= ANSWERED_BEFORE_THE_KILL) {
          state.held++;
          return;
        }
        delivered.push({ messageId: /^Message-ID: (.+)$/im.exec(raw)?.[1]?.trim() ?? '', text: decodedMail(raw) });
        answer();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    delivered,
    state,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

/** A database the spawned servers share, with a buyer who has a live session and a SKU with plenty of stock. */
async function prepareShop(dataDir: string) {
  const database = postgresAdminUrl
    ? await openTestDatabase({ dataDir: inject('dataDir'), runId: inject('runId') })
    : {
        handle: await openDatabase({
          embeddedDir: path.join(dataDir, 'db'),
          embeddedFrom: new Blob([fs.readFileSync(templateDumpPath(inject('dataDir')))]),
        }),
        url: undefined,
      };
  const ctx = { db: database.handle.db, env: { SESSION_SECRET } } as unknown as AppContext;
  const [user] = await ctx.db
    .insert(users)
    .values({ email: 'outbox@example.com', username: 'outbox-buyer' })
    .returning();
  const session = await createSession(ctx, user!.id);
  const [sku] = await ctx.db
    .select({ id: productSkus.id })
    .from(productSkus)
    .innerJoin(products, eq(products.id, productSkus.productId))
    .where(eq(products.listed, true))
    .orderBy(asc(productSkus.id))
    .limit(1);
  await ctx.db.update(productSkus).set({ stock: 10_000 }).where(eq(productSkus.id, sku!.id));
  await database.handle.close();
  return {
    databaseUrl: database.url,
    skuId: sku!.id,
    headers: { token: session.token, sign: session.sign, lang: 'en', 'content-type': 'application/json' },
  };
}

describe('the outbox survives a killed server', { timeout: 240_000 }, () => {
  it(`delivers each of ${ORDERS} order placed emails exactly once across a SIGKILL in the middle of sending`, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-outbox-restart-'));
    const shop = await prepareShop(dataDir);
    const mail = await startMailServer();
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: shop.databaseUrl,
      SESSION_SECRET,
      SMTP_URL: mail.url,
      SEED_DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
    };
    let first: SpawnedServer | undefined;
    let second: SpawnedServer | undefined;
    try {
      first = spawnServer(env, await freePort());
      await waitForReady(first.url);
      const call = (server: SpawnedServer, route: string, body: unknown) =>
        fetch(`${server.url}${route}`, { method: 'POST', headers: shop.headers, body: JSON.stringify(body) });
      expect((await call(first, '/v1/useraddress', chinaAddress)).status).toBe(200);

      const orderNumbers: string[] = [];
      for (let placed = 0; placed < ORDERS; placed += 20) {
        const answers = await Promise.all(
          Array.from({ length: 20 }, () => call(first!, '/v2/order', { items: [{ sku_id: shop.skuId, quantity: 1 }] })),
        );
        for (const answer of answers) {
          expect(answer.status).toBe(200);
          orderNumbers.push(((await answer.json()) as { data: { order_no: string } }).data.order_no);
        }
      }
      // Killed while some emails wait for the mail server's answer and most are not sent yet.
      await expect.poll(() => mail.state.held, { timeout: 60_000 }).toBeGreaterThan(0);
      first.child.kill('SIGKILL');
      await first.exited;
      expect(mail.delivered.length).toBeLessThan(ORDERS);
      mail.state.holding = false;

      // The restarted server sends the rest, including those held at the kill once their lease runs out.
      second = spawnServer(env, await freePort());
      await waitForReady(second.url);
      await expect
        .poll(() => mail.delivered.length, { timeout: 120_000, interval: 500 })
        .toBeGreaterThanOrEqual(ORDERS);
      // Nothing more arrives later either.
      await new Promise((resolve) => setTimeout(resolve, 2_000));

      expect(mail.delivered).toHaveLength(ORDERS);
      expect(new Set(mail.delivered.map((message) => message.messageId)).size).toBe(ORDERS);
      const mailedOrders = mail.delivered.map((message) => /We received your order (\d+)/.exec(message.text)?.[1]);
      expect(mailedOrders.sort()).toEqual([...orderNumbers].sort());
    } finally {
      await first?.stop('SIGKILL');
      await second?.stop();
      await mail.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
