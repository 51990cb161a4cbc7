import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { timestamps } from './columns';
import { users } from './customers';
import { orderItems, orders } from './orders';

/**
 * Where an after-sale case stands; the moves between states are one table,
 * server/domains/after-sales/after-sale-lifecycle.ts, and SPEC's after-sale status (1-4) and
 * the order's status (40-52, 71) are derived from them (after-sale-status.ts, ADR 0130).
 */
export const AFTER_SALE_STATES = [
  'requested',
  'cancelled',
  'rejected',
  'approved',
  'awaiting_parcel',
  'in_transit',
  'received',
  'refunding',
  'exchange_shipped',
  'completed',
  'closed',
] as const;
export type AfterSaleState = (typeof AFTER_SALE_STATES)[number];

/** Why the buyer asks; photos are required for the first three. */
export const AFTER_SALE_REASONS = [
  'damaged',
  'wrong_item',
  'not_as_described',
  'changed_mind',
  'size_fit',
  'arrived_late',
  'other',
] as const;
export type AfterSaleReason = (typeof AFTER_SALE_REASONS)[number];

/** Why the shop says no; the buyer also reads the operator's own message. */
export const AFTER_SALE_REJECTIONS = [
  'outside_window',
  'not_eligible',
  'no_evidence',
  'used_or_damaged_by_buyer',
  'parcel_not_matching',
  'other',
] as const;
export type AfterSaleRejection = (typeof AFTER_SALE_REJECTIONS)[number];

/**
 * One after-sale case (an RMA): a buyer's request for a refund (type 10), a refund with the
 * goods sent back (20) or an exchange (30) of some quantities of an order's lines. An order may
 * have several, as long as their quantities never exceed what was bought. Money is integer
 * minor units of the order's settlement currency, computed on the server from the order's
 * snapshot; the refund itself is a `refunds` row pointing here.
 */
export const afterSales = pgTable(
  'after_sales',
  {
    id: serial('id').primaryKey(),
    /** `{order no}-{n}`: readable over the phone, unique by the order's own count. */
    caseNo: text('case_no').notNull().unique(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    /** SPEC section 4: 10 refund only, 20 refund and return, 30 exchange. */
    type: smallint('type').$type<10 | 20 | 30>().notNull(),
    state: text('state').$type<AfterSaleState>().notNull().default('requested'),
    reason: text('reason').$type<AfterSaleReason>().notNull(),
    description: text('description').notNull().default(''),
    /** Addresses of the buyer's private uploads (`/v1/upload/private/...`), at most 9. */
    photos: text('photos')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** What the lines are worth back, from the order's snapshot, when the buyer asked. */
    estimateMinor: integer('estimate_minor').notNull(),
    /** What the operator approved to refund (type 10 and 20); null until approved. */
    approvedMinor: integer('approved_minor'),
    /** The refund gives back the order's shipping fee too (the operator's choice). */
    includesShipping: boolean('includes_shipping').notNull().default(false),
    /** Approved without asking for the goods back (below the returnless threshold). */
    returnless: boolean('returnless').notNull().default(false),
    rejection: text('rejection').$type<AfterSaleRejection>(),
    /** The shop's words to the buyer with an approval or a rejection. */
    shopMessage: text('shop_message'),
    /** A rejected case may be appealed once, with new evidence, until `deadline`. */
    appealed: boolean('appealed').notNull().default(false),
    returnCarrier: text('return_carrier'),
    returnTrackingNo: text('return_tracking_no'),
    exchangeCarrierCode: text('exchange_carrier_code'),
    exchangeTrackingNo: text('exchange_tracking_no'),
    /** The next date that matters: answer by (requested), parcel by (awaiting_parcel), appeal by (rejected). */
    deadline: timestamp('deadline', { withTimezone: true }),
    idempotencyKey: text('idempotency_key').notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    index('after_sales_order_idx').on(table.orderId),
    index('after_sales_user_created_idx').on(table.userId, table.createdAt),
    index('after_sales_state_created_idx').on(table.state, table.createdAt),
    index('after_sales_state_deadline_idx').on(table.state, table.deadline),
    uniqueIndex('after_sales_user_idempotency_idx').on(table.userId, table.idempotencyKey),
    check('after_sales_type_known', sql`${table.type} in (10, 20, 30)`),
    check(
      'after_sales_amounts_non_negative',
      sql`${table.estimateMinor} >= 0 and coalesce(${table.approvedMinor}, 0) >= 0`,
    ),
  ],
);

/** The quantities of one order line a case covers, and what the parcel held when it came back. */
export const afterSaleLines = pgTable(
  'after_sale_lines',
  {
    id: serial('id').primaryKey(),
    afterSaleId: integer('after_sale_id')
      .notNull()
      .references(() => afterSales.id, { onDelete: 'cascade' }),
    orderItemId: integer('order_item_id')
      .notNull()
      .references(() => orderItems.id, { onDelete: 'restrict' }),
    quantity: integer('quantity').notNull(),
    /** The line's refund for these units, from the snapshot (discount shared out per line). */
    refundMinor: integer('refund_minor').notNull(),
    /** Exchange: the SKU the buyer wants instead. */
    wantedSkuId: integer('wanted_sku_id'),
    acceptedQuantity: integer('accepted_quantity'),
    damagedQuantity: integer('damaged_quantity'),
    restocked: boolean('restocked').notNull().default(false),
  },
  (table) => [
    index('after_sale_lines_case_idx').on(table.afterSaleId),
    index('after_sale_lines_item_idx').on(table.orderItemId),
    check('after_sale_lines_quantity_positive', sql`${table.quantity} > 0`),
  ],
);

/** Every move of a case, oldest first: the timeline both the buyer and the console read. */
export const afterSaleHistory = pgTable(
  'after_sale_history',
  {
    id: serial('id').primaryKey(),
    afterSaleId: integer('after_sale_id')
      .notNull()
      .references(() => afterSales.id, { onDelete: 'cascade' }),
    fromState: text('from_state').$type<AfterSaleState>(),
    toState: text('to_state').$type<AfterSaleState>().notNull(),
    /** buyer, operator, system or payment. */
    actor: text('actor').notNull(),
    /** A message key (`afterSale.history.*`), translated when read. */
    note: text('note').notNull(),
    /** Words a person wrote with the move (the shop's message, the buyer's appeal). */
    message: text('message'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('after_sale_history_case_idx').on(table.afterSaleId, table.id)],
);

/**
 * Images a buyer uploaded as evidence: kept out of the public uploads folder and served only
 * to their owner and to staff (server/http/routes/upload.routes.ts). `id` is the unguessable
 * name in the address.
 */
export const privateUploads = pgTable(
  'private_uploads',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Where the bytes are, relative to DATA_DIR/private-uploads. */
    path: text('path').notNull(),
    bytes: integer('bytes').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('private_uploads_user_idx').on(table.userId, table.createdAt)],
);
