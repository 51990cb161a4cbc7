import { and, asc, eq, inArray } from 'drizzle-orm';
import { hasMessage, pickText, translate, type Locale } from '../../../i18n';
import {
  auditEvents,
  orderItems,
  orderNotes,
  orders,
  orderStatusHistory,
  orderTrackingEvents,
  payments,
  refunds,
  staffMembers,
  users,
} from '../../db/schema';
import type { AppContext } from '../../context';
import { NotFoundError } from '../../shared/errors';
import { isCurrency, type Currency } from '../../shared/money';
import { ORDER_STATUS, PAY_STATUS } from '../../shared/order-status';
import { auditTrailOf } from '../audit/audit.service';
import { findCarrier } from '../tracking/carriers';
import type { AdminOrderDetail, AdminTimelineEntry } from './admin-orders.schemas';
import { refundViews } from './admin-refund-views';
import { orderStatusText, payStatusText } from './orders.service';
import { dutiesView, orderDuties } from '../duties/duties.service';

/** Refunds in these states hold part of a payment (the same rule as payments/refund-lifecycle.ts). */
const HOLDING = new Set(['awaiting_approval', 'pending', 'succeeded']);

function currencyOf(code: string): Currency {
  return isCurrency(code) ? code : 'CNY';
}

type AuditRow = Awaited<ReturnType<typeof auditTrailOf>>[number];

function auditEntry(event: AuditRow): AdminTimelineEntry {
  return {
    at: event.at.toISOString(),
    kind: 'audit',
    title: event.action,
    detail: Object.entries(event.changes)
      .map(([field, change]) => `${field}: ${JSON.stringify(change.after ?? change.before ?? null)}`)
      .join(', '),
    actor: event.actorLabel,
  };
}

/**
 * `GET /v1/admin/orders/:id`: everything the console's order page shows, in a fixed number
 * of queries (no query per line, payment or refund): lines with their snapshots, buyer,
 * address, payments and refunds with the gateway's references, internal notes, and one
 * timeline merged from the status history, the tracking events and the audit log of the
 * order and of its refunds.
 */
export async function getAdminOrderDetail(
  ctx: AppContext & { locale: Locale },
  orderId: number,
): Promise<AdminOrderDetail> {
  const [found] = await ctx.db
    .select({ order: orders, buyer: { id: users.id, email: users.email, username: users.username } })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId));
  if (!found) throw new NotFoundError('order.notFound');
  const { order, buyer } = found;
  const { locale } = ctx;
  const [lines, history, tracking, paymentRows, refundRows, noteRows, orderAudit, duties] = await Promise.all([
    ctx.db.select().from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(asc(orderItems.id)),
    ctx.db
      .select()
      .from(orderStatusHistory)
      .where(eq(orderStatusHistory.orderId, order.id))
      .orderBy(asc(orderStatusHistory.id)),
    ctx.db
      .select()
      .from(orderTrackingEvents)
      .where(eq(orderTrackingEvents.orderId, order.id))
      .orderBy(asc(orderTrackingEvents.occurredAt)),
    ctx.db.select().from(payments).where(eq(payments.orderId, order.id)).orderBy(asc(payments.id)),
    ctx.db.select().from(refunds).where(eq(refunds.orderId, order.id)).orderBy(asc(refunds.id)),
    ctx.db
      .select({ note: orderNotes, email: staffMembers.email })
      .from(orderNotes)
      .leftJoin(staffMembers, eq(staffMembers.id, orderNotes.staffId))
      .where(eq(orderNotes.orderId, order.id))
      .orderBy(asc(orderNotes.createdAt), asc(orderNotes.id)),
    auditTrailOf(ctx, 'order', order.id),
    orderDuties(ctx, [order.id]),
  ]);
  const refundAudit = refundRows.length
    ? await ctx.db
        .select()
        .from(auditEvents)
        .where(
          and(
            eq(auditEvents.entityType, 'refund'),
            inArray(
              auditEvents.entityId,
              refundRows.map((refund) => String(refund.id)),
            ),
          ),
        )
    : [];
  const refundList = await refundViews(ctx, refundRows);

  const paymentViews = paymentRows.map((payment) => {
    const own = refundRows.filter((refund) => refund.paymentId === payment.id);
    const held = own.filter((r) => HOLDING.has(r.status)).reduce((sum, r) => sum + r.amountMinor, 0);
    return {
      id: payment.id,
      provider: payment.provider,
      provider_ref: payment.providerRef,
      charge_ref: payment.chargeRef,
      amount_minor: payment.amountMinor,
      currency: payment.currency,
      charged_amount_minor: payment.chargedAmountMinor,
      charged_currency: payment.chargedCurrency,
      status: payment.status,
      paid_at: payment.paidAt?.toISOString() ?? null,
      refunded_minor: own.filter((r) => r.status === 'succeeded').reduce((sum, r) => sum + r.amountMinor, 0),
      refundable_minor: payment.status === 'succeeded' ? Math.max(payment.amountMinor - held, 0) : 0,
    };
  });
  const refundable = paymentViews.reduce((sum, payment) => sum + payment.refundable_minor, 0);
  const carrier = findCarrier(order.carrierCode);

  const timeline: AdminTimelineEntry[] = [
    ...history.map((entry) => ({
      at: entry.createdAt.toISOString(),
      kind: 'status' as const,
      title: orderStatusText(locale, entry.toStatus),
      detail: hasMessage(entry.note) ? translate(locale, entry.note) : entry.note,
      actor: entry.actor,
    })),
    ...tracking.map((event) => ({
      at: event.occurredAt.toISOString(),
      kind: 'tracking' as const,
      title:
        event.description ||
        (event.kind === 'shipped' && carrier && order.trackingNo
          ? translate(locale, 'adminOrders.tracking.shipped', {
              carrier: pickText(carrier.name, locale),
              trackingNo: order.trackingNo,
            })
          : event.kind === 'delivered'
            ? translate(locale, 'adminOrders.tracking.delivered')
            : event.kind),
      detail: event.kind,
      actor: event.source,
    })),
    ...[...orderAudit, ...refundAudit].map(auditEntry),
  ].sort((a, b) => a.at.localeCompare(b.at));

  const address = order.address;
  const region = [pickText(address.province_name, locale), pickText(address.city_name, locale)].filter(Boolean);
  return {
    id: order.id,
    order_no: order.orderNo,
    status: order.status,
    status_text: orderStatusText(locale, order.status),
    pay_status: order.payStatus,
    pay_status_text: payStatusText(locale, order.payStatus),
    created_at: order.createdAt.toISOString(),
    paid_at: order.paidAt?.toISOString() ?? null,
    buyer_email: buyer.email,
    contact_name: address.contact_name,
    country_code: address.country_code,
    item_count: lines.reduce((sum, line) => sum + line.quantity, 0),
    total_minor: order.totalMinor,
    refunded_minor: refundRows.filter((r) => r.status === 'succeeded').reduce((sum, r) => sum + r.amountMinor, 0),
    currency: currencyOf(order.currency),
    locale: order.locale,
    buyer,
    address: {
      contact_name: address.contact_name,
      contact_phone: address.contact_phone,
      country_code: address.country_code,
      country: pickText(address.country_name, locale),
      region: region.join(locale === 'zh-cn' ? ' ' : ', '),
      detail: address.detail,
      postal_code: address.postal_code,
    },
    lines: lines.map((line) => ({
      sku_id: line.skuId,
      sku_code: line.skuCode,
      product_id: line.productId,
      name: pickText(line.productName, locale),
      properties: line.skuProperties
        .map((property) => `${pickText(property.name, locale)}: ${pickText(property.value, locale)}`)
        .join(' / '),
      image: line.image,
      quantity: line.quantity,
      unit_price_minor: line.unitPriceMinor,
      line_total_minor: line.lineTotalMinor,
    })),
    goods_minor: order.goodsAmountMinor,
    shipping_fee_minor: order.shippingFeeMinor,
    discount_minor: order.discountMinor,
    duties_minor: order.dutiesMinor,
    duties: dutiesView(
      (duties.get(order.id) ?? []).map((duty) => ({
        ...duty,
        skuId: lines.find((line) => line.id === duty.orderItemId)?.skuId ?? 0,
      })),
      {
        currency: currencyOf(order.currency),
        displayCurrency: currencyOf(order.currency),
        displayRateMicros: 1_000_000,
      },
      locale,
    ),
    coupon_code: order.couponCode,
    buyer_notes: order.notes,
    payment_deadline: order.paymentDeadline.toISOString(),
    shipment:
      order.carrierCode && order.trackingNo
        ? {
            carrier_code: order.carrierCode,
            carrier_name: carrier ? pickText(carrier.name, locale) : order.carrierCode,
            tracking_no: order.trackingNo,
            shipped_at: order.shippedAt?.toISOString() ?? null,
            delivered_at: order.deliveredAt?.toISOString() ?? null,
          }
        : null,
    payments: paymentViews,
    refunds: refundList,
    refundable_minor: refundable,
    notes: noteRows.map(({ note, email }) => ({
      id: note.id,
      body: note.body,
      staff: note.staffId === null ? null : { id: note.staffId, email: email ?? '' },
      created_at: note.createdAt.toISOString(),
    })),
    timeline,
    can: {
      ship: order.status === ORDER_STATUS.pendingShipment,
      add_tracking: order.shippedAt !== null,
      deliver: order.status === ORDER_STATUS.pendingReceipt,
      cancel: order.status === ORDER_STATUS.pendingPayment && order.payStatus === PAY_STATUS.pending,
      refund: refundable > 0,
    },
  };
}

/** Ids of the orders numbered `orderNos` (bulk ship), by number. */
export async function orderIdsByNumber(ctx: AppContext, orderNos: readonly string[]): Promise<Map<string, number>> {
  if (orderNos.length === 0) return new Map();
  const rows = await ctx.db
    .select({ id: orders.id, orderNo: orders.orderNo })
    .from(orders)
    .where(inArray(orders.orderNo, [...orderNos]));
  return new Map(rows.map((row) => [row.orderNo, row.id]));
}
