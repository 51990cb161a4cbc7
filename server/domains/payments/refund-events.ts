import { and, eq } from 'drizzle-orm';
import { orders, paymentEvents, payments, refunds } from '../../db/schema';
import type { AppContext, Transaction } from '../../context';
import { AppError } from '../../shared/errors';
import { RATE_SCALE } from '../../shared/money';
import { retireStockPages } from '../../shared/content-version';
import type { PaymentProviderName } from '../../shared/payment-methods';
import type { ReleasedStock } from '../orders/order-state';
import { recordAudit, systemActor } from '../audit/audit.service';
import { outRequestNo } from './alipay-provider';
import type { RefundReport } from './payment-provider';
import { REFUND_HOLDING_STATES } from './refund-lifecycle';
import type { WebhookOutcome } from './payments.schemas';
import { shopRefundTag, wholeRefundKey } from './refund-tag';
import {
  confirmLockedRefund,
  refundAudit,
  refundSettled,
  settlementOfCharged,
  type RefundRow,
} from './refunds.service';

type PaymentRow = typeof payments.$inferSelect;
type Applied = { outcome: WebhookOutcome; paymentId: number | null; released: ReleasedStock | null };

/** The mark a refund with this key carries at its gateway (what the gateway's refund webhook echoes). */
function tagOf(provider: PaymentProviderName, idempotencyKey: string): string {
  return provider === 'alipay' ? outRequestNo(idempotencyKey) : shopRefundTag(idempotencyKey);
}

/**
 * A refund a gateway reports as made (its webhook), applied once through the event inbox:
 * - one the shop already recorded (our call's answer came first, or an earlier event) is `stale`;
 * - one the shop asked for whose answer is not recorded yet (the webhook came first) is
 *   confirmed now, by the tag the gateway echoes; the answer then finds it done;
 * - any other was made in the gateway's dashboard: recorded as a succeeded refund made there,
 *   and it moves the payment and order, and emails the buyer, as a shop refund would.
 */
export async function applyRefundReport(
  ctx: AppContext,
  provider: PaymentProviderName,
  report: RefundReport & { eventId: string },
): Promise<WebhookOutcome> {
  const applied = await ctx.db.transaction(async (tx): Promise<Applied> => {
    const [recorded] = await tx
      .insert(paymentEvents)
      .values({ provider, eventId: report.eventId, type: report.type, outcome: 'received' })
      .onConflictDoNothing()
      .returning({ id: paymentEvents.id });
    if (!recorded) return { outcome: 'duplicate', paymentId: null, released: null };
    const [payment] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.provider, provider), eq(payments.chargeRef, report.chargeRef)))
      .for('update');
    const applied: Applied = payment
      ? await applyToPayment(ctx, tx, provider, payment, report)
      : { outcome: 'ignored', paymentId: null, released: null };
    if (!payment)
      ctx.log.warn({ provider, chargeRef: report.chargeRef }, 'payments: refund of a charge we do not know');
    await tx
      .update(paymentEvents)
      .set({ outcome: applied.outcome, paymentId: applied.paymentId, providerRef: payment?.providerRef ?? null })
      .where(eq(paymentEvents.id, recorded.id));
    return applied;
  });
  const released = applied.released;
  if (released) await retireStockPages(ctx, { productIds: released.productIds, listingsToo: released.backInStock });
  return applied.outcome;
}

async function applyToPayment(
  ctx: AppContext,
  tx: Transaction,
  provider: PaymentProviderName,
  payment: PaymentRow,
  report: RefundReport,
): Promise<Applied> {
  const done = (outcome: WebhookOutcome, released: ReleasedStock | null = null): Applied => ({
    outcome,
    paymentId: payment.id,
    released,
  });
  const ofPayment = await tx.select().from(refunds).where(eq(refunds.paymentId, payment.id));
  if (payment.refundRef === report.refundRef || ofPayment.some((row) => row.providerRefundRef === report.refundRef))
    return done('stale');
  if (report.shopTag !== undefined) {
    if (report.shopTag === tagOf(provider, wholeRefundKey(payment.id))) return done('stale');
    const own = ofPayment.find((row) => tagOf(provider, row.idempotencyKey) === report.shopTag);
    if (own?.status === 'pending') {
      const released = await confirmLockedRefund(
        { ...ctx, db: tx, actor: systemActor('refunds') },
        payment,
        own,
        report.refundRef,
      );
      return done('refund_confirmed', released);
    }
    // Ours and given up on, yet the gateway made it after all: it settles now, unless staff have
    // meanwhile refunded that money another way (then the gateway gave back more than the shop meant).
    if (own?.status === 'failed') {
      const held = ofPayment
        .filter((row) => REFUND_HOLDING_STATES.includes(row.status))
        .reduce((total, row) => total + row.chargedAmountMinor, 0);
      if (held + own.chargedAmountMinor <= payment.chargedAmountMinor) {
        const released = await confirmLockedRefund(
          { ...ctx, db: tx, actor: systemActor('refunds') },
          payment,
          own,
          report.refundRef,
          'gatewayReported',
        );
        return done('refund_confirmed', released);
      }
      ctx.log.error(
        { refundId: own.id, paymentId: payment.id },
        'payments: gateway made a refund we gave up on, and the money was refunded again since',
      );
      return done('stale');
    }
    if (own) return done('stale');
  }
  // A running total (Alipay) counts our refunds still waiting for the gateway's answer, or not:
  // the report is refused for now (the gateway sends it again) rather than guessed at.
  if (report.cumulative && ofPayment.some((row) => row.status === 'pending')) {
    throw new AppError('conflict', 'refund.reportWaitsForOwn');
  }
  // A payment owed back whole (refund_pending) or given back already has nothing to record.
  if (payment.status !== 'succeeded') return done('stale');
  if (report.currency !== payment.chargedCurrency) {
    ctx.log.error(
      { paymentId: payment.id, currency: report.currency, charged: payment.chargedCurrency },
      'payments: gateway refund in another currency than the charge',
    );
    return done('ignored');
  }
  const refund = await recordDashboardRefund(ctx, tx, provider, payment, ofPayment, report);
  if (!refund) return done('stale');
  const t = { ...ctx, db: tx, actor: systemActor(provider) };
  const released = await refundSettled(t, payment, refund, report.refundRef);
  await recordAudit(t, {
    action: 'refund.succeeded',
    entityType: 'refund',
    entityId: refund.id,
    after: { ...refundAudit(refund), made_in: refund.madeIn, provider_refund_ref: report.refundRef },
  });
  return done('refunded', released);
}

/**
 * The succeeded refund a dashboard made: in the charged currency as the gateway says; in the
 * settlement currency at the order's frozen rate, the one that empties the charge taking what
 * is left (the rounding remainder), as a shop refund does. Null when the shop's records hold
 * nothing more to give back (logged: the gateway and the shop disagree).
 */
async function recordDashboardRefund(
  ctx: AppContext,
  tx: Transaction,
  provider: PaymentProviderName,
  payment: PaymentRow,
  ofPayment: readonly RefundRow[],
  report: RefundReport,
): Promise<RefundRow | null> {
  const succeeded = ofPayment.filter((row) => row.status === 'succeeded');
  const sum = (pick: (row: RefundRow) => number) => succeeded.reduce((total, row) => total + pick(row), 0);
  const chargedLeft = payment.chargedAmountMinor - sum((row) => row.chargedAmountMinor);
  const settlementLeft = payment.amountMinor - sum((row) => row.amountMinor);
  const reported = report.cumulative ? report.amountMinor - sum((row) => row.chargedAmountMinor) : report.amountMinor;
  if (reported <= 0 || settlementLeft <= 0 || chargedLeft <= 0 || reported > chargedLeft) {
    if (reported > 0)
      ctx.log.error(
        { paymentId: payment.id, reported, chargedLeft },
        'payments: gateway refunded more than the shop holds',
      );
    if (reported <= 0 || settlementLeft <= 0 || chargedLeft <= 0) return null;
  }
  // Never more than is left of the charge, whatever the gateway's figure: the log above says so.
  const charged = Math.min(reported, chargedLeft);
  const [order] = await tx
    .select({ rateMicros: orders.displayRateMicros })
    .from(orders)
    .where(eq(orders.id, payment.orderId));
  const settlement =
    charged >= chargedLeft
      ? settlementLeft
      : Math.min(
          settlementLeft,
          Math.max(
            1,
            settlementOfCharged({
              chargedMinor: charged,
              settlementCurrency: payment.currency,
              chargedCurrency: payment.chargedCurrency,
              rateMicros: order?.rateMicros ?? Number(RATE_SCALE),
            }),
          ),
        );
  const now = new Date();
  const [refund] = await tx
    .insert(refunds)
    .values({
      orderId: payment.orderId,
      paymentId: payment.id,
      amountMinor: settlement,
      currency: payment.currency,
      chargedAmountMinor: charged,
      chargedCurrency: payment.chargedCurrency,
      reason: '',
      status: 'succeeded',
      madeIn: provider,
      idempotencyKey: `${provider}:${report.refundRef}`,
      providerRefundRef: report.refundRef,
      succeededAt: now,
    })
    .onConflictDoNothing()
    .returning();
  return refund ?? null;
}
