import { and, desc, eq, lt } from 'drizzle-orm';
import { paymentEvents, payments } from '../../db/schema';
import type { AppContext, RequestContext } from '../../context';
import { AppError, BadRequestError, NotFoundError } from '../../shared/errors';
import { ORDER_STATUS, PAY_STATUS } from '../../shared/order-status';
import { getOrderForPayment, markOrderPaid, type OrderForPayment } from '../orders/order-payment.service';
import { canTransition } from './payment-lifecycle';
import {
  WebhookVerificationError,
  type PaymentEvent,
  type PaymentMethodName,
  type PaymentProviderName,
} from './payment-provider';
import { offeredMethods, providerNamed, type OfferedMethod } from './payment-providers';
import type { PaymentStatusView, WebhookOutcome } from './payments.schemas';
import { onlyRow } from '../../db/rows';

export type Payment = typeof payments.$inferSelect;

/** An order that cannot be paid in its current state: a clear refusal, not a failure. */
export class PaymentRefusedError extends AppError {
  constructor(messageKey: 'payments.orderCancelled' | 'payments.orderAlreadyPaid' | 'payments.orderNotPayable') {
    super('conflict', messageKey);
  }
}

/** The gateway did not answer when starting a checkout; nothing was charged. */
export class GatewayUnavailableError extends AppError {
  constructor() {
    super('gatewayUnavailable', 'payments.gatewayUnavailable');
  }
}

async function ownOrder(ctx: RequestContext, orderId: number): Promise<OrderForPayment> {
  // Someone else's order answers exactly like a missing one.
  const order = await getOrderForPayment(ctx, { orderId, userId: ctx.user!.id });
  if (!order) throw new NotFoundError('payments.orderNotFound');
  return order;
}

function refusalFor(order: OrderForPayment): PaymentRefusedError | null {
  if (order.status === ORDER_STATUS.cancelled || order.payStatus === PAY_STATUS.cancelled)
    return new PaymentRefusedError('payments.orderCancelled');
  if (order.payStatus === PAY_STATUS.paid) return new PaymentRefusedError('payments.orderAlreadyPaid');
  return order.payable ? null : new PaymentRefusedError('payments.orderNotPayable');
}

/**
 * The method a new payment uses: the buyer's choice when the shop offers it for this order,
 * else (no choice sent) the first one offered, or the first of the named provider's.
 */
function chosenMethod(
  ctx: AppContext,
  order: OrderForPayment,
  input: { method?: PaymentMethodName; provider?: PaymentProviderName },
): OfferedMethod {
  const offered = offeredMethods(ctx.env, { currency: order.currency, country: order.country });
  const matching = offered.filter(
    (offer) =>
      (!input.method || offer.method === input.method) && (!input.provider || offer.provider.name === input.provider),
  );
  const [chosen] = matching;
  if (chosen) return chosen;
  if (input.method) throw new BadRequestError('payments.methodUnavailable', { method: input.method });
  if (input.provider) throw new BadRequestError('payments.providerUnavailable', { provider: input.provider });
  throw new BadRequestError('payments.noMethod');
}

/**
 * Starts one payment attempt for the buyer's own unpaid order: a payment row with the
 * order's amount and currency, then a checkout session at the gateway of the chosen method.
 */
export async function startPayment(
  ctx: RequestContext,
  input: { orderId: number; method?: PaymentMethodName; provider?: PaymentProviderName; siteOrigin: string },
): Promise<{ paymentId: number; redirectUrl: string }> {
  const order = await ownOrder(ctx, input.orderId);
  const refusal = refusalFor(order);
  if (refusal) throw refusal;
  const { method, provider } = chosenMethod(ctx, order, input);

  const payment = onlyRow(
    await ctx.db
      .insert(payments)
      .values({
        orderId: order.id,
        userId: ctx.user!.id,
        provider: provider.name,
        method,
        amountMinor: order.amountMinor,
        currency: order.currency,
      })
      .returning(),
  );
  const result = `${input.siteOrigin}/${ctx.locale}/result`;
  try {
    const session = await provider.createCheckout(ctx, {
      paymentId: payment.id,
      orderId: order.id,
      method,
      amountMinor: payment.amountMinor,
      currency: payment.currency,
      amountParts: order.amountParts,
      country: order.country,
      locale: ctx.locale,
      description: order.orderNo,
      successUrl: `${result}/success?order_id=${order.id}`,
      failUrl: `${result}/fail?order_id=${order.id}`,
    });
    await ctx.db
      .update(payments)
      .set({ providerRef: session.providerRef, updatedAt: new Date() })
      .where(eq(payments.id, payment.id));
    return { paymentId: payment.id, redirectUrl: session.redirectUrl };
  } catch (error) {
    ctx.log.error(
      { err: error, paymentId: payment.id, provider: provider.name },
      'payments: could not open a checkout session',
    );
    await ctx.db
      .update(payments)
      .set({ status: 'failed', lastError: (error as Error).message.slice(0, 500), updatedAt: new Date() })
      .where(eq(payments.id, payment.id));
    throw new GatewayUnavailableError();
  }
}

/** What the result page polls: the order's statuses and its latest payment attempt. */
export async function paymentStatus(ctx: RequestContext, orderId: number): Promise<PaymentStatusView> {
  const order = await ownOrder(ctx, orderId);
  const [latest] = await ctx.db
    .select({ id: payments.id, status: payments.status })
    .from(payments)
    .where(eq(payments.orderId, order.id))
    .orderBy(desc(payments.id))
    .limit(1);
  return {
    order_id: order.id,
    order_status: order.status,
    pay_status: order.payStatus,
    payment_id: latest?.id ?? null,
    payment_status: latest?.status ?? null,
  };
}

/**
 * Applies a verified gateway event once. The event id is recorded in the same transaction
 * as the change it causes, so a replay (or a second copy receiving the same retry) finds
 * the id taken and changes nothing. Events that would move a payment backwards (a late
 * "failed" after "paid") are recorded and ignored. Money captured for an order that cannot
 * take it (cancelled meanwhile, already paid by another attempt, a different amount) is
 * refunded.
 */
export async function applyPaymentEvent(
  ctx: AppContext,
  providerName: PaymentProviderName,
  event: PaymentEvent,
): Promise<WebhookOutcome> {
  const applied = await ctx.db.transaction(async (tx) => {
    const txCtx: AppContext = { ...ctx, db: tx as unknown as AppContext['db'] };
    const [recorded] = await tx
      .insert(paymentEvents)
      .values({
        provider: providerName,
        eventId: event.eventId,
        type: event.type === 'ignored' ? event.gatewayType : event.type,
        outcome: 'received',
      })
      .onConflictDoNothing()
      .returning({ id: paymentEvents.id });
    if (!recorded) return { outcome: 'duplicate' as const, payment: null };

    let outcome: WebhookOutcome = 'ignored';
    let payment: Payment | null = null;
    if (event.type !== 'ignored') {
      [payment = null] = await tx
        .select()
        .from(payments)
        .where(and(eq(payments.provider, providerName), eq(payments.providerRef, event.providerRef)))
        .for('update');
      if (!payment) outcome = 'unknown_payment';
      else if (event.type === 'payment.failed') {
        outcome = canTransition(payment.status, 'failed', 'decline') ? 'failed' : 'stale';
        if (outcome === 'failed')
          await setPayment(tx, payment.id, { status: 'failed', lastError: 'declined by the gateway' });
      } else if (!canTransition(payment.status, 'succeeded', 'capture')) {
        outcome = 'stale';
      } else {
        const chargeRef = event.chargeRef ?? null;
        const paidAt = new Date();
        // Orders checks the captured amount against the order itself and keeps a cancelled order cancelled.
        const marked = await markOrderPaid(txCtx, {
          orderId: payment.orderId,
          paymentId: String(payment.id),
          paidAt,
          amountMinor: event.amountMinor ?? payment.amountMinor,
          currency: event.currency ?? payment.currency,
        });
        if (marked.outcome === 'paid') {
          outcome = 'paid';
          await setPayment(tx, payment.id, { status: 'succeeded', chargeRef, paidAt, lastError: null });
        } else {
          outcome = 'refund_due';
          const reason = `order ${marked.outcome}`;
          await setPayment(tx, payment.id, { status: 'refund_pending', chargeRef, paidAt, lastError: reason });
          ctx.log.warn(
            { paymentId: payment.id, orderId: payment.orderId, reason },
            'payments: captured money cannot be applied; refunding',
          );
        }
      }
    }
    await tx
      .update(paymentEvents)
      .set({ outcome, paymentId: payment?.id ?? null })
      .where(eq(paymentEvents.id, recorded.id));
    return { outcome, payment };
  });

  if (applied.outcome === 'refund_due' && applied.payment) await refundPayment(ctx, applied.payment.id);
  return applied.outcome;
}

async function setPayment(
  db: Pick<AppContext['db'], 'update'>,
  id: number,
  values: Partial<typeof payments.$inferInsert>,
): Promise<void> {
  await db
    .update(payments)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(payments.id, id));
}

/** Verifies a webhook's raw body with the provider it claims to come from, then applies it. */
export async function receiveWebhook(
  ctx: AppContext,
  providerName: PaymentProviderName,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
): Promise<WebhookOutcome> {
  const provider = providerNamed(ctx.env, providerName);
  if (!provider) throw new NotFoundError();
  let event: PaymentEvent;
  try {
    event = await provider.verifyWebhook(rawBody, headers);
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    ctx.log.warn({ provider: providerName, reason: error.message }, 'payments: webhook refused');
    throw new BadRequestError('payments.badSignature');
  }
  const outcome = await applyPaymentEvent(ctx, providerName, event);
  ctx.log.info(
    { provider: providerName, eventId: event.eventId, type: event.type, outcome },
    'payments: webhook applied',
  );
  return outcome;
}

/**
 * Asks the gateway to refund a payment that is owed back. On failure the payment stays
 * `refund_pending` and the payments job tries again; providers make repeats harmless.
 */
export async function refundPayment(ctx: AppContext, paymentId: number): Promise<boolean> {
  const [payment] = await ctx.db
    .select()
    .from(payments)
    .where(and(eq(payments.id, paymentId), eq(payments.status, 'refund_pending')));
  if (!payment?.providerRef) return false;
  try {
    const provider = providerNamed(ctx.env, payment.provider);
    if (!provider) throw new Error(`provider ${payment.provider} is not configured`);
    const { refundRef } = await provider.refund(ctx, {
      paymentId: payment.id,
      providerRef: payment.providerRef,
      chargeRef: payment.chargeRef,
      amountMinor: payment.amountMinor,
      currency: payment.currency,
      idempotencyKey: `refund-payment-${payment.id}`,
      whole: true,
    });
    await ctx.db
      .update(payments)
      .set({ status: 'refunded', refundRef, refundedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(payments.id, payment.id), eq(payments.status, 'refund_pending')));
    ctx.log.info({ paymentId: payment.id, orderId: payment.orderId }, 'payments: refunded');
    return true;
  } catch (error) {
    ctx.log.error({ err: error, paymentId: payment.id }, 'payments: refund failed; will retry');
    await setPayment(ctx.db, payment.id, { lastError: `refund: ${(error as Error).message}`.slice(0, 500) });
    return false;
  }
}

/** One pass of the refund retry: payments owed back whose last try is older than a minute. */
export async function retryOwedRefunds(ctx: AppContext, limit = 10): Promise<number> {
  const owed = await ctx.db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.status, 'refund_pending'), lt(payments.updatedAt, new Date(Date.now() - 60_000))))
    .limit(limit);
  let refunded = 0;
  for (const { id } of owed) if (await refundPayment(ctx, id)) refunded++;
  return refunded;
}
