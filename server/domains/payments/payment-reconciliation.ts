import { and, asc, eq, gt, inArray, isNotNull, lt } from 'drizzle-orm';
import { payments } from '../../db/schema';
import type { AppContext } from '../../context';
import type { WebhookOutcome } from './payments.schemas';
import { applyHeldEvents, applyPaymentEvent, type Payment } from './payments.service';
import { providerNamed } from './payment-providers';

/** Gateway sessions expire long before this (Stripe 24 hours, the sandbox one hour); older payments are left alone. */
const RECONCILE_WITHIN_MS = 7 * 24 * 60 * 60 * 1000;
const BATCH = 20;

/**
 * Asks the gateway where one payment stands and applies the answer through the same path as
 * a webhook. The event id is derived from the payment and the outcome, so two copies that
 * both heard "paid" apply it once, and the webhook that arrives later finds it `stale`.
 * `pending` while the buyer may still pay; null when the gateway could not be asked.
 */
export async function refreshPayment(ctx: AppContext, payment: Payment): Promise<WebhookOutcome | 'pending' | null> {
  const provider = providerNamed(ctx.env, payment.provider);
  if (!provider || !payment.providerRef) return null;
  try {
    const found = await provider.lookupPayment(ctx, {
      paymentId: payment.id,
      providerRef: payment.providerRef,
      method: payment.method,
      amountMinor: payment.chargedAmountMinor,
      currency: payment.chargedCurrency,
    });
    if (found === 'pending') return 'pending';
    const eventId = `reconcile:${payment.id}:${found.type}`;
    return await applyPaymentEvent(ctx, payment.provider, { ...found, eventId });
  } catch (error) {
    ctx.log.warn({ err: error, paymentId: payment.id }, 'payments: could not ask the gateway; will try again');
    return null;
  }
}

/**
 * Claims pending payments nobody has looked at for PAYMENT_RECONCILE_AFTER_MINUTES: the
 * claim touches `updated_at` in the statement that selects them with SKIP LOCKED, so another
 * copy running at the same moment skips them and will not pick them again for as long.
 */
async function claimStalePending(ctx: AppContext, now: Date): Promise<Payment[]> {
  const quietSince = new Date(now.getTime() - ctx.env.PAYMENT_RECONCILE_AFTER_MINUTES * 60_000);
  const due = ctx.db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.status, 'pending'),
        isNotNull(payments.providerRef),
        lt(payments.updatedAt, quietSince),
        gt(payments.createdAt, new Date(now.getTime() - RECONCILE_WITHIN_MS)),
      ),
    )
    .orderBy(asc(payments.updatedAt))
    .limit(BATCH)
    .for('update', { skipLocked: true });
  return ctx.db
    .update(payments)
    .set({ updatedAt: now })
    .where(and(inArray(payments.id, due), eq(payments.status, 'pending')))
    .returning();
}

export interface ReconcileResult {
  /** Payments asked about, with what came of each. */
  asked: Array<{ paymentId: number; outcome: WebhookOutcome | 'pending' | null }>;
  /** Held events applied because their payment is known by now. */
  heldApplied: number;
}

/**
 * One pass of reconciliation, on every copy from the payments job: payments still pending
 * after PAYMENT_RECONCILE_AFTER_MINUTES are asked about at their gateway (a webhook may have
 * been lost), and events held for a payment we did not know are applied once it is known.
 * `now` lets tests move the clock instead of waiting.
 */
export async function reconcilePayments(ctx: AppContext, options: { now?: Date } = {}): Promise<ReconcileResult> {
  const claimed = await claimStalePending(ctx, options.now ?? new Date());
  const asked: ReconcileResult['asked'] = [];
  for (const payment of claimed) asked.push({ paymentId: payment.id, outcome: await refreshPayment(ctx, payment) });
  return { asked, heldApplied: await applyHeldEvents(ctx) };
}
