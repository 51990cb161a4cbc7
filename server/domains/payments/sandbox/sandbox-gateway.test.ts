import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openTestDatabase } from '../../../../tests/support/database';
import { sandboxGatewayWebhooks } from '../../../db/schema';
import type { AppContext } from '../../../context';
import { loadEnv } from '../../../shared/env';
import { retryDelayMs } from '../../../shared/backoff';
import {
  completeSandboxSession,
  deliverDueSandboxWebhooks,
  findSandboxSession,
  openSandboxSession,
  refundSandboxSession,
} from './sandbox-gateway.service';
import { verifySandboxSignature } from './sandbox-signature';

const secret = 'gateway-unit-test-secret-0123456789abcdef';
let ctx: AppContext;
let drop: () => Promise<void>;
let receiver: http.Server;
let receiverUrl: string;
const received: Array<{ eventId: string; signed: boolean }> = [];
let answerStatus = 200;

beforeAll(async () => {
  const database = await openTestDatabase({ dataDir: inject('dataDir'), runId: inject('runId') });
  drop = async () => {
    await database.handle.close();
    await database.drop();
  };
  const env = loadEnv({ NODE_ENV: 'test', SANDBOX_WEBHOOK_SECRET: secret });
  ctx = {
    env,
    db: database.handle.db,
    database: database.handle,
    log: pino({ level: 'silent' }),
  } as unknown as AppContext;
  receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const signed = verifySandboxSignature(secret, body, request.headers['sandbox-signature'] as string).ok;
      received.push({ eventId: JSON.parse(body.toString()).id, signed });
      response.writeHead(answerStatus).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  receiver?.close();
  await drop?.();
});

async function pressedSession(action: 'pay' | 'decline') {
  const session = await openSandboxSession(ctx, {
    paymentId: 1,
    orderId: 1,
    amountMinor: 500,
    currency: 'CNY',
    locale: 'en',
    description: 'T1',
    successUrl: 'http://shop.test/en/result/success?order_id=1',
    failUrl: 'http://shop.test/en/result/fail?order_id=1',
  });
  const { eventId } = await completeSandboxSession(ctx, { sessionId: session.id, action });
  return eventId!;
}

describe('sandbox gateway webhook outbox', () => {
  it('backs off 5 s, 15 s, 45 s ... up to an hour', () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([5_000, 15_000, 45_000, 135_000]);
    expect(retryDelayMs(30)).toBe(3_600_000);
  });

  it('delivers each due webhook once, signed, even with several workers claiming at the same time', async () => {
    const events = await Promise.all(Array.from({ length: 6 }, (_, i) => pressedSession(i % 2 ? 'pay' : 'decline')));
    received.length = 0;
    const delivered = await Promise.all([
      deliverDueSandboxWebhooks(ctx, receiverUrl),
      deliverDueSandboxWebhooks(ctx, receiverUrl),
      deliverDueSandboxWebhooks(ctx, receiverUrl),
    ]);
    expect(delivered.reduce((a, b) => a + b, 0)).toBe(6);
    expect(received.map((hit) => hit.eventId).sort()).toEqual([...events].sort());
    expect(received.every((hit) => hit.signed)).toBe(true);
    expect(await deliverDueSandboxWebhooks(ctx, receiverUrl)).toBe(0);
  });

  it('keeps a refused delivery and schedules it with backoff', async () => {
    const eventId = await pressedSession('pay');
    answerStatus = 503;
    const before = Date.now();
    expect(await deliverDueSandboxWebhooks(ctx, receiverUrl)).toBe(0);
    answerStatus = 200;
    const [row] = await ctx.db.select().from(sandboxGatewayWebhooks).where(eq(sandboxGatewayWebhooks.eventId, eventId));
    expect(row).toMatchObject({ attempts: 1, deliveredAt: null, lockedUntil: null, lastError: 'HTTP 503' });
    expect(row!.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before + 4_000);
    // Not due yet: nothing is sent until the backoff has passed.
    expect(await deliverDueSandboxWebhooks(ctx, receiverUrl)).toBe(0);
    await ctx.db
      .update(sandboxGatewayWebhooks)
      .set({ nextAttemptAt: new Date() })
      .where(eq(sandboxGatewayWebhooks.eventId, eventId));
    expect(await deliverDueSandboxWebhooks(ctx, receiverUrl)).toBe(1);
  });

  it('a second press of the same session records no second outcome', async () => {
    const session = await openSandboxSession(ctx, {
      paymentId: 2,
      orderId: 2,
      amountMinor: 500,
      currency: 'CNY',
      locale: 'en',
      description: 'T2',
      successUrl: 's',
      failUrl: 'f',
    });
    const first = await completeSandboxSession(ctx, { sessionId: session.id, action: 'pay' });
    const second = await completeSandboxSession(ctx, { sessionId: session.id, action: 'decline' });
    expect(first.session.status).toBe('paid');
    expect(second).toMatchObject({ eventId: null, session: { status: 'paid' } });
  });
});

describe('sandbox gateway refunds', () => {
  it('refunds part of a session, then the rest, answers a repeated key with the same refund, and refuses more', async () => {
    const session = await openSandboxSession(ctx, {
      paymentId: 7,
      orderId: 7,
      amountMinor: 1_000,
      currency: 'CNY',
      locale: 'en',
      description: 'T7',
      successUrl: 'http://shop.test/ok',
      failUrl: 'http://shop.test/fail',
    });
    await expect(
      refundSandboxSession(ctx, session.id, { amountMinor: 100, idempotencyKey: 'k-early' }),
    ).rejects.toThrow(/is open, not paid/);
    await completeSandboxSession(ctx, { sessionId: session.id, action: 'pay' });
    const first = await refundSandboxSession(ctx, session.id, { amountMinor: 300, idempotencyKey: 'k-1' });
    expect(await refundSandboxSession(ctx, session.id, { amountMinor: 300, idempotencyKey: 'k-1' })).toEqual(first);
    expect((await findSandboxSession(ctx, session.id))?.status).toBe('paid');
    await expect(refundSandboxSession(ctx, session.id, { amountMinor: 701, idempotencyKey: 'k-2' })).rejects.toThrow(
      /exceeds what is left of session .* \(700\)/,
    );
    const rest = await refundSandboxSession(ctx, session.id, { amountMinor: 700, idempotencyKey: 'k-3' });
    expect(rest.refundId).not.toBe(first.refundId);
    expect(await findSandboxSession(ctx, session.id)).toMatchObject({ status: 'refunded', refundId: rest.refundId });
  });
});
