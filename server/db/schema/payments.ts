import { check, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { Locale } from '../../../i18n/locales';
import type { Currency } from '../../shared/money';
import type { PaymentMethodName, PaymentProviderName } from '../../shared/payment-methods';
import { timestamps } from './columns';
import { users } from './customers';
import { orders } from './orders';
import { afterSales } from './after-sales';

/** The states a payment attempt can be in; what each means and the moves between them: server/domains/payments/payment-lifecycle.ts. */
export const PAYMENT_STATES = ['pending', 'succeeded', 'failed', 'refund_pending', 'refunded'] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];

/**
 * One row per payment attempt. Amount and currency are copied from the order when the
 * attempt starts, never taken from the client. `provider_ref` is the gateway's session id.
 */
export const payments = pgTable(
  'payments',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').$type<PaymentProviderName>().notNull(),
    /** What the buyer chose on the pay page (card, alipay …); the provider above serves it. */
    method: text('method').$type<PaymentMethodName>().notNull(),
    providerRef: text('provider_ref'),
    /** The captured charge at the gateway (Stripe payment intent), needed for refunds. */
    chargeRef: text('charge_ref'),
    /** The settlement amount: the order's total in the shop's currency. */
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').$type<Currency>().notNull(),
    /**
     * What the gateway charges: the buyer's display currency at the order's frozen rate where
     * the method takes it, else the settlement amount again (ADR 0144).
     */
    chargedAmountMinor: integer('charged_amount_minor').notNull(),
    chargedCurrency: text('charged_currency').$type<Currency>().notNull(),
    status: text('status').$type<PaymentState>().notNull().default('pending'),
    refundRef: text('refund_ref'),
    lastError: text('last_error'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    index('payments_order_idx').on(table.orderId),
    uniqueIndex('payments_provider_ref_idx').on(table.provider, table.providerRef),
    // The reconciliation job's question: pending payments not looked at for a while.
    index('payments_pending_idx')
      .on(table.updatedAt)
      .where(sql`${table.status} = 'pending'`),
  ],
);

/** A gateway's outcome kept in the inbox until its payment is known (the domain's PaymentOutcome). */
export interface HeldPaymentOutcome {
  type: 'payment.succeeded' | 'payment.failed';
  providerRef: string;
  paymentId?: number;
  amountMinor?: number;
  currency?: string;
  chargeRef?: string;
}

/**
 * The inbox of every provider's events (webhooks, and what reconciliation heard), keyed by the
 * gateway's event id: a replay finds its id taken and changes nothing. Written in the same
 * transaction as the change it caused. An event for a payment not known yet is `held` with its
 * content and applied when the payment appears (ADR 0141).
 */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: serial('id').primaryKey(),
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    paymentId: integer('payment_id').references(() => payments.id, { onDelete: 'set null' }),
    /** What the event did: paid, failed, stale, duplicate, ignored, refund_due, or held (waiting for its payment). */
    outcome: text('outcome').notNull(),
    /** The gateway's reference of the payment the event is about; how a held event finds it. */
    providerRef: text('provider_ref'),
    /** A held event's content, to apply later; null once applied. */
    held: jsonb('held').$type<HeldPaymentOutcome>(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('payment_events_provider_event_idx').on(table.provider, table.eventId),
    index('payment_events_held_idx')
      .on(table.provider, table.providerRef)
      .where(sql`${table.outcome} = 'held'`),
  ],
);

/**
 * The sandbox gateway's own records: what a real gateway keeps on its side. The shop's
 * code only reaches them through the sandbox provider and the gateway's routes.
 */
export const sandboxGatewaySessions = pgTable('sandbox_gateway_sessions', {
  id: text('id').primaryKey(),
  /** The merchant's reference (our payment id). */
  reference: text('reference').notNull(),
  amountMinor: integer('amount_minor').notNull(),
  currency: text('currency').$type<Currency>().notNull(),
  description: text('description').notNull(),
  locale: text('locale').$type<Locale>().notNull(),
  successUrl: text('success_url').notNull(),
  failUrl: text('fail_url').notNull(),
  status: text('status').$type<'open' | 'paid' | 'declined' | 'refunded'>().notNull().default('open'),
  refundId: text('refund_id'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  ...timestamps,
});

/**
 * Refunds the sandbox gateway made, whole or partial, keyed by the merchant's idempotency
 * key as a real gateway does: asking again with the same key answers the same refund.
 */
export const sandboxGatewayRefunds = pgTable('sandbox_gateway_refunds', {
  id: text('id').primaryKey(),
  sessionId: text('session_id')
    .notNull()
    .references(() => sandboxGatewaySessions.id, { onDelete: 'cascade' }),
  idempotencyKey: text('idempotency_key').notNull().unique(),
  amountMinor: integer('amount_minor').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Webhooks the sandbox gateway still owes the shop. A delivery that fails is retried with
 * backoff by whichever server copy claims the row first (FOR UPDATE SKIP LOCKED plus a lease).
 */
export const sandboxGatewayWebhooks = pgTable(
  'sandbox_gateway_webhooks',
  {
    id: serial('id').primaryKey(),
    eventId: text('event_id').notNull().unique(),
    payload: text('payload').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('sandbox_gateway_webhooks_due_idx').on(table.nextAttemptAt)],
);

/** Where a refund stands (server/domains/payments/refund-lifecycle.ts lists the moves). */
export const REFUND_STATES = ['awaiting_approval', 'pending', 'succeeded', 'failed', 'rejected'] as const;
export type RefundState = (typeof REFUND_STATES)[number];
export type RefundMadeIn = 'shop' | PaymentProviderName;

/**
 * Refunds of all or part of a captured payment, asked for by staff. One above the asker's
 * refund limit waits in `awaiting_approval` for a second member with a higher limit. The sum
 * of a payment's refunds that are not failed or rejected never exceeds what it captured.
 * `idempotency_key` makes a repeated request (double click, retry) the same refund, and is
 * the key sent to the provider.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'restrict' }),
    /** In the settlement currency (what staff ask for and refund limits count). */
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').$type<Currency>().notNull(),
    /** What goes back at the gateway, in the currency the payment was charged in (ADR 0144). */
    chargedAmountMinor: integer('charged_amount_minor').notNull(),
    chargedCurrency: text('charged_currency').$type<Currency>().notNull(),
    reason: text('reason').notNull(),
    /** The after-sale case this refund pays out; null for a refund staff made on the order itself. */
    afterSaleId: integer('after_sale_id').references(() => afterSales.id, { onDelete: 'restrict' }),
    status: text('status').$type<RefundState>().notNull(),
    idempotencyKey: text('idempotency_key').notNull().unique(),
    /** staff_members.id of who asked, and of who approved or rejected it. */
    requestedBy: integer('requested_by'),
    decidedBy: integer('decided_by'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    providerRefundRef: text('provider_refund_ref'),
    /**
     * Where the refund was made: `shop` (staff, an after-sale case), or the gateway's name for
     * one made in its own dashboard and learnt from its webhook (no requester, no reason).
     */
    madeIn: text('made_in').$type<RefundMadeIn>().notNull().default('shop'),
    lastError: text('last_error'),
    attempts: integer('attempts').notNull().default(0),
    succeededAt: timestamp('succeeded_at', { withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    index('refunds_order_idx').on(table.orderId),
    index('refunds_payment_idx').on(table.paymentId),
    index('refunds_status_idx').on(table.status, table.createdAt),
    index('refunds_after_sale_idx').on(table.afterSaleId),
    check('refunds_amount_positive', sql`${table.amountMinor} > 0`),
  ],
);
