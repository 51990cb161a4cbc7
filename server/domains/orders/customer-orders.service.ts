import { and, asc, count, desc, eq, inArray, max, sql, sum } from 'drizzle-orm';
import { pickText, type Locale } from '../../../i18n/locales';
import { orderItems, orders, payments, refunds } from '../../db/schema';
import type { AddressSnapshot } from '../../db/schema/orders';
import type { AppContext, TransactionContext } from '../../context';
import type { Currency } from '../../shared/money';
import { ORDER_STATUS, PAY_STATUS } from '../../shared/order-status';
import type { CustomerOrderRow, CustomerSpending, ExportedOrder } from './customer-orders.schemas';

/** A customer's orders for the console's customer pages, data export and erasure (docs/console.md). */

/**
 * Order count, paid total in the settlement currency and last order date of each listed
 * customer, in one grouped query over the orders index by user.
 */
export async function spendingOf(
  ctx: AppContext,
  userIds: readonly number[],
  currency: Currency,
): Promise<Map<number, CustomerSpending>> {
  const spending = new Map<number, CustomerSpending>();
  if (userIds.length === 0) return spending;
  const rows = await ctx.db
    .select({
      userId: orders.userId,
      orderCount: count(),
      spentMinor: sql<string>`coalesce(sum(${orders.totalMinor}) filter (where ${orders.payStatus} = ${PAY_STATUS.paid} and ${orders.currency} = ${currency}), 0)`,
      lastOrderAt: max(orders.createdAt),
    })
    .from(orders)
    .where(inArray(orders.userId, [...userIds]))
    .groupBy(orders.userId);
  for (const userId of userIds) {
    const row = rows.find((candidate) => candidate.userId === userId);
    spending.set(userId, {
      order_count: row?.orderCount ?? 0,
      total_spent_minor: Number(row?.spentMinor ?? 0),
      currency,
      last_order_at: row?.lastOrderAt ? new Date(row.lastOrderAt).toISOString() : null,
    });
  }
  return spending;
}

/** The customer's most recent orders, newest first. */
export async function recentOrdersOf(ctx: AppContext, userId: number, limit: number): Promise<CustomerOrderRow[]> {
  const rows = await ctx.db
    .select()
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit);
  if (rows.length === 0) return [];
  const pieces = await ctx.db
    .select({ orderId: orderItems.orderId, units: sum(orderItems.quantity) })
    .from(orderItems)
    .where(
      inArray(
        orderItems.orderId,
        rows.map((row) => row.id),
      ),
    )
    .groupBy(orderItems.orderId);
  return rows.map((row) => ({
    id: row.id,
    order_no: row.orderNo,
    status: row.status,
    pay_status: row.payStatus,
    total_minor: row.totalMinor,
    currency: row.currency as Currency,
    item_count: Number(pieces.find((piece) => piece.orderId === row.id)?.units ?? 0),
    created_at: row.createdAt.toISOString(),
  }));
}

const iso = (value: Date | null) => value?.toISOString() ?? null;

/** Every order of the customer with its lines and payments, oldest first, for their data export. */
export async function ordersForExport(ctx: AppContext, userId: number, locale: Locale): Promise<ExportedOrder[]> {
  const rows = await ctx.db.select().from(orders).where(eq(orders.userId, userId)).orderBy(asc(orders.id));
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const lines = await ctx.db
    .select()
    .from(orderItems)
    .where(inArray(orderItems.orderId, ids))
    .orderBy(asc(orderItems.id));
  const paid = await ctx.db.select().from(payments).where(inArray(payments.orderId, ids)).orderBy(asc(payments.id));
  return rows.map((order) => ({
    order_no: order.orderNo,
    status: order.status,
    pay_status: order.payStatus,
    created_at: order.createdAt.toISOString(),
    currency: order.currency as Currency,
    goods_amount_minor: order.goodsAmountMinor,
    shipping_fee_minor: order.shippingFeeMinor,
    discount_minor: order.discountMinor,
    total_minor: order.totalMinor,
    coupon_code: order.couponCode,
    notes: order.notes,
    shipping_address: {
      country_code: order.address.country_code,
      province: pickText(order.address.province_name, locale),
      city: pickText(order.address.city_name, locale),
      detail: order.address.detail,
      postal_code: order.address.postal_code,
      contact_name: order.address.contact_name,
      contact_phone: order.address.contact_phone,
    },
    carrier_code: order.carrierCode,
    tracking_no: order.trackingNo,
    paid_at: iso(order.paidAt),
    shipped_at: iso(order.shippedAt),
    delivered_at: iso(order.deliveredAt),
    lines: lines
      .filter((line) => line.orderId === order.id)
      .map((line) => ({
        sku_code: line.skuCode,
        product_name: pickText(line.productName, locale),
        properties: line.skuProperties
          .map((property) => `${pickText(property.name, locale)}: ${pickText(property.value, locale)}`)
          .join(' / '),
        quantity: line.quantity,
        unit_price_minor: line.unitPriceMinor,
        line_total_minor: line.lineTotalMinor,
      })),
    payments: paid
      .filter((payment) => payment.orderId === order.id)
      .map((payment) => ({
        provider: payment.provider,
        status: payment.status,
        amount_minor: payment.amountMinor,
        currency: payment.currency,
        created_at: payment.createdAt.toISOString(),
        paid_at: iso(payment.paidAt),
        refunded_at: iso(payment.refundedAt),
      })),
  }));
}

/**
 * Orders still under way, whose address the shop may yet need: awaiting payment, shipment or
 * delivery, in an open after-sale, or with a refund not yet settled. Erasure waits for them.
 */
const OPEN_STATUSES = [
  ORDER_STATUS.pendingPayment,
  ORDER_STATUS.pendingShipment,
  ORDER_STATUS.pendingReceipt,
  ORDER_STATUS.refundInProgress,
  ORDER_STATUS.exchange,
  ORDER_STATUS.exchangeApproved,
];

/** The numbers of the customer's orders that are still under way (see OPEN_STATUSES). */
export async function openOrdersOf(ctx: AppContext, userId: number): Promise<string[]> {
  const rows = await ctx.db
    .selectDistinct({ orderNo: orders.orderNo })
    .from(orders)
    .leftJoin(refunds, and(eq(refunds.orderId, orders.id), inArray(refunds.status, ['awaiting_approval', 'pending'])))
    .where(and(eq(orders.userId, userId), sql`(${inArray(orders.status, OPEN_STATUSES)} or ${refunds.id} is not null)`))
    .orderBy(asc(orders.orderNo));
  return rows.map((row) => row.orderNo);
}

/** What erasure writes over the personal fields of an order's address snapshot. */
export const ERASED_TEXT = '[erased]';

/**
 * Removes the buyer's personal data from their orders (contact name and phone, street,
 * postal code, their free-text notes) and keeps what the books need: amounts, lines,
 * country, province and city (the tax jurisdiction), dates and payments. Answers how many
 * orders it kept. Runs in the erasure's transaction.
 */
export async function erasePersonalDataOfOrders(ctx: TransactionContext, userId: number): Promise<number> {
  const rows = await ctx.db
    .select({ id: orders.id, address: orders.address })
    .from(orders)
    .where(eq(orders.userId, userId))
    .for('update');
  for (const row of rows) {
    const address: AddressSnapshot = {
      ...row.address,
      contact_name: ERASED_TEXT,
      contact_phone: '',
      detail: ERASED_TEXT,
      postal_code: '',
    };
    await ctx.db.update(orders).set({ address, notes: '', updatedAt: new Date() }).where(eq(orders.id, row.id));
  }
  return rows.length;
}
