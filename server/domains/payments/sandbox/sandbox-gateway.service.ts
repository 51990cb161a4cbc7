import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { sandboxGatewayRefunds, sandboxGatewaySessions, sandboxGatewayWebhooks } from '../../../db/schema';
import type { AppContext } from '../../../context';
import type { Env } from '../../../shared/env';
import { retryDelayMs } from '../../../shared/backoff';
import { NotFoundError } from '../../../shared/errors';
import type { CheckoutRequest } from '../payment-provider';
import { SANDBOX_SIGNATURE_HEADER, signSandboxPayload } from './sandbox-signature';
import { onlyRow } from '../../../db/rows';

/**
 * The sandbox gateway: what a hosted payment gateway does on its side, run inside the shop
 * so the whole flow works offline. It keeps checkout sessions, shows the hosted page, and
 * tells the shop the outcome only through signed webhooks, kept in an outbox until the shop
 * acknowledges them.
 */

export const SANDBOX_SESSION_LIFETIME_MS = 60 * 60 * 1000;
/** Deliveries are retried with the shared backoff (server/shared/backoff.ts) up to this many times. */
export const WEBHOOK_MAX_ATTEMPTS = 20;
/** The shop's webhook route for the sandbox (server/http/routes/payment.routes.ts serves `/v1/pay/webhook/:provider`). */
const SANDBOX_WEBHOOK_PATH = '/v1/pay/webhook/sandbox';

/** Where the sandbox gateway posts webhooks: SANDBOX_WEBHOOK_URL, else this server on loopback. */
export function sandboxWebhookUrl(env: Env, address: AddressInfo | string | null): string | null {
  if (env.SANDBOX_WEBHOOK_URL) return env.SANDBOX_WEBHOOK_URL;
  if (!address || typeof address === 'string') return null;
  const host = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}${SANDBOX_WEBHOOK_PATH}`;
}

const DELIVERY_LEASE_SECONDS = 60;
const DELIVERY_TIMEOUT_MS = 10_000;

export type SandboxSession = typeof sandboxGatewaySessions.$inferSelect;
export type SandboxEventType = 'payment.succeeded' | 'payment.failed';

export interface SandboxEventPayload {
  id: string;
  type: SandboxEventType;
  created: number;
  data: { session_id: string; reference: string; amount: number; currency: string };
}

function randomId(prefix: string): string {
  return `${prefix}_${randomBytes(18).toString('base64url')}`;
}

export async function openSandboxSession(
  ctx: AppContext,
  request: Omit<CheckoutRequest, 'method' | 'country'>,
): Promise<SandboxSession> {
  const session = onlyRow(
    await ctx.db
      .insert(sandboxGatewaySessions)
      .values({
        id: randomId('cs_sbx'),
        reference: String(request.paymentId),
        amountMinor: request.amountMinor,
        currency: request.currency,
        description: request.description,
        locale: request.locale,
        successUrl: request.successUrl,
        failUrl: request.failUrl,
        expiresAt: new Date(Date.now() + SANDBOX_SESSION_LIFETIME_MS),
      })
      .returning(),
  );
  return session;
}

export async function findSandboxSession(ctx: AppContext, id: string): Promise<SandboxSession | null> {
  const [session] = await ctx.db.select().from(sandboxGatewaySessions).where(eq(sandboxGatewaySessions.id, id));
  return session ?? null;
}

export function isExpired(session: SandboxSession, now = new Date()): boolean {
  return session.status === 'open' && session.expiresAt <= now;
}

/**
 * The buyer pressed Pay or Decline. The outcome and the webhook that reports it are stored
 * in one transaction, so once the buyer is redirected the shop is bound to hear about it,
 * even if this process dies before delivering. Pressing again (a double submit, the back
 * button) changes nothing and sends the buyer to the same place.
 */
export async function completeSandboxSession(
  ctx: AppContext,
  input: { sessionId: string; action: 'pay' | 'decline' },
): Promise<{ session: SandboxSession; eventId: string | null }> {
  return ctx.db.transaction(async (tx) => {
    const [session] = await tx
      .select()
      .from(sandboxGatewaySessions)
      .where(eq(sandboxGatewaySessions.id, input.sessionId))
      .for('update');
    if (!session) throw new NotFoundError();
    if (session.status !== 'open') return { session, eventId: null };
    const paid = input.action === 'pay' && !isExpired(session);
    const updated = onlyRow(
      await tx
        .update(sandboxGatewaySessions)
        .set({ status: paid ? 'paid' : 'declined', updatedAt: new Date() })
        .where(eq(sandboxGatewaySessions.id, session.id))
        .returning(),
    );
    const event: SandboxEventPayload = {
      id: randomId('evt_sbx'),
      type: paid ? 'payment.succeeded' : 'payment.failed',
      created: Math.floor(Date.now() / 1000),
      data: {
        session_id: session.id,
        reference: session.reference,
        amount: session.amountMinor,
        currency: session.currency,
      },
    };
    await tx.insert(sandboxGatewayWebhooks).values({ eventId: event.id, payload: JSON.stringify(event) });
    return { session: updated, eventId: event.id };
  });
}

/**
 * Refunds all or part of a paid session, as a real gateway's refund API: the merchant's
 * idempotency key names the refund (asking again with it answers the same refund), and the
 * refunds of a session never add up to more than it captured. The session reads `refunded`
 * once nothing is left.
 */
export async function refundSandboxSession(
  ctx: AppContext,
  sessionId: string,
  request: { amountMinor: number; idempotencyKey: string },
): Promise<{ refundId: string }> {
  return ctx.db.transaction(async (tx) => {
    const [session] = await tx
      .select()
      .from(sandboxGatewaySessions)
      .where(eq(sandboxGatewaySessions.id, sessionId))
      .for('update');
    if (!session) throw new Error(`sandbox gateway: no session ${sessionId}`);
    const [repeated] = await tx
      .select()
      .from(sandboxGatewayRefunds)
      .where(eq(sandboxGatewayRefunds.idempotencyKey, request.idempotencyKey));
    if (repeated) return { refundId: repeated.id };
    if (session.status !== 'paid')
      throw new Error(`sandbox gateway: session ${sessionId} is ${session.status}, not paid`);
    const [done] = await tx
      .select({ sum: sql<number>`coalesce(sum(${sandboxGatewayRefunds.amountMinor}), 0)`.mapWith(Number) })
      .from(sandboxGatewayRefunds)
      .where(eq(sandboxGatewayRefunds.sessionId, sessionId));
    const refunded = done?.sum ?? 0;
    if (request.amountMinor <= 0 || refunded + request.amountMinor > session.amountMinor)
      throw new Error(
        `sandbox gateway: refund of ${request.amountMinor} exceeds what is left of session ${sessionId} (${session.amountMinor - refunded})`,
      );
    const refundId = randomId('re_sbx');
    await tx.insert(sandboxGatewayRefunds).values({
      id: refundId,
      sessionId,
      idempotencyKey: request.idempotencyKey,
      amountMinor: request.amountMinor,
    });
    if (refunded + request.amountMinor === session.amountMinor)
      await tx
        .update(sandboxGatewaySessions)
        .set({ status: 'refunded', refundId, updatedAt: new Date() })
        .where(eq(sandboxGatewaySessions.id, sessionId));
    return { refundId };
  });
}

interface ClaimedWebhook {
  id: number;
  event_id: string;
  payload: string;
  attempts: number;
}

/**
 * Takes a lease on due webhooks. SKIP LOCKED lets several server copies claim at once
 * without waiting on each other; the lease keeps a row from being sent twice while its
 * delivery is in flight, and lets another copy take over if this one dies mid-delivery.
 */
async function claimDueWebhooks(
  ctx: AppContext,
  options: { eventId?: string; limit: number },
): Promise<ClaimedWebhook[]> {
  const onlyEvent = options.eventId ? sql`and event_id = ${options.eventId}` : sql``;
  const result = await ctx.db.execute(sql`
    update sandbox_gateway_webhooks
       set locked_until = now() + make_interval(secs => ${DELIVERY_LEASE_SECONDS}), attempts = attempts + 1
     where id in (
       select id from sandbox_gateway_webhooks
        where delivered_at is null
          and next_attempt_at <= now()
          and attempts < ${WEBHOOK_MAX_ATTEMPTS}
          and (locked_until is null or locked_until < now())
          ${onlyEvent}
        order by next_attempt_at
        limit ${options.limit}
        for update skip locked)
    returning id, event_id, payload, attempts`);
  return (result as unknown as { rows: ClaimedWebhook[] }).rows;
}

async function deliver(ctx: AppContext, webhookUrl: string, webhook: ClaimedWebhook): Promise<boolean> {
  let error: string | null = null;
  try {
    const response = await fetch(webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [SANDBOX_SIGNATURE_HEADER]: signSandboxPayload(ctx.env.SANDBOX_WEBHOOK_SECRET, webhook.payload),
      },
      body: webhook.payload,
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (!response.ok) error = `HTTP ${response.status}`;
  } catch (cause) {
    error = (cause as Error).message;
  }
  const now = Date.now();
  await ctx.db
    .update(sandboxGatewayWebhooks)
    .set(
      error
        ? { lockedUntil: null, lastError: error, nextAttemptAt: new Date(now + retryDelayMs(webhook.attempts)) }
        : { lockedUntil: null, lastError: null, deliveredAt: new Date(now) },
    )
    .where(eq(sandboxGatewayWebhooks.id, webhook.id));
  if (error)
    ctx.log.warn(
      { eventId: webhook.event_id, attempts: webhook.attempts, error },
      'sandbox gateway: webhook delivery failed; will retry',
    );
  return !error;
}

/** Sends one webhook now (right after the buyer pressed a button). False if it must wait for a retry. */
export async function deliverSandboxWebhookNow(ctx: AppContext, webhookUrl: string, eventId: string): Promise<boolean> {
  const [claimed] = await claimDueWebhooks(ctx, { eventId, limit: 1 });
  return claimed ? deliver(ctx, webhookUrl, claimed) : false;
}

/** One pass of the retry job: delivers what is due. Returns how many were delivered. */
export async function deliverDueSandboxWebhooks(ctx: AppContext, webhookUrl: string, limit = 10): Promise<number> {
  const claimed = await claimDueWebhooks(ctx, { limit });
  let delivered = 0;
  for (const webhook of claimed) if (await deliver(ctx, webhookUrl, webhook)) delivered++;
  return delivered;
}
