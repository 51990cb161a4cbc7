import { and, eq, sql } from 'drizzle-orm';
import type { MessageKey } from '../../../i18n';
import { afterSaleHistory, afterSaleLines, afterSales, orderItems, orders, type AfterSaleState } from '../../db/schema';
import type { Transaction, TransactionContext } from '../../context';
import { AppError } from '../../shared/errors';
import { ORDER_STATUS } from '../../shared/order-status';
import { lockOrder, moveOrder } from '../orders/order-state';
import { allowedCaseMove, type AfterSaleAction, type AfterSaleActor } from './after-sale-lifecycle';
import { isBaseStatus, orderStatusFor } from './after-sale-status';

export type AfterSaleRow = typeof afterSales.$inferSelect;

/** The statuses `orderStatusFor` sets: an order in one of them follows its cases. */
const DERIVED_STATUSES: readonly number[] = [
  ORDER_STATUS.refundInProgress,
  ORDER_STATUS.refunded,
  ORDER_STATUS.refundRejected,
  ORDER_STATUS.exchange,
  ORDER_STATUS.exchangeApproved,
  ORDER_STATUS.exchangeRejected,
];

/** A move the case lifecycle does not allow now (someone else moved it first, or it was never allowed). */
export class CaseMoveRefusedError extends AppError {
  constructor() {
    super('conflict', 'afterSale.moveRefused');
  }
}

/** Reads one case and holds its row lock until the transaction ends. */
export async function lockCase(tx: Transaction, caseId: number): Promise<AfterSaleRow | undefined> {
  const [row] = await tx.select().from(afterSales).where(eq(afterSales.id, caseId)).for('update');
  return row;
}

export interface CaseMove {
  action: AfterSaleAction;
  to: AfterSaleState;
  actor: AfterSaleActor;
  /** `afterSale.history.*`, translated when the timeline is read. */
  note: MessageKey;
  /** What the person wrote with the move, shown on the timeline. */
  message?: string | null;
  set?: Partial<typeof afterSales.$inferInsert>;
}

/**
 * Moves a locked case along the lifecycle table, writes its timeline row, and brings the
 * order's status in line with all its cases (`syncOrderStatus`), in the caller's transaction.
 * The order is locked after the case: every path that takes both takes them in that order.
 */
export async function moveCase(
  ctx: TransactionContext,
  row: AfterSaleRow,
  move: CaseMove,
): Promise<AfterSaleRow & { historyId: number }> {
  const allowed = allowedCaseMove({
    from: row.state,
    to: move.to,
    action: move.action,
    actor: move.actor,
    type: row.type,
  });
  if (!allowed) throw new CaseMoveRefusedError();
  const [moved] = await ctx.db
    .update(afterSales)
    .set({ ...move.set, state: move.to, updatedAt: sql`now()` })
    .where(and(eq(afterSales.id, row.id), eq(afterSales.state, row.state)))
    .returning();
  if (!moved) throw new CaseMoveRefusedError();
  const [history] = await ctx.db
    .insert(afterSaleHistory)
    .values({
      afterSaleId: row.id,
      fromState: row.state,
      toState: move.to,
      actor: move.actor,
      note: move.note,
      message: move.message ?? null,
    })
    .returning({ id: afterSaleHistory.id });
  await syncOrderStatus(ctx, row.orderId, move.actor);
  return { ...moved, historyId: history!.id };
}

/**
 * Sets the order's status to what its cases say (after-sale-status.ts). The status it had
 * before its first case (10, 20 or 30) is kept on the order, to go back to when every case is
 * withdrawn; it is refreshed whenever the order is found in such a status.
 */
export async function syncOrderStatus(ctx: TransactionContext, orderId: number, actor: AfterSaleActor): Promise<void> {
  const order = await lockOrder(ctx.db, orderId);
  // A finished order (71) keeps its status: by then no case can move (the sweep waits for that).
  if (!order || !(isBaseStatus(order.status) || DERIVED_STATUSES.includes(order.status))) return;
  const base = isBaseStatus(order.status) ? order.status : order.afterSaleBaseStatus;
  if (base === null || !isBaseStatus(base)) return;
  const cases = await ctx.db
    .select({ type: afterSales.type, state: afterSales.state })
    .from(afterSales)
    .where(eq(afterSales.orderId, orderId));
  const unitsLeftToShip = await hasUnitsNotRefunded(ctx, orderId);
  const status = orderStatusFor(base, cases, { unitsLeftToShip });
  if (status === order.status) {
    if (order.afterSaleBaseStatus !== base)
      await ctx.db.update(orders).set({ afterSaleBaseStatus: base }).where(eq(orders.id, orderId));
    return;
  }
  await moveOrder(ctx.db, order, {
    action: 'afterSale',
    to: status,
    actor,
    note: 'order.history.afterSale',
    set: { afterSaleBaseStatus: base },
  });
}

/** True while some unit of the order is not covered by a refund case that was paid out. */
async function hasUnitsNotRefunded(ctx: TransactionContext, orderId: number): Promise<boolean> {
  const [row] = await ctx.db
    .select({
      bought:
        sql<number>`(select coalesce(sum(${orderItems.quantity}), 0) from ${orderItems} where ${orderItems.orderId} = ${orderId})`.mapWith(
          Number,
        ),
      refunded: sql<number>`coalesce(sum(${afterSaleLines.quantity}), 0)`.mapWith(Number),
    })
    .from(afterSaleLines)
    .innerJoin(afterSales, eq(afterSales.id, afterSaleLines.afterSaleId))
    .where(and(eq(afterSales.orderId, orderId), eq(afterSales.state, 'completed'), sql`${afterSales.type} <> 30`));
  return (row?.bought ?? 0) > (row?.refunded ?? 0);
}
