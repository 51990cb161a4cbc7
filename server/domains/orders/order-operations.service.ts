import { asc, eq, sql } from 'drizzle-orm';
import { orders } from '../../db/schema';
import type { ActingContext, AppContext } from '../../context';
import { recordAudit } from '../audit/audit.service';
import { BadRequestError, NotFoundError } from '../../shared/errors';
import { CARRIERS, findCarrier } from '../tracking/carriers';
import { trackingProvider } from '../tracking/tracking.service';
import { enqueueOrderMail } from './order-mail';
import { ORDER_STATUS } from '../../shared/order-status';
import { IllegalTransitionError, lockOrder, moveOrder, type OrderRow } from './order-state';
import { onlyRow } from '../../db/rows';
import { unitsOrdered } from './order-units';

/**
 * What the operator does to orders (the `npm run shop` CLI calls these): list what is
 * waiting to ship, ship with a carrier and tracking number, add tracking events, record
 * delivery. Delivery does not complete the order: the buyer confirms receipt, or the
 * sweep does ORDER_AUTO_CONFIRM_DAYS after shipping (ADR 0040). Each change is recorded in
 * the audit log in its own transaction, with the acting staff member or `cli`.
 */

export interface OrderToShip {
  id: number;
  orderNo: string;
  paidAt: Date | null;
  country: string;
  contact: string;
  items: number;
  totalMinor: number;
  currency: string;
}

export async function listOrdersToShip(ctx: AppContext): Promise<OrderToShip[]> {
  const rows = await ctx.db
    .select({
      order: orders,
      items: unitsOrdered,
    })
    .from(orders)
    .where(eq(orders.status, ORDER_STATUS.pendingShipment))
    .orderBy(asc(orders.paidAt), asc(orders.id));
  return rows.map(({ order, items }) => ({
    id: order.id,
    orderNo: order.orderNo,
    paidAt: order.paidAt,
    country: order.address.country_code,
    contact: order.address.contact_name,
    items,
    totalMinor: order.totalMinor,
    currency: order.currency,
  }));
}

/** Status 10 -> 20 with carrier and tracking number; emails the buyer the tracking link. */
export async function shipOrder(
  ctx: ActingContext,
  input: { orderId: number; carrierCode: string; trackingNo: string; now?: Date },
): Promise<OrderRow> {
  const carrier = findCarrier(input.carrierCode);
  if (!carrier)
    throw new BadRequestError('order.carrierUnknown', {
      code: `${input.carrierCode} (${CARRIERS.map((c) => c.code).join(', ')})`,
    });
  const trackingNo = input.trackingNo.trim();
  if (!/^[A-Za-z0-9-]{4,40}$/.test(trackingNo))
    throw new BadRequestError('validation.invalidFormat', { field: 'tracking number' });
  const now = input.now ?? new Date();
  const shipped = await ctx.db.transaction(async (tx) => {
    const order = await lockOrder(tx, input.orderId);
    if (!order) throw new NotFoundError('order.notFound');
    if (order.status !== ORDER_STATUS.pendingShipment) throw new IllegalTransitionError('order.notPendingShipment');
    const moved = await moveOrder(tx, order, {
      action: 'ship',
      to: ORDER_STATUS.pendingReceipt,
      actor: 'operator',
      note: 'order.history.shipped',
      set: { carrierCode: carrier.code, trackingNo, shippedAt: now },
    });
    await trackingProvider().record(tx, order.id, { occurredAt: now, description: '', kind: 'shipped' });
    await enqueueOrderMail({ ...ctx, db: tx }, { orderId: order.id, kind: 'shipped' });
    await recordAudit(
      { ...ctx, db: tx },
      {
        action: 'order.shipped',
        entityType: 'order',
        entityId: order.id,
        before: { status: order.status },
        after: { status: moved.status, carrier_code: carrier.code, tracking_no: trackingNo },
      },
    );
    return moved;
  });
  return shipped;
}

async function shippedOrder(ctx: AppContext, orderId: number): Promise<OrderRow> {
  const [order] = await ctx.db.select().from(orders).where(eq(orders.id, orderId));
  if (!order) throw new NotFoundError('order.notFound');
  if (!order.shippedAt) throw new IllegalTransitionError('order.notShipped');
  return order;
}

/** An operator's tracking note ("Arrived at Los Angeles hub"), at `at` or now. */
export async function addTrackingEvent(
  ctx: ActingContext,
  input: { orderId: number; description: string; at?: Date },
): Promise<void> {
  const description = input.description.trim().slice(0, 500);
  if (!description) throw new BadRequestError('validation.required', { field: 'event' });
  const occurredAt = input.at ?? new Date();
  await ctx.db.transaction(async (tx) => {
    const order = await shippedOrder({ ...ctx, db: tx }, input.orderId);
    await trackingProvider().record(tx, order.id, { occurredAt, description, kind: 'update' });
    await recordAudit(
      { ...ctx, db: tx },
      {
        action: 'order.tracking_added',
        entityType: 'order',
        entityId: order.id,
        after: { description, occurred_at: occurredAt },
      },
    );
  });
}

/** Records delivery (a tracking event and `delivered_at`); the status stays 20 until receipt is confirmed. */
export async function markDelivered(
  ctx: ActingContext,
  input: { orderId: number; at?: Date; description?: string },
): Promise<OrderRow> {
  const at = input.at ?? new Date();
  return ctx.db.transaction(async (tx) => {
    const order = await lockOrder(tx, input.orderId);
    if (!order) throw new NotFoundError('order.notFound');
    if (order.status !== ORDER_STATUS.pendingReceipt) throw new IllegalTransitionError('order.notShipped');
    await trackingProvider().record(tx, order.id, {
      occurredAt: at,
      description: input.description?.trim() ?? '',
      kind: 'delivered',
    });
    const updated = onlyRow(
      await tx
        .update(orders)
        .set({ deliveredAt: at, updatedAt: sql`now()` })
        .where(eq(orders.id, order.id))
        .returning(),
    );
    await recordAudit(
      { ...ctx, db: tx },
      {
        action: 'order.delivered',
        entityType: 'order',
        entityId: order.id,
        before: { delivered_at: order.deliveredAt },
        after: { delivered_at: at },
      },
    );
    return updated;
  });
}
