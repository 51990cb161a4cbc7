import { and, asc, eq, lte } from 'drizzle-orm';
import { orders } from '../db/schema';
import { deleteStaleGuestCarts } from '../domains/cart/cart.service';
import { ORDER_STATUS, PAY_STATUS } from '../shared/order-status';
import type { OrderRow } from '../domains/orders/order-state';
import { cancelUnpaid, confirmReceiptLocked } from '../domains/orders/orders.service';
import type { AppContext, Transaction, TransactionContext } from '../context';
import { retireStockPages } from '../shared/content-version';
import { orderTimers } from '../domains/site-settings/site-settings.service';
import { runAfterSaleSweep, type AfterSaleSweepResult } from '../domains/after-sales/after-sale-jobs';

export interface SweepResult {
  cancelled: number[];
  confirmed: number[];
  guestCartLinesDeleted: number;
  afterSales: AfterSaleSweepResult;
}

const BATCH = 100;

/**
 * Claims due orders a batch at a time with FOR UPDATE SKIP LOCKED and moves each one in
 * the same transaction, so several server copies sweeping at once never take the same
 * order: a locked order is skipped by the others, and a moved one no longer matches.
 */
async function sweepBatches(
  ctx: AppContext,
  claim: (tx: Transaction) => Promise<OrderRow[]>,
  act: (txCtx: TransactionContext, order: OrderRow) => Promise<unknown>,
): Promise<number[]> {
  const done: number[] = [];
  for (;;) {
    const batch = await ctx.db.transaction(async (tx) => {
      const due = await claim(tx);
      for (const order of due) await act({ ...ctx, db: tx }, order);
      return due.map((order) => order.id);
    });
    done.push(...batch);
    if (batch.length < BATCH) return done;
  }
}

function claimUnpaid(tx: Transaction, now: Date) {
  return tx
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.status, ORDER_STATUS.pendingPayment),
        eq(orders.payStatus, PAY_STATUS.pending),
        lte(orders.paymentDeadline, now),
      ),
    )
    .orderBy(asc(orders.paymentDeadline))
    .limit(BATCH)
    .for('update', { skipLocked: true });
}

function claimUnconfirmed(tx: Transaction, shippedBefore: Date) {
  return tx
    .select()
    .from(orders)
    .where(and(eq(orders.status, ORDER_STATUS.pendingReceipt), lte(orders.shippedAt, shippedBefore)))
    .orderBy(asc(orders.shippedAt))
    .limit(BATCH)
    .for('update', { skipLocked: true });
}

/**
 * One pass of the order jobs, at `now` (tests pass a future time instead of waiting):
 * cancels orders unpaid past their deadline (stock and coupon use given back exactly
 * once), confirms receipt of orders shipped ORDER_AUTO_CONFIRM_DAYS ago, drops guest carts
 * nobody touched for a month, and moves after-sale cases and orders whose time ran out
 * (after-sale-jobs.ts).
 */
export async function runOrderSweep(ctx: AppContext, options: { now?: Date } = {}): Promise<SweepResult> {
  const now = options.now ?? new Date();
  const released = { productIds: [] as number[], listingsToo: false };
  const cancelled = await sweepBatches(
    ctx,
    (tx) => claimUnpaid(tx, now),
    async (txCtx, order) => {
      const { released: shelf } = await cancelUnpaid(txCtx, order, 'system', now);
      released.productIds.push(...shelf.productIds);
      released.listingsToo ||= shelf.backInStock;
    },
  );
  const { autoConfirmDays } = await orderTimers(ctx);
  const shippedBefore = new Date(now.getTime() - autoConfirmDays * 24 * 60 * 60 * 1000);
  const confirmed = await sweepBatches(
    ctx,
    (tx) => claimUnconfirmed(tx, shippedBefore),
    (txCtx, order) => confirmReceiptLocked(txCtx, order, 'system', now),
  );
  const guestCartLinesDeleted = await deleteStaleGuestCarts(ctx, now);
  const afterSales = await runAfterSaleSweep(ctx, now);
  if (cancelled.length > 0) await retireStockPages(ctx, released);
  const afterSaleMoves = afterSales.closed.length + afterSales.confirmed.length + afterSales.finished.length;
  if (cancelled.length + confirmed.length + afterSaleMoves > 0)
    ctx.log.info(
      {
        cancelled: cancelled.length,
        confirmed: confirmed.length,
        afterSalesClosed: afterSales.closed.length,
        exchangesConfirmed: afterSales.confirmed.length,
        afterSalesFinished: afterSales.finished.length,
      },
      'order sweep',
    );
  return { cancelled, confirmed, guestCartLinesDeleted, afterSales };
}

export interface OrderJobs {
  /** Stops the timer and waits for a sweep in progress. */
  stop(): Promise<void>;
}

/**
 * Runs the sweep every `intervalSeconds` in this process (every copy runs it; the row
 * locks keep them from doing the same work). The timer does not keep the process alive.
 */
export function startOrderJobs(ctx: AppContext, options: { intervalSeconds?: number } = {}): OrderJobs {
  const intervalSeconds = options.intervalSeconds ?? ctx.env.ORDER_SWEEP_INTERVAL_SECONDS;
  if (intervalSeconds <= 0) return { stop: async () => {} };
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = runOrderSweep(ctx)
      .catch((error) => ctx.log.error({ err: error }, 'order sweep failed; will retry'))
      .finally(() => (running = null));
  };
  const timer = setInterval(tick, intervalSeconds * 1000);
  timer.unref();
  // A first pass soon after start catches up on what fell due while no copy was running.
  const first = setTimeout(tick, 1000);
  first.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(first);
      await running;
    },
  };
}
