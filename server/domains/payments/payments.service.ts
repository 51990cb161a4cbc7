import { and, asc, desc, eq, isNull, lt } from 'drizzle-orm';
import { paymentEvents, payments, type HeldPaymentOutcome } from '../../db/schema';
import type { AppContext, RequestContext, TransactionContext } from '../../context';
import { AppError, BadRequestError, NotFoundError } from '../../shared/errors';
import { ORDER_STATUS, PAY_STATUS } from '../../shared/order-status';
import { getOrderForPayment, markOrderPaid, type OrderForPayment } from '../orders/order-payment.service';
import { buyerDevice, type DeviceHints, type PayDevice } from './buyer-device';
import { canTransition } from './payment-lifecycle';
import {
  PAYMENT_PROVIDERS,
  WebhookVerificationError,
  type AmountParts,
  type CheckoutSession,
  type MethodQuery,
  type PaymentEvent,
  type PaymentMethodName,
  type PaymentOutcome,
  type PaymentProviderName,
} from './payment-provider';
import { offeredMethods, providerNamed, type OfferedMethod } from './payment-providers';
import type { PayMethodOption, PaymentStatusView, WebhookOutcome } from './payments.schemas';
import { amountView, type Currency } from '../../shared/money';
import { chargeableInDisplay } from '../exchange-rates/exchange-rates.service';
import { onlyRow } from '../../db/rows';
import { applyRefundReport } from './refund-events';
import { wholeRefundKey } from './refund-tag';

export type Payment = typeof payments.$inferSelect;

function isPaymentProvider(name: string): name is PaymentProviderName {
  return (PAYMENT_PROVIDERS as readonly string[]).includes(name);
}

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
 * The currency the buyer may be charged in besides the settlement one: their display currency
 * while its rate is fresh, else the settlement currency again (ADR 0144).
 */
async function chargeableDisplay(ctx: AppContext, order: Pick<PayOptionsQuery, 'currency' | 'displayCurrency'>) {
  return (await chargeableInDisplay(ctx, order.displayCurrency, order.currency))
    ? order.displayCurrency
    : order.currency;
}

/** An order as the pay page asks about it: settlement and display currency, and the buyer's country. */
export type PayOptionsQuery = MethodQuery & { displayCurrency: Currency };

async function offeredFor(ctx: AppContext, order: PayOptionsQuery): Promise<OfferedMethod[]> {
  return offeredMethods(ctx.env, { ...order, displayCurrency: await chargeableDisplay(ctx, order) });
}

/**
 * The methods the pay page lists for an order, in order, each with the currency it charges:
 * the order's currencies and the buyer's country decide.
 */
export async function paymentMethodsFor(ctx: AppContext, order: PayOptionsQuery): Promise<PayMethodOption[]> {
  return (await offeredFor(ctx, order)).map((offer) => ({
    method: offer.method,
    charge_currency: offer.chargeCurrency,
  }));
}

/**
 * What a payment in `currency` takes: the settlement amounts, or the buyer's display amounts
 * at the order's frozen rate (the total is the one the buyer was shown; the parts, for
 * gateways that show a breakdown, are each converted, and PayPal's item total is what is left).
 */
function chargeOf(order: OrderForPayment, currency: Currency): { amountMinor: number; amountParts: AmountParts } {
  if (currency === order.currency) return { amountMinor: order.amountMinor, amountParts: order.amountParts };
  const at = (minor: number) =>
    amountView(minor, order.currency, currency, order.displayRateMicros).display_amount_minor;
  const parts = order.amountParts;
  return {
    amountMinor: order.displayAmountMinor,
    amountParts: {
      goodsMinor: at(parts.goodsMinor),
      shippingMinor: at(parts.shippingMinor),
      discountMinor: at(parts.discountMinor),
      dutiesMinor: at(parts.dutiesMinor),
    },
  };
}

/**
 * The method a new payment uses: the buyer's choice when the shop offers it for this order,
 * else (no choice sent) the first one offered, or the first of the named provider's.
 */
async function chosenMethod(
  ctx: AppContext,
  order: OrderForPayment,
  input: { method?: PaymentMethodName; provider?: PaymentProviderName },
): Promise<OfferedMethod> {
  const offered = await offeredFor(ctx, order);
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
  input: {
    orderId: number;
    method?: PaymentMethodName;
    provider?: PaymentProviderName;
    siteOrigin: string;
    /** The device the client asked a gateway page for; unset: read from `hints`. */
    device?: PayDevice;
    hints?: DeviceHints;
  },
): Promise<{ paymentId: number; redirectUrl: string }> {
  const order = await ownOrder(ctx, input.orderId);
  const refusal = refusalFor(order);
  if (refusal) throw refusal;
  const { method, provider, chargeCurrency } = await chosenMethod(ctx, order, input);
  const charge = chargeOf(order, chargeCurrency);

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
        chargedAmountMinor: charge.amountMinor,
        chargedCurrency: chargeCurrency,
      })
      .returning(),
  );
  const result = `${input.siteOrigin}/${ctx.locale}/result`;
  let session: CheckoutSession;
  try {
    session = await provider.createCheckout(ctx, {
      paymentId: payment.id,
      orderId: order.id,
      method,
      amountMinor: payment.chargedAmountMinor,
      currency: payment.chargedCurrency,
      amountParts: charge.amountParts,
      country: order.country,
      locale: ctx.locale,
      device: buyerDevice(input.device, input.hints ?? {}),
      description: order.orderNo,
      successUrl: `${result}/success?order_id=${order.id}`,
      failUrl: `${result}/fail?order_id=${order.id}`,
    });
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
  await ctx.db
    .update(payments)
    .set({ providerRef: session.providerRef, updatedAt: new Date() })
    .where(eq(payments.id, payment.id));
  // An event that outran this commit waits in the inbox (the buyer cannot have paid yet, but a gateway may say "failed").
  await applyHeldEvents(ctx, { provider: provider.name, providerRef: session.providerRef });
  return { paymentId: payment.id, redirectUrl: session.redirectUrl };
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

type Settled = { outcome: WebhookOutcome; payment: Payment | null };

/**
 * The payment an outcome is about, locked: by the gateway's reference, else by our payment id
 * when the gateway echoes it and the reference was never recorded (the server died between
 * the gateway's answer and our commit), which records it now.
 */
async function lockedPaymentOf(
  tx: TransactionContext['db'],
  providerName: PaymentProviderName,
  outcome: PaymentOutcome,
): Promise<Payment | null> {
  const [byRef] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.provider, providerName), eq(payments.providerRef, outcome.providerRef)))
    .for('update');
  if (byRef) return byRef;
  if (outcome.paymentId === undefined) return null;
  const [byId] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.id, outcome.paymentId), eq(payments.provider, providerName), isNull(payments.providerRef)))
    .for('update');
  if (!byId) return null;
  await setPayment(tx, byId.id, { providerRef: outcome.providerRef });
  return { ...byId, providerRef: outcome.providerRef };
}

/**
 * Moves one locked payment as the gateway reports, inside the caller's transaction. Moves
 * backwards (a late "failed" after "paid") are `stale`; money captured for an order that
 * cannot take it (cancelled meanwhile, paid by another attempt, a different amount) is owed back.
 */
async function settlePayment(ctx: TransactionContext, payment: Payment, outcome: PaymentOutcome): Promise<Settled> {
  if (outcome.type === 'payment.failed') {
    if (!canTransition(payment.status, 'failed', 'decline')) return { outcome: 'stale', payment };
    await setPayment(ctx.db, payment.id, { status: 'failed', lastError: 'declined by the gateway' });
    return { outcome: 'failed', payment };
  }
  if (!canTransition(payment.status, 'succeeded', 'capture')) return { outcome: 'stale', payment };
  const chargeRef = outcome.chargeRef ?? null;
  const paidAt = new Date();
  // What the gateway took, against what it was asked to charge; taken as asked, the order's own
  // amount is what was paid, and orders checks it against the order and keeps a cancelled order cancelled.
  const taken = {
    amountMinor: outcome.amountMinor ?? payment.chargedAmountMinor,
    currency: outcome.currency ?? payment.chargedCurrency,
  };
  const asCharged = taken.amountMinor === payment.chargedAmountMinor && taken.currency === payment.chargedCurrency;
  const marked = await markOrderPaid(ctx, {
    orderId: payment.orderId,
    paymentId: String(payment.id),
    paidAt,
    ...(asCharged ? { amountMinor: payment.amountMinor, currency: payment.currency } : taken),
  });
  if (marked.outcome === 'paid') {
    await setPayment(ctx.db, payment.id, { status: 'succeeded', chargeRef, paidAt, lastError: null });
    return { outcome: 'paid', payment };
  }
  const reason = `order ${marked.outcome}`;
  await setPayment(ctx.db, payment.id, { status: 'refund_pending', chargeRef, paidAt, lastError: reason });
  ctx.log.warn(
    { paymentId: payment.id, orderId: payment.orderId, reason },
    'payments: captured money cannot be applied; refunding',
  );
  return { outcome: 'refund_due', payment };
}

/** What the gateway reported, as the inbox keeps it while its payment is unknown. */
function heldContent(event: PaymentOutcome): HeldPaymentOutcome {
  const { type, providerRef, paymentId, amountMinor, currency, chargeRef } = event;
  return { type, providerRef, paymentId, amountMinor, currency, chargeRef };
}

/**
 * Applies a verified gateway event (a webhook, or what reconciliation heard) once. The event
 * id is recorded in the same transaction as the change it causes, so a replay (or a second
 * copy receiving the same retry) finds the id taken and changes nothing. An event whose
 * payment is not known yet is kept (`held`) and applied when the payment appears
 * (`applyHeldEvents`). Money owed back is refunded at once.
 */
export async function applyPaymentEvent(
  ctx: AppContext,
  providerName: PaymentProviderName,
  event: PaymentEvent,
): Promise<WebhookOutcome> {
  if (event.type === 'refund.succeeded') return applyRefundReport(ctx, providerName, event);
  const applied = await ctx.db.transaction(async (tx): Promise<Settled> => {
    const [recorded] = await tx
      .insert(paymentEvents)
      .values({
        provider: providerName,
        eventId: event.eventId,
        type: event.type === 'ignored' ? event.gatewayType : event.type,
        providerRef: event.type === 'ignored' ? null : event.providerRef,
        outcome: 'received',
      })
      .onConflictDoNothing()
      .returning({ id: paymentEvents.id });
    if (!recorded) return { outcome: 'duplicate', payment: null };

    let settled: Settled = { outcome: 'ignored', payment: null };
    let held: HeldPaymentOutcome | null = null;
    if (event.type !== 'ignored') {
      const payment = await lockedPaymentOf(tx, providerName, event);
      if (payment) settled = await settlePayment({ ...ctx, db: tx }, payment, event);
      else [settled, held] = [{ outcome: 'held', payment: null }, heldContent(event)];
    }
    await tx
      .update(paymentEvents)
      .set({ outcome: settled.outcome, paymentId: settled.payment?.id ?? null, held })
      .where(eq(paymentEvents.id, recorded.id));
    return settled;
  });

  if (applied.outcome === 'refund_due' && applied.payment) await refundPayment(ctx, applied.payment.id);
  return applied.outcome;
}

/**
 * Applies the events kept for payments that are known by now (all of one gateway reference,
 * or every held event), oldest first. Each is locked and checked still held before it moves
 * its payment, so two copies applying the same one change the payment once.
 */
export async function applyHeldEvents(
  ctx: AppContext,
  only?: { provider: PaymentProviderName; providerRef: string },
): Promise<number> {
  const waiting = await ctx.db
    .select({ id: paymentEvents.id })
    .from(paymentEvents)
    .innerJoin(
      payments,
      and(eq(payments.provider, paymentEvents.provider), eq(payments.providerRef, paymentEvents.providerRef)),
    )
    .where(
      and(
        eq(paymentEvents.outcome, 'held'),
        only
          ? and(eq(paymentEvents.provider, only.provider), eq(paymentEvents.providerRef, only.providerRef))
          : undefined,
      ),
    )
    .orderBy(asc(paymentEvents.id))
    .limit(100);
  let applied = 0;
  for (const { id } of waiting) {
    const settled = await ctx.db.transaction(async (tx): Promise<Settled | null> => {
      const [event] = await tx
        .select()
        .from(paymentEvents)
        .where(and(eq(paymentEvents.id, id), eq(paymentEvents.outcome, 'held')))
        .for('update');
      if (!event?.held || !isPaymentProvider(event.provider)) return null;
      const payment = await lockedPaymentOf(tx, event.provider, event.held);
      if (!payment) return null;
      const result = await settlePayment({ ...ctx, db: tx }, payment, event.held);
      await tx
        .update(paymentEvents)
        .set({ outcome: result.outcome, paymentId: payment.id, held: null })
        .where(eq(paymentEvents.id, event.id));
      ctx.log.info(
        { provider: event.provider, eventId: event.eventId, outcome: result.outcome },
        'payments: held event applied',
      );
      return result;
    });
    if (!settled) continue;
    applied++;
    if (settled.outcome === 'refund_due' && settled.payment) await refundPayment(ctx, settled.payment.id);
  }
  return applied;
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
      amountMinor: payment.chargedAmountMinor,
      currency: payment.chargedCurrency,
      idempotencyKey: wholeRefundKey(payment.id),
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
