import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { ORDER_STATUS, PAY_STATUS } from '../../shared/order-status';
import type { LocalizedText } from '../../../i18n/locales';
import { localizedText, timestamps } from './columns';
import { users } from './customers';

/** The shipping address as it was when the order was placed. */
export interface AddressSnapshot {
  country_code: string;
  country_name: LocalizedText;
  province_id: string | null;
  province_name: LocalizedText;
  city_id: string | null;
  city_name: LocalizedText;
  detail: string;
  postal_code: string;
  contact_name: string;
  contact_phone: string;
}

/** Feeds order numbers (server/domains/orders/order-numbers.ts); never reset it. */
export const orderNumbers = pgSequence('order_numbers');

/**
 * One order. Status numbers are SPEC section 4's (`order-lifecycle.ts` lists the legal
 * moves); amounts are integer minor units of the settlement `currency`, and the buyer's
 * display currency with the rate shown at checkout is frozen beside them.
 */
export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    orderNo: text('order_no').notNull().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    status: smallint('status').notNull().default(ORDER_STATUS.pendingPayment),
    payStatus: smallint('pay_status').notNull().default(PAY_STATUS.pending),
    /** The buyer's language when ordering: emails about the order use it. */
    locale: varchar('locale', { length: 8 }).notNull(),
    currency: varchar('currency', { length: 3 }).notNull(),
    goodsAmountMinor: integer('goods_amount_minor').notNull(),
    shippingFeeMinor: integer('shipping_fee_minor').notNull(),
    discountMinor: integer('discount_minor').notNull().default(0),
    /** Duties and import taxes collected at checkout (DDP, or VAT at sale); part of the total (order_duty_lines has them per line). */
    dutiesMinor: integer('duties_minor').notNull().default(0),
    totalMinor: integer('total_minor').notNull(),
    displayCurrency: varchar('display_currency', { length: 3 }).notNull(),
    /** Units of the display currency per unit of the settlement currency, in millionths. */
    displayRateMicros: bigint('display_rate_micros', { mode: 'number' }).notNull(),
    displayTotalMinor: integer('display_total_minor').notNull(),
    couponId: integer('coupon_id'),
    couponCode: text('coupon_code'),
    address: jsonb('address').$type<AddressSnapshot>().notNull(),
    notes: text('notes').notNull().default(''),
    idempotencyKey: text('idempotency_key'),
    /** Unpaid orders cancel themselves after this moment. */
    paymentDeadline: timestamp('payment_deadline', { withTimezone: true }).notNull(),
    paymentId: text('payment_id'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    carrierCode: text('carrier_code'),
    trackingNo: text('tracking_no'),
    shippedAt: timestamp('shipped_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    receivedAt: timestamp('received_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /**
     * The status the order had when its first after-sale case opened (10, 20 or 30): while a
     * case is open the status is derived from the cases, and it returns here when none is left
     * (server/domains/after-sales/after-sale-status.ts).
     */
    afterSaleBaseStatus: smallint('after_sale_base_status'),
    ...timestamps,
  },
  (table) => [
    index('orders_user_created_idx').on(table.userId, table.createdAt),
    index('orders_status_deadline_idx').on(table.status, table.paymentDeadline),
    index('orders_status_shipped_idx').on(table.status, table.shippedAt),
    uniqueIndex('orders_user_idempotency_idx').on(table.userId, table.idempotencyKey),
    // The console's order list: newest first, filtered by status, payment status or destination.
    index('orders_created_idx').on(table.createdAt),
    index('orders_status_created_idx').on(table.status, table.createdAt),
    index('orders_status_total_idx').on(table.status, table.totalMinor),
    index('orders_pay_status_created_idx').on(table.payStatus, table.createdAt),
    index('orders_country_created_idx').on(sql`(${table.address}->>'country_code')`, table.createdAt),
    check(
      'orders_amounts_non_negative',
      sql`${table.totalMinor} >= 0 and ${table.discountMinor} >= 0 and ${table.shippingFeeMinor} >= 0`,
    ),
  ],
);

/** What was sold, copied from the catalogue at ordering time. */
export const orderItems = pgTable(
  'order_items',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    productId: integer('product_id').notNull(),
    skuId: integer('sku_id').notNull(),
    skuCode: text('sku_code').notNull(),
    productName: localizedText('product_name').notNull(),
    /** e.g. [{name: {en: 'Colour'}, value: {en: 'Sage'}}], in property order. */
    skuProperties: jsonb('sku_properties').$type<Array<{ name: LocalizedText; value: LocalizedText }>>().notNull(),
    image: text('image'),
    unitPriceMinor: integer('unit_price_minor').notNull(),
    quantity: integer('quantity').notNull(),
    lineTotalMinor: integer('line_total_minor').notNull(),
    weightGrams: integer('weight_grams').notNull(),
  },
  (table) => [
    index('order_items_order_idx').on(table.orderId),
    check('order_items_quantity_positive', sql`${table.quantity} > 0`),
  ],
);

/** Every status change, oldest first: who moved it and why. */
export const orderStatusHistory = pgTable(
  'order_status_history',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    fromStatus: smallint('from_status'),
    toStatus: smallint('to_status').notNull(),
    payStatus: smallint('pay_status').notNull(),
    /** buyer, system, operator or payment. */
    actor: text('actor').notNull(),
    note: text('note').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('order_status_history_order_idx').on(table.orderId, table.id)],
);

/** Shipment progress: entered by the operator (manual provider) or fetched from a carrier. */
export const orderTrackingEvents = pgTable(
  'order_tracking_events',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    description: text('description').notNull(),
    /** picked_up, in_transit, delivered ... ; free-form events are `update`. */
    kind: text('kind').notNull().default('update'),
    source: text('source').notNull().default('manual'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('order_tracking_events_order_idx').on(table.orderId, table.occurredAt)],
);

/** Staff notes on an order: internal, never shown to the buyer. */
export const orderNotes = pgTable(
  'order_notes',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** staff_members.id; null once that member is gone (the audit log keeps who wrote it). */
    staffId: integer('staff_id'),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('order_notes_order_idx').on(table.orderId, table.createdAt)],
);
