import { z } from 'zod';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { orders, payments, refunds } from '../../db/schema';
import type { ActingContext, AppContext, StaffActing, Transaction, TransactionContext } from '../../context';
import { onlyRow } from '../../db/rows';
import { AppError, ForbiddenError, NotFoundError } from '../../shared/errors';
import { amountView, convert, formatPrice, isCurrency, RATE_SCALE, type Currency } from '../../shared/money';
import { ORDER_STATUS } from '../../shared/order-status';
import { recordAudit, systemActor } from '../audit/audit.service';
import { enqueueEffect } from '../outbox/outbox.service';
import { lockOrder, moveOrder, releaseOrderHolds, type ReleasedStock } from '../orders/order-state';
import { retireStockPages } from '../../shared/content-version';
import { canTransition } from './payment-lifecycle';
import { providerNamed } from './payment-providers';
import { canMoveRefund, REFUND_HOLDING_STATES, type RefundAction } from './refund-lifecycle';
import { enqueueRefundMail } from './refund-mail';

/**
 * Staff refunds of all or part of a paid order (ADR 0101). A request locks the order's
 * captured payment, so two refunds at once cannot together take more than it captured less
 * what other refunds hold. Above the requester's limit it waits for a second member whose
 * limit covers it. The gateway is asked after the commit, by the outbox (topic REFUND_TOPIC),
 * with the refund's idempotency key, so a retry never refunds twice.
 */

export const REFUND_TOPIC = 'refund';
export const refundEffectJob = z.object({ refundId: z.number().int().positive() });
/** After this many refused attempts at the gateway the refund is `failed` and its amount refundable again. */
export const REFUND_MAX_ATTEMPTS = 8;

export type RefundRow = typeof refunds.$inferSelect;
type PaymentRow = typeof payments.$inferSelect;

class RefundConflictError extends AppError {
  constructor(
    key: 'refund.notPaid' | 'refund.keyReused' | 'refund.notAwaitingApproval',
    params?: Record<string, string>,
  ) {
    super('conflict', key, params);
  }
}

class RefundExceedsError extends AppError {
  constructor(amount: string) {
    super('conflict', 'refund.exceedsRefundable', { amount });
  }
}

/** An amount that converts to nothing in the currency the payment was charged in. */
class RefundBelowSmallestError extends AppError {
  constructor(params: { amount: string; smallest: string; currency: string }) {
    super('badRequest', 'refund.belowSmallest', params);
  }
}

/** The approver's own limit is below the amount. */
class RefundLimitError extends AppError {
  constructor(amount: string) {
    super('forbidden', 'refund.approverLimit', { amount });
  }
}

function money(amountMinor: number, currency: string): string {
  return formatPrice({ amountMinor, currency: isCurrency(currency) ? currency : 'CNY' });
}

/** A refund's figures as its audit events keep them. */
export function refundAudit(refund: RefundRow) {
  return {
    order_id: refund.orderId,
    payment_id: refund.paymentId,
    amount_minor: refund.amountMinor,
    currency: refund.currency,
    charged_amount_minor: refund.chargedAmountMinor,
    charged_currency: refund.chargedCurrency,
    status: refund.status,
  };
}

async function refundByKey(ctx: AppContext, key: string): Promise<RefundRow | undefined> {
  const [row] = await ctx.db.select().from(refunds).where(eq(refunds.idempotencyKey, key));
  return row;
}

/** What refunds not failed or rejected already hold of a payment: in the settlement currency, and as charged. */
async function heldOf(ctx: AppContext, paymentId: number): Promise<number> {
  return (await heldBoth(ctx, paymentId)).settlement;
}

async function heldBoth(ctx: AppContext, paymentId: number): Promise<{ settlement: number; charged: number }> {
  const [row] = await ctx.db
    .select({
      settlement: sql<number>`coalesce(sum(${refunds.amountMinor}), 0)`.mapWith(Number),
      charged: sql<number>`coalesce(sum(${refunds.chargedAmountMinor}), 0)`.mapWith(Number),
    })
    .from(refunds)
    .where(and(eq(refunds.paymentId, paymentId), inArray(refunds.status, [...REFUND_HOLDING_STATES])));
  return { settlement: row?.settlement ?? 0, charged: row?.charged ?? 0 };
}

/**
 * What a refund of `amountMinor` (settlement) gives back in the currency the payment was
 * charged in (ADR 0144): converted at the order's frozen rate, never more than is left of the
 * charge; the refund that empties the payment takes exactly what is left, rounding included.
 */
export function chargedRefundOf(input: {
  amountMinor: number;
  settlementLeft: number;
  chargedLeft: number;
  settlementCurrency: Currency;
  chargedCurrency: Currency;
  rateMicros: number;
}): number {
  if (input.chargedCurrency === input.settlementCurrency) return input.amountMinor;
  if (input.amountMinor >= input.settlementLeft) return input.chargedLeft;
  const converted = amountView(
    input.amountMinor,
    input.settlementCurrency,
    input.chargedCurrency,
    input.rateMicros,
  ).display_amount_minor;
  return Math.min(converted, input.chargedLeft);
}

/**
 * The smallest settlement amount that gives back at least one minor unit of the charged
 * currency at the frozen rate (CN¥0.03 on a yen charge at 21.4567): less converts to 0, which
 * a gateway refuses and the shop must not record as a refund.
 */
export function smallestRefundOf(input: {
  settlementCurrency: Currency;
  chargedCurrency: Currency;
  rateMicros: number;
}): number {
  if (input.chargedCurrency === input.settlementCurrency) return 1;
  const charged = (minor: number) =>
    amountView(minor, input.settlementCurrency, input.chargedCurrency, input.rateMicros).display_amount_minor;
  // Inverting the rate gives the neighbourhood; the forward conversion, with its rounding, decides.
  let smallest = Math.max(1, settlementOfCharged({ ...input, chargedMinor: 1 }) - 1);
  while (smallest > 1 && charged(smallest - 1) >= 1) smallest--;
  while (charged(smallest) < 1) smallest++;
  return smallest;
}

/** A charged amount in the settlement currency at the order's frozen rate (the inverse of amountView). */
export function settlementOfCharged(input: {
  chargedMinor: number;
  settlementCurrency: Currency;
  chargedCurrency: Currency;
  rateMicros: number;
}): number {
  if (input.chargedCurrency === input.settlementCurrency) return input.chargedMinor;
  return convert({ amountMinor: input.chargedMinor, currency: input.chargedCurrency }, input.settlementCurrency, {
    [input.settlementCurrency]: 1,
    [input.chargedCurrency]: input.rateMicros / Number(RATE_SCALE),
  } as Record<Currency, number>).amountMinor;
}

/**
 * The one rule for every refund the shop asks for (staff, after-sale cases): what it gives
 * back at the gateway, refused up front (nothing written) when that is nothing at all.
 */
function chargedRefundOrRefusal(input: Parameters<typeof chargedRefundOf>[0]): number {
  const charged = chargedRefundOf(input);
  if (charged >= 1) return charged;
  if (input.chargedLeft <= 0) throw new RefundExceedsError(money(0, input.settlementCurrency));
  throw new RefundBelowSmallestError({
    amount: money(input.amountMinor, input.settlementCurrency),
    smallest: money(smallestRefundOf(input), input.settlementCurrency),
    currency: input.chargedCurrency,
  });
}

async function enqueueRefund(ctx: TransactionContext, refundId: number): Promise<void> {
  await enqueueEffect(ctx, { topic: REFUND_TOPIC, payload: { refundId }, dedupeKey: `refund:${refundId}` });
}

/**
 * `POST /v1/admin/orders/:id/refunds`: refunds `amountMinor` of the order's captured payment.
 * A repeat with the same idempotency key answers the refund it made, whatever its state now.
 */
export async function requestRefund(
  ctx: StaffActing,
  input: { orderId: number; amountMinor: number; reason: string; idempotencyKey: string },
): Promise<RefundRow> {
  const repeated = await refundByKey(ctx, input.idempotencyKey);
  if (repeated) return sameRequest(repeated, input.orderId, null);
  return ctx.db.transaction((tx) => refundInTransaction({ ...ctx, db: tx }, input));
}

/**
 * Makes a refund in the caller's transaction (an after-sale case's refund joins the case's
 * move): locks the order's captured payment, checks what is left, and owes the gateway call
 * to the outbox when the amount is within the member's limit. `afterSaleId` ties it to its
 * case, which hears how it ended through REFUND_SETTLED_TOPIC.
 */
export async function refundInTransaction(
  t: StaffActing & { db: Transaction },
  input: { orderId: number; amountMinor: number; reason: string; idempotencyKey: string; afterSaleId?: number },
): Promise<RefundRow> {
  const tx = t.db;
  const [payment] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, input.orderId), eq(payments.status, 'succeeded')))
    .orderBy(asc(payments.id))
    .limit(1)
    .for('update');
  if (!payment) {
    const [order] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, input.orderId));
    if (!order) throw new NotFoundError('order.notFound');
    throw new RefundConflictError('refund.notPaid');
  }
  // A concurrent request with the same key waited on the lock above; it finds the refund now.
  const raced = await refundByKey(t, input.idempotencyKey);
  if (raced) return sameRequest(raced, input.orderId, input.afterSaleId ?? null);
  const held = await heldBoth(t, payment.id);
  const left = payment.amountMinor - held.settlement;
  if (input.amountMinor > left) throw new RefundExceedsError(money(Math.max(left, 0), payment.currency));
  const [order] = await tx
    .select({ rateMicros: orders.displayRateMicros })
    .from(orders)
    .where(eq(orders.id, input.orderId));
  const chargedAmountMinor = chargedRefundOrRefusal({
    amountMinor: input.amountMinor,
    settlementLeft: left,
    chargedLeft: payment.chargedAmountMinor - held.charged,
    settlementCurrency: payment.currency,
    chargedCurrency: payment.chargedCurrency,
    rateMicros: order?.rateMicros ?? Number(RATE_SCALE),
  });
  const limit = t.staff.refundLimitMinor;
  const withinLimit = limit === null || input.amountMinor <= limit;
  const refund = onlyRow(
    await tx
      .insert(refunds)
      .values({
        orderId: input.orderId,
        paymentId: payment.id,
        afterSaleId: input.afterSaleId ?? null,
        amountMinor: input.amountMinor,
        currency: payment.currency,
        chargedAmountMinor,
        chargedCurrency: payment.chargedCurrency,
        reason: input.reason,
        status: withinLimit ? 'pending' : 'awaiting_approval',
        idempotencyKey: input.idempotencyKey,
        requestedBy: t.staff.id,
      })
      .returning(),
  );
  if (withinLimit) await enqueueRefund(t, refund.id);
  await recordAudit(t, {
    action: 'refund.requested',
    entityType: 'refund',
    entityId: refund.id,
    after: {
      ...refundAudit(refund),
      reason: refund.reason,
      ...(input.afterSaleId ? { after_sale_id: input.afterSaleId } : {}),
    },
  });
  return refund;
}

/** What is left to refund of an order's captured payment, in its minor units; 0 when nothing was captured. */
export async function refundableOf(ctx: AppContext, orderId: number): Promise<number> {
  const [payment] = await ctx.db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), inArray(payments.status, ['succeeded', 'refunded'])))
    .orderBy(asc(payments.id))
    .limit(1);
  if (!payment) return 0;
  return Math.max(0, payment.amountMinor - (await heldOf(ctx, payment.id)));
}

/**
 * A refund made for an after-sale case ended (succeeded, failed or rejected): the case hears
 * of it through the outbox, in the transaction that ended it. The payments domain does not
 * know cases; the after-sales domain handles the topic (server/jobs/outbox-worker.ts).
 */
export const REFUND_SETTLED_TOPIC = 'refund-settled';
export const refundSettledJob = z.object({ refundId: z.number().int().positive() });

async function tellCase(ctx: TransactionContext, refund: RefundRow): Promise<void> {
  if (refund.afterSaleId === null) return;
  await enqueueEffect(ctx, {
    topic: REFUND_SETTLED_TOPIC,
    payload: { refundId: refund.id },
    dedupeKey: `refund-settled:${refund.id}`,
  });
}

/** The refund a repeated key names, when it was made for the same order and the same case (or none). */
function sameRequest(refund: RefundRow, orderId: number, afterSaleId: number | null): RefundRow {
  if (refund.orderId !== orderId || refund.afterSaleId !== afterSaleId)
    throw new RefundConflictError('refund.keyReused');
  return refund;
}

async function decide(
  ctx: StaffActing,
  refundId: number,
  decision: { action: Extract<RefundAction, 'approve' | 'reject'>; reason?: string },
): Promise<RefundRow> {
  return ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    const [refund] = await tx.select().from(refunds).where(eq(refunds.id, refundId)).for('update');
    if (!refund) throw new NotFoundError('refund.notFound');
    const to = decision.action === 'approve' ? 'pending' : 'rejected';
    if (!canMoveRefund(refund.status, to, decision.action)) throw new RefundConflictError('refund.notAwaitingApproval');
    if (decision.action === 'approve') {
      if (refund.requestedBy === ctx.staff.id) throw new ForbiddenError('refund.selfApproval');
      const limit = ctx.staff.refundLimitMinor;
      if (limit !== null && refund.amountMinor > limit)
        throw new RefundLimitError(money(refund.amountMinor, refund.currency));
    }
    const decided = onlyRow(
      await tx
        .update(refunds)
        .set({
          status: to,
          decidedBy: ctx.staff.id,
          decidedAt: new Date(),
          // What stopped the refund: for a rejection, the approver's reason (the audit log keeps it too).
          ...(decision.reason ? { lastError: decision.reason } : {}),
          updatedAt: new Date(),
        })
        .where(eq(refunds.id, refund.id))
        .returning(),
    );
    if (to === 'pending') await enqueueRefund(t, refund.id);
    else await tellCase(t, decided);
    await recordAudit(t, {
      action: decision.action === 'approve' ? 'refund.approved' : 'refund.rejected',
      entityType: 'refund',
      entityId: refund.id,
      before: { status: refund.status },
      after: { status: decided.status, ...(decision.reason ? { reason: decision.reason } : {}) },
    });
    return decided;
  });
}

/** `POST /v1/admin/refunds/:id/approve`: by a member other than the requester, whose limit covers the amount. */
export function approveRefund(ctx: StaffActing, refundId: number): Promise<RefundRow> {
  return decide(ctx, refundId, { action: 'approve' });
}

/** `POST /v1/admin/refunds/:id/reject`: any member who may refund, the requester included (withdrawing it). */
export function rejectRefund(ctx: StaffActing, refundId: number, reason: string): Promise<RefundRow> {
  return decide(ctx, refundId, { action: 'reject', reason });
}

const refundJob = systemActor('refunds');

/**
 * The outbox's refund effect: asks the payment's gateway for a pending refund. A refusal is
 * thrown, so the outbox retries with backoff, until REFUND_MAX_ATTEMPTS marks it failed.
 */
export async function executeRefund(ctx: AppContext, job: z.infer<typeof refundEffectJob>): Promise<void> {
  const [row] = await ctx.db
    .select({ refund: refunds, payment: payments })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(eq(refunds.id, job.refundId));
  if (!row || row.refund.status !== 'pending') return;
  const { refund, payment } = row;
  try {
    const provider = providerNamed(ctx.env, payment.provider);
    if (!provider) throw new Error(`provider ${payment.provider} is not configured`);
    if (!payment.providerRef) throw new Error(`payment ${payment.id} has no gateway reference`);
    const { refundRef } = await provider.refund(ctx, {
      paymentId: payment.id,
      providerRef: payment.providerRef,
      chargeRef: payment.chargeRef,
      amountMinor: refund.chargedAmountMinor,
      currency: refund.chargedCurrency,
      idempotencyKey: refund.idempotencyKey,
    });
    await confirmRefund(ctx, refund.id, refundRef);
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    const attempts = refund.attempts + 1;
    if (attempts < REFUND_MAX_ATTEMPTS) {
      await ctx.db
        .update(refunds)
        .set({ attempts, lastError: message, updatedAt: new Date() })
        .where(eq(refunds.id, refund.id));
      throw error;
    }
    await giveUp(ctx, refund, attempts, message);
    ctx.log.error({ refundId: refund.id, err: error }, 'refunds: gateway kept refusing; refund failed');
  }
}

async function giveUp(ctx: AppContext, refund: RefundRow, attempts: number, message: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [failed] = await tx
      .update(refunds)
      .set({ status: 'failed', attempts, lastError: message, updatedAt: new Date() })
      .where(and(eq(refunds.id, refund.id), eq(refunds.status, 'pending')))
      .returning();
    if (!failed) return;
    await tellCase({ ...ctx, db: tx }, failed);
    await recordAudit(
      { ...ctx, db: tx, actor: refundJob },
      {
        action: 'refund.failed',
        entityType: 'refund',
        entityId: refund.id,
        before: { status: 'pending' },
        after: { status: 'failed', last_error: message },
      },
    );
  });
}

/**
 * Records the gateway's yes: the refund succeeds and the payment and order move as
 * `refundSettled` says; the buyer is emailed.
 */
async function confirmRefund(ctx: AppContext, refundId: number, refundRef: string): Promise<void> {
  const released = await ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx, actor: refundJob };
    // The payment first, as requests lock it, so the two never wait on each other in opposite order.
    const [payment] = await tx
      .select()
      .from(payments)
      .where(eq(payments.id, sql`(select ${refunds.paymentId} from ${refunds} where ${refunds.id} = ${refundId})`))
      .for('update');
    const [refund] = await tx.select().from(refunds).where(eq(refunds.id, refundId)).for('update');
    if (!payment || !refund) return null;
    return confirmLockedRefund(t, payment, refund, refundRef);
  });
  if (released) await retireStockPages(ctx, { productIds: released.productIds, listingsToo: released.backInStock });
}

/**
 * A pending refund the gateway made (its answer to our call, or its webhook when that came
 * first), with its payment locked; a refund no longer pending is left alone, so the answer and
 * the webhook confirm it once between them.
 */
export async function confirmLockedRefund(
  t: ActingContext & { db: Transaction },
  payment: PaymentRow,
  refund: RefundRow,
  refundRef: string,
  action: RefundAction = 'confirm',
): Promise<ReleasedStock | null> {
  if (!canMoveRefund(refund.status, 'succeeded', action)) return null;
  const now = new Date();
  await t.db
    .update(refunds)
    .set({ status: 'succeeded', providerRefundRef: refundRef, succeededAt: now, lastError: null, updatedAt: now })
    .where(eq(refunds.id, refund.id));
  const released = await refundSettled(t, payment, { ...refund, status: 'succeeded' }, refundRef);
  await recordAudit(t, {
    action: 'refund.succeeded',
    entityType: 'refund',
    entityId: refund.id,
    before: { status: refund.status },
    after: { status: 'succeeded', provider_refund_ref: refundRef },
  });
  return released;
}

/**
 * What a succeeded refund changes, whoever made it (ADR 0101): once refunds reach what the
 * payment captured the payment is `refunded`; a paid order not yet shipped that is refunded in
 * full moves to Refunded (41) and its stock goes back on the shelf. The buyer is emailed, or
 * the refund's after-sale case hears of it. Runs in the caller's transaction, payment locked.
 */
export async function refundSettled(
  t: ActingContext & { db: Transaction },
  payment: PaymentRow,
  refund: RefundRow,
  refundRef: string,
): Promise<ReleasedStock | null> {
  const tx = t.db;
  let released: ReleasedStock | null = null;
  const now = new Date();
  const [done] = await tx
    .select({ sum: sql<number>`coalesce(sum(${refunds.amountMinor}), 0)`.mapWith(Number) })
    .from(refunds)
    .where(and(eq(refunds.paymentId, payment.id), eq(refunds.status, 'succeeded')));
  if ((done?.sum ?? 0) >= payment.amountMinor && canTransition(payment.status, 'refunded', 'refundInFull')) {
    await tx
      .update(payments)
      .set({ status: 'refunded', refundRef, refundedAt: now, updatedAt: now })
      .where(eq(payments.id, payment.id));
    const order = await lockOrder(tx, payment.orderId);
    if (order?.status === ORDER_STATUS.pendingShipment) {
      await moveOrder(tx, order, {
        action: 'refundInFull',
        to: ORDER_STATUS.refunded,
        actor: 'payment',
        note: 'order.history.refundedInFull',
      });
      released = await releaseOrderHolds(t, order);
    }
  }
  // A case's refund is announced with the case (after-sale-mail.ts), not on its own.
  if (refund.afterSaleId === null) await enqueueRefundMail(t, refund.id);
  else await tellCase(t, refund);
  return released;
}
