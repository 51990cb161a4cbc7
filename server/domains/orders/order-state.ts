import { and, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { MessageKey } from '../../../i18n';
import { orderItems, orders, orderStatusHistory } from '../../db/schema';
import { insertJsonRows, jsonRow, rowFromJson, rowsFromJson } from '../../db/json-rows';
import { preparedPerDatabase } from '../../db/prepared';
import type { Database } from '../../db/client';
import type { AppContext, Transaction, TransactionContext } from '../../context';
import { AppError, uniqueViolation } from '../../shared/errors';
import { returnStock } from '../catalog/stock.service';
import { releaseCouponUse } from '../coupons/coupons.service';
import { ORDER_STATUS, PAY_STATUS, type OrderStatus } from '../../shared/order-status';
import { allowedTransition, type Actor, type OrderAction } from './order-lifecycle';

export type OrderRow = typeof orders.$inferSelect;

/** A move the lifecycle table does not allow (a conflict; names both statuses in the buyer's language). */
export class IllegalTransitionError extends AppError {
  constructor(messageKey: MessageKey, params?: Record<string, string | number>) {
    super('conflict', messageKey, params);
  }
}

/** Reads one order and holds its row lock until the transaction ends. */
export async function lockOrder(tx: Transaction, orderId: number): Promise<OrderRow | undefined> {
  const [row] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
  return row;
}

export interface Move {
  /** What is being done; with `to` it names one row of the lifecycle table. */
  action: OrderAction;
  to: OrderStatus;
  actor: Actor;
  /** A message key (`order.history.*`), translated when the history is read. */
  note: MessageKey;
  set?: Partial<typeof orders.$inferInsert>;
}

/**
 * Moves a locked order along the lifecycle table and writes the history row. Throws for a
 * move the table does not list, an actor it does not name for that move, or a pay status it
 * does not expect, so no caller can skip a step. The pay status changes only as the table says.
 */
export async function moveOrder(tx: Transaction, order: OrderRow, move: Move): Promise<OrderRow> {
  const refused = () => new IllegalTransitionError('order.illegalTransition', { from: order.status, to: move.to });
  const transition = allowedTransition({ from: order.status, ...move }, order.payStatus);
  if (!transition) throw refused();
  const payStatus = transition.pay?.to ?? order.payStatus;
  const [updated] = await tx
    .update(orders)
    .set({ ...move.set, status: move.to, payStatus, updatedAt: sql`now()` })
    .where(and(eq(orders.id, order.id), eq(orders.status, order.status)))
    .returning();
  if (!updated) throw refused();
  await tx.insert(orderStatusHistory).values({
    orderId: order.id,
    fromStatus: order.status,
    toStatus: move.to,
    payStatus,
    actor: move.actor,
    note: move.note,
  });
  return updated;
}

/** What a release changed on the shelf, for retiring cached pages (shared/content-version.ts). */
export interface ReleasedStock {
  productIds: number[];
  backInStock: boolean;
}

/** Puts an order's quantities back on the shelf and gives its coupon use back, in the caller's transaction. */
export async function releaseOrderHolds(ctx: TransactionContext, order: OrderRow): Promise<ReleasedStock> {
  const lines = await ctx.db
    .select({ productId: orderItems.productId, skuId: orderItems.skuId, quantity: orderItems.quantity })
    .from(orderItems)
    .where(eq(orderItems.orderId, order.id));
  const { backInStock } = await returnStock(ctx, lines);
  if (order.couponId !== null) await releaseCouponUse(ctx, order.couponId);
  return { productIds: lines.map((line) => line.productId), backInStock };
}

export type NewOrder = Omit<typeof orders.$inferInsert, 'id' | 'status' | 'payStatus' | 'orderNo'>;
export type NewOrderLine = Omit<typeof orderItems.$inferInsert, 'id' | 'orderId'>;

/** The columns a placed order is written with; the others keep their defaults until later in its life. */
const PLACED_ORDER_COLUMNS = [
  'userId',
  'status',
  'payStatus',
  'locale',
  'currency',
  'goodsAmountMinor',
  'shippingFeeMinor',
  'discountMinor',
  'dutiesMinor',
  'totalMinor',
  'displayCurrency',
  'displayRateMicros',
  'displayTotalMinor',
  'couponId',
  'couponCode',
  'address',
  'notes',
  'idempotencyKey',
  'paymentDeadline',
  'createdAt',
  'updatedAt',
] as const satisfies ReadonlyArray<keyof typeof orders.$inferInsert>;
const ORDER_LINE_COLUMNS = [
  'productId',
  'skuId',
  'skuCode',
  'productName',
  'skuProperties',
  'image',
  'unitPriceMinor',
  'quantity',
  'lineTotalMinor',
  'weightGrams',
] as const satisfies ReadonlyArray<keyof NewOrderLine>;
const HISTORY_COLUMNS = ['fromStatus', 'toStatus', 'payStatus', 'actor', 'note', 'createdAt'] as const;

/**
 * A placed order's rows as the JSON parameters of `placedOrderWrites`: the order (status 1,
 * pay status 1), its lines in the buyer's order, and its first history entry.
 */
export function placedOrderRows(order: NewOrder, lines: readonly NewOrderLine[]) {
  const status = { status: ORDER_STATUS.pendingPayment, payStatus: PAY_STATUS.pending };
  const history = {
    fromStatus: null,
    toStatus: ORDER_STATUS.pendingPayment,
    payStatus: PAY_STATUS.pending,
    actor: 'buyer',
    note: 'order.history.placed',
    createdAt: order.createdAt,
  };
  return {
    order: JSON.stringify([jsonRow(orders, { ...order, ...status })]),
    lines: JSON.stringify(lines.map((line) => jsonRow(orderItems, line))),
    history: JSON.stringify([jsonRow(orderStatusHistory, history)]),
  };
}

/**
 * The inserts that record a placed order, as parts of one statement (checkout's place-order):
 * `order` writes the order row with the number `orderNo` draws; `lines` and `history` take the
 * new order's id from `orderId`, which reads what `order` returned. A second order with the same
 * buyer and idempotency key fails on the unique index, and the checkout answers the first.
 */
export function placedOrderWrites(parameters: { order: SQL; lines: SQL; history: SQL; orderNo: SQL; orderId: SQL }) {
  return {
    order: insertJsonRows(orders, {
      rows: parameters.order,
      columns: PLACED_ORDER_COLUMNS,
      computed: { orderNo: parameters.orderNo },
    }),
    lines: insertJsonRows(orderItems, {
      rows: parameters.lines,
      columns: ORDER_LINE_COLUMNS,
      computed: { orderId: parameters.orderId },
    }),
    history: insertJsonRows(orderStatusHistory, {
      rows: parameters.history,
      columns: HISTORY_COLUMNS,
      computed: { orderId: parameters.orderId },
    }),
  };
}

/** A just placed order as stored: its row, its lines in order and its first history entry. */
export interface PlacedOrderRows {
  order: OrderRow;
  items: Array<typeof orderItems.$inferSelect>;
  history: Array<typeof orderStatusHistory.$inferSelect>;
}

/** The rows `placedOrderWrites` returned, read back from JSON. */
export function placedOrderFromJson(json: { order: unknown; lines: unknown; history: unknown }): PlacedOrderRows {
  return {
    order: rowFromJson(orders, json.order),
    items: rowsFromJson(orderItems, json.lines),
    history: rowsFromJson(orderStatusHistory, json.history),
  };
}

/** The order a buyer placed with an idempotency key (`key` null: none). */
const orderWithIdempotencyKey = (db: Database, userId: SQL | Placeholder, key: SQL | Placeholder) =>
  db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, key)))
    .limit(1);

const orderByIdempotencyKey = preparedPerDatabase((db) =>
  orderWithIdempotencyKey(db, sql.placeholder('userId'), sql.placeholder('key')).prepare('order_by_idempotency_key'),
);

/**
 * `findOrderByIdempotencyKey` as JSON (`row_to_json`, read back by `orderFromJson`), for a read
 * that takes more than the order in one statement (checkout/quote-facts.ts).
 */
export function orderByIdempotencyKeyJson(db: Database, userId: SQL, key: SQL): SQL<unknown> {
  return sql`(select row_to_json(placed) from (${orderWithIdempotencyKey(db, userId, key)}) as placed)`;
}

/** `orderByIdempotencyKeyJson` read back: null when there is no such order. */
export function orderFromJson(json: unknown): OrderRow | null {
  return json === null || json === undefined ? null : rowFromJson(orders, json);
}

export async function findOrderByIdempotencyKey(
  ctx: AppContext,
  userId: number,
  key: string,
): Promise<OrderRow | undefined> {
  const [row] = await orderByIdempotencyKey(ctx.db).execute({ userId, key });
  return row;
}

/** An order number already taken: only if someone reset the sequence (a restored backup, say). */
export function isRepeatedOrderNo(error: unknown): boolean {
  return uniqueViolation(error) === 'orders_order_no_unique';
}
