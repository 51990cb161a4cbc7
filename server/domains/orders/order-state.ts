import { and, eq, sql } from 'drizzle-orm';
import type { MessageKey } from '../../../i18n';
import type { Database } from '../../db/client';
import { coupons, orderItems, orders, orderStatusHistory, productSkus } from '../../db/schema';
import { AppError } from '../../shared/errors';
import { canPayTransition, canTransition, type OrderStatus, type PayStatus } from './order-lifecycle';

export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
export type OrderRow = typeof orders.$inferSelect;
export type Actor = 'buyer' | 'system' | 'operator' | 'payment';

/** A move the lifecycle table does not allow (409, names both statuses in the buyer's language). */
export class IllegalTransitionError extends AppError {
  constructor(messageKey: MessageKey, params?: Record<string, string | number>) {
    super(messageKey, 409, 409, params);
  }
}

/** Reads one order and holds its row lock until the transaction ends. */
export async function lockOrder(tx: Tx, orderId: number): Promise<OrderRow | undefined> {
  const [row] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
  return row;
}

export interface Move {
  to: OrderStatus;
  payStatus?: PayStatus;
  actor: Actor;
  /** A message key (`order.history.*`), translated when the history is read. */
  note: MessageKey;
  set?: Partial<typeof orders.$inferInsert>;
}

/**
 * Moves a locked order along the lifecycle table and writes the history row. Throws for a
 * move the table (or the pay-status table) does not allow, so no caller can skip a step.
 */
export async function moveOrder(tx: Tx, order: OrderRow, move: Move): Promise<OrderRow> {
  if (!canTransition(order.status, move.to)) {
    throw new IllegalTransitionError('order.illegalTransition', { from: order.status, to: move.to });
  }
  const payStatus = move.payStatus ?? order.payStatus;
  if (payStatus !== order.payStatus && !canPayTransition(order.payStatus, payStatus)) {
    throw new IllegalTransitionError('order.illegalTransition', { from: order.status, to: move.to });
  }
  const [updated] = await tx
    .update(orders)
    .set({ ...move.set, status: move.to, payStatus, updatedAt: sql`now()` })
    .where(and(eq(orders.id, order.id), eq(orders.status, order.status)))
    .returning();
  if (!updated) throw new IllegalTransitionError('order.illegalTransition', { from: order.status, to: move.to });
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

/** Puts an order's quantities back on the shelf and gives its coupon use back. */
export async function releaseOrderHolds(tx: Tx, order: OrderRow): Promise<void> {
  const lines = await tx
    .select({ skuId: orderItems.skuId, quantity: orderItems.quantity })
    .from(orderItems)
    .where(eq(orderItems.orderId, order.id))
    .orderBy(orderItems.skuId);
  for (const line of lines) {
    await tx
      .update(productSkus)
      .set({ stock: sql`${productSkus.stock} + ${line.quantity}` })
      .where(eq(productSkus.id, line.skuId));
  }
  if (order.couponId !== null) {
    await tx
      .update(coupons)
      .set({ usedCount: sql`greatest(${coupons.usedCount} - 1, 0)` })
      .where(eq(coupons.id, order.couponId));
  }
}
