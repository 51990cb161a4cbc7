import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import type { z } from 'zod';
import { afterSales, orders, refunds } from '../../db/schema';
import type { AppContext, Transaction } from '../../context';
import { retireStockPages } from '../../shared/content-version';
import { AFTER_SALE_TYPE, ORDER_STATUS } from '../../shared/order-status';
import { recordAudit, systemActor } from '../audit/audit.service';
import { returnStock } from '../catalog/stock.service';
import { lockOrder, moveOrder } from '../orders/order-state';
import type { refundSettledJob } from '../payments/refunds.service';
import { FINISHED_CASE_STATES } from './after-sale-lifecycle';
import { enqueueAfterSaleMail } from './after-sale-mail';
import { windowEndsAt } from './after-sale-policy';
import { lockCase, moveCase, type AfterSaleRow } from './after-sale-state';
import { loadCase } from './after-sale-views';

/**
 * What happens to cases without a person acting: a refund's outcome reaches its case, and the
 * sweep closes returns never sent, confirms replacements nobody confirmed, and marks orders
 * whose after-sales are over as 71.
 */

const afterSalesJob = systemActor('after-sales');

/**
 * The outbox's `refund-settled` effect: the case's refund succeeded (the case is completed,
 * the buyer emailed; units never shipped go back on the shelf) or failed or was refused by the
 * second approver (the case goes back to where it can be refunded again).
 */
export async function settleCaseRefund(ctx: AppContext, job: z.infer<typeof refundSettledJob>): Promise<void> {
  const [refund] = await ctx.db.select().from(refunds).where(eq(refunds.id, job.refundId));
  if (!refund || refund.afterSaleId === null) return;
  const caseId = refund.afterSaleId;
  const shelf = await ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx, actor: afterSalesJob };
    const row = await lockCase(tx, caseId);
    if (!row || row.state !== 'refunding') return null;
    if (refund.status === 'succeeded') {
      const moved = await moveCase(t, row, {
        action: 'refundSucceeded',
        to: 'completed',
        actor: 'payment',
        note: 'afterSale.history.refunded',
        set: { deadline: null, closedAt: new Date() },
      });
      await enqueueAfterSaleMail(t, { caseId, kind: 'refunded', historyId: moved.historyId });
      await audit(t, row, 'after_sale.refunded', { refund_id: refund.id });
      return restockUnshipped(t, row);
    }
    if (refund.status === 'failed' || refund.status === 'rejected') {
      const back = row.type === AFTER_SALE_TYPE.refundOnly || row.returnless ? 'approved' : 'received';
      await moveCase(t, row, {
        action: 'refundFailed',
        to: back,
        actor: 'payment',
        note: 'afterSale.history.refundFailed',
      });
      await audit(t, row, 'after_sale.refund_failed', { refund_id: refund.id, refund_status: refund.status });
    }
    return null;
  });
  if (shelf) await retireStockPages(ctx, shelf);
}

async function audit(
  t: AppContext & { db: Transaction; actor: typeof afterSalesJob },
  row: AfterSaleRow,
  action: string,
  after: Record<string, unknown>,
): Promise<void> {
  await recordAudit(t, {
    action,
    entityType: 'order',
    entityId: row.orderId,
    after: { case_no: row.caseNo, ...after },
  });
}

/** A refund before shipping: the refunded units will never leave, so they are back on sale. */
async function restockUnshipped(
  t: AppContext & { db: Transaction },
  row: AfterSaleRow,
): Promise<{ productIds: number[]; listingsToo: boolean } | null> {
  const loaded = await loadCase(t, row);
  if (!loaded || loaded.order.shippedAt !== null) return null;
  const lines = loaded.lines.map(({ line, item }) => ({ skuId: item.skuId, quantity: line.quantity }));
  const { backInStock } = await returnStock(t, lines);
  return { productIds: loaded.lines.map(({ item }) => item.productId), listingsToo: backInStock };
}

export interface AfterSaleSweepResult {
  /** Returns and exchanges closed because no parcel was sent in time. */
  closed: number[];
  /** Replacements confirmed received after the auto-confirm days. */
  confirmed: number[];
  /** Orders moved to 71: every case finished, nothing left to appeal, the window over. */
  finished: number[];
}

const BATCH = 50;

/** One pass at `now`; several copies may run it at once (SKIP LOCKED), each row moved once. */
export async function runAfterSaleSweep(ctx: AppContext, now: Date): Promise<AfterSaleSweepResult> {
  const closed = await sweepCases(ctx, 'awaiting_parcel', now, async (t, row) => {
    const moved = await moveCase(t, row, {
      action: 'closeUnsent',
      to: 'closed',
      actor: 'system',
      note: 'afterSale.history.closedUnsent',
      set: { closedAt: now },
    });
    await enqueueAfterSaleMail(t, { caseId: row.id, kind: 'closed', historyId: moved.historyId });
  });
  const confirmed = await sweepCases(ctx, 'exchange_shipped', now, async (t, row) => {
    await moveCase(t, row, {
      action: 'confirmExchange',
      to: 'completed',
      actor: 'system',
      note: 'afterSale.history.exchangeAutoConfirmed',
      set: { deadline: null, closedAt: now },
    });
  });
  const finished = await finishOrders(ctx, now);
  return { closed, confirmed, finished };
}

async function sweepCases(
  ctx: AppContext,
  state: 'awaiting_parcel' | 'exchange_shipped',
  now: Date,
  act: (t: AppContext & { db: Transaction }, row: AfterSaleRow) => Promise<void>,
): Promise<number[]> {
  const done: number[] = [];
  for (;;) {
    const batch = await ctx.db.transaction(async (tx) => {
      const due = await tx
        .select()
        .from(afterSales)
        .where(and(eq(afterSales.state, state), lte(afterSales.deadline, now)))
        .orderBy(asc(afterSales.deadline))
        .limit(BATCH)
        .for('update', { skipLocked: true });
      for (const row of due) await act({ ...ctx, db: tx }, row);
      return due.map((row) => row.id);
    });
    done.push(...batch);
    if (batch.length < BATCH) return done;
  }
}

const SETTLED_ORDER_STATUSES = [
  ORDER_STATUS.refunded,
  ORDER_STATUS.refundRejected,
  ORDER_STATUS.exchangeApproved,
  ORDER_STATUS.exchangeRejected,
];

/** Orders in 41, 42, 51 or 52 whose every case is finished, none open to appeal, and whose window is over: 71. */
async function finishOrders(ctx: AppContext, now: Date): Promise<number[]> {
  const candidates = await ctx.db
    .select({ id: orders.id })
    .from(orders)
    .where(inArray(orders.status, SETTLED_ORDER_STATUSES))
    .orderBy(asc(orders.id))
    .limit(500);
  const finished: number[] = [];
  for (const { id } of candidates) {
    const done = await ctx.db.transaction(async (tx) => {
      const order = await lockOrder(tx, id);
      if (!order || !SETTLED_ORDER_STATUSES.includes(order.status as (typeof SETTLED_ORDER_STATUSES)[number]))
        return false;
      const ends = windowEndsAt(ctx.env, order);
      if (ends && ends > now) return false;
      const cases = await tx.select().from(afterSales).where(eq(afterSales.orderId, id));
      const settled = cases.every(
        (item) =>
          FINISHED_CASE_STATES.includes(item.state) &&
          !(item.state === 'rejected' && item.deadline && item.deadline > now),
      );
      if (!settled) return false;
      await moveOrder(tx, order, {
        action: 'closeAfterSale',
        to: ORDER_STATUS.afterSaleCompleted,
        actor: 'system',
        note: 'order.history.afterSaleClosed',
      });
      return true;
    });
    if (done) finished.push(id);
  }
  return finished;
}
