import { eq } from 'drizzle-orm';
import { translate, type Locale } from '../../../i18n';
import { orderNotes } from '../../db/schema';
import type { ActingContext } from '../../context';
import { onlyRow } from '../../db/rows';
import { retireStockPages } from '../../shared/content-version';
import { AppError, NotFoundError } from '../../shared/errors';
import { ORDER_STATUS, PAY_STATUS } from '../../shared/order-status';
import { recordAudit } from '../audit/audit.service';
import { BULK_SHIP_MAX_ROWS, type BulkShipReport } from './admin-orders.schemas';
import { orderIdsByNumber } from './admin-order-detail.service';
import { shipOrder } from './order-operations.service';
import { IllegalTransitionError, lockOrder, moveOrder, releaseOrderHolds } from './order-state';
import { orders } from '../../db/schema';

/**
 * Console actions on orders besides those the CLI shares (order-operations.service.ts):
 * cancelling an unpaid order, internal notes, and shipping many orders from a CSV.
 */

/** Status 1 -> 60 by the shop: stock and coupon use go back as when the buyer cancels. */
export async function cancelOrderByStaff(ctx: ActingContext, input: { orderId: number; reason: string }) {
  const { order, released } = await ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    const locked = await lockOrder(tx, input.orderId);
    if (!locked) throw new NotFoundError('order.notFound');
    if (locked.status !== ORDER_STATUS.pendingPayment || locked.payStatus !== PAY_STATUS.pending)
      throw new IllegalTransitionError('order.cannotCancel');
    const cancelled = await moveOrder(tx, locked, {
      action: 'cancel',
      to: ORDER_STATUS.cancelled,
      actor: 'operator',
      note: 'order.history.cancelledByStaff',
      set: { cancelledAt: new Date() },
    });
    const releasedStock = await releaseOrderHolds(t, locked);
    await recordAudit(t, {
      action: 'order.cancelled',
      entityType: 'order',
      entityId: locked.id,
      before: { status: locked.status, pay_status: locked.payStatus },
      after: { status: cancelled.status, pay_status: cancelled.payStatus, reason: input.reason },
    });
    return { order: cancelled, released: releasedStock };
  });
  await retireStockPages(ctx, { productIds: released.productIds, listingsToo: released.backInStock });
  return order;
}

/** An internal note on an order: staff only, never shown to the buyer. */
export async function addOrderNote(ctx: ActingContext, input: { orderId: number; body: string }) {
  return ctx.db.transaction(async (tx) => {
    const [order] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, input.orderId));
    if (!order) throw new NotFoundError('order.notFound');
    const note = onlyRow(
      await tx
        .insert(orderNotes)
        .values({ orderId: order.id, staffId: ctx.actor.type === 'staff' ? ctx.actor.id : null, body: input.body })
        .returning(),
    );
    await recordAudit(
      { ...ctx, db: tx },
      {
        action: 'order.note_added',
        entityType: 'order',
        entityId: order.id,
        after: { note_id: note.id, body: note.body },
      },
    );
    return note;
  });
}

/** Splits one CSV line (RFC 4180 quoting) into its cells. */
function csvCells(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      cells.push(cell);
      cell = '';
    } else cell += char;
  }
  cells.push(cell);
  return cells.map((value) => value.trim());
}

class BulkShipError extends AppError {
  constructor(key: 'adminOrders.bulk.header' | 'adminOrders.bulk.tooManyRows', params?: Record<string, number>) {
    super('badRequest', key, params);
  }
}

/**
 * `POST /v1/admin/orders/bulk-ship`: ships each row (order_no, carrier, tracking_no) in its
 * own transaction, as one ship would, and reports every row: a row that fails does not stop
 * the others. Errors are in the member's language. A header that is not the expected one,
 * or more than BULK_SHIP_MAX_ROWS rows, refuses the whole file before anything ships.
 */
export async function bulkShip(ctx: ActingContext, input: { csv: string; locale: Locale }): Promise<BulkShipReport> {
  const { locale } = input;
  const lines = input.csv.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = csvCells(lines[0] ?? '').map((cell) => cell.toLowerCase());
  if (header.join(',') !== 'order_no,carrier,tracking_no') throw new BulkShipError('adminOrders.bulk.header');
  const rows = lines
    .map((line, index) => ({ row: index + 1, cells: csvCells(line), blank: line.trim() === '' }))
    .slice(1)
    .filter((row) => !row.blank);
  if (rows.length > BULK_SHIP_MAX_ROWS)
    throw new BulkShipError('adminOrders.bulk.tooManyRows', { max: BULK_SHIP_MAX_ROWS });
  const ids = await orderIdsByNumber(
    ctx,
    rows.map((row) => row.cells[0] ?? ''),
  );
  const seen = new Map<string, number>();
  const report: BulkShipReport['rows'] = [];
  for (const { row, cells } of rows) {
    const [orderNo = '', carrier = '', trackingNo = ''] = cells;
    const fail = (error: string) => report.push({ row, order_no: orderNo, ok: false, error });
    if (cells.length !== 3 || !orderNo || !carrier || !trackingNo) {
      fail(translate(locale, 'adminOrders.bulk.columns'));
      continue;
    }
    const earlier = seen.get(orderNo);
    if (earlier !== undefined) {
      fail(translate(locale, 'adminOrders.bulk.repeated', { row: earlier }));
      continue;
    }
    seen.set(orderNo, row);
    const orderId = ids.get(orderNo);
    if (orderId === undefined) {
      fail(translate(locale, 'adminOrders.bulk.orderNotFound', { orderNo }));
      continue;
    }
    try {
      await shipOrder(ctx, { orderId, carrierCode: carrier, trackingNo });
      report.push({ row, order_no: orderNo, ok: true, error: null });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      fail(translate(locale, error.messageKey, error.params));
    }
  }
  return {
    shipped: report.filter((entry) => entry.ok).length,
    failed: report.filter((entry) => !entry.ok).length,
    rows: report,
  };
}
