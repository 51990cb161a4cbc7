import { and, asc, count, desc, eq, gt, gte, lte, sql } from 'drizzle-orm';
import { pickText, type Locale } from '../../../i18n';
import { orders, products, productSkus, refunds } from '../../db/schema';
import type { AppContext } from '../../context';
import { isCurrency } from '../../shared/money';
import { ORDER_STATUS } from '../../shared/order-status';
import { isLowStock } from '../catalog/inventory.service';
import { getSiteSettings } from '../site-settings/site-settings.service';
import type { AdminDashboard } from './admin-orders.schemas';
import { refundViews } from './admin-refund-views';

/** How soon an unpaid order "expires soon". */
const EXPIRING_WITHIN_MS = 2 * 60 * 60 * 1000;
const DAY_MS = 86_400_000;
const SERIES_DAYS = 14;
/** Failed refunds stay on the home this long after the gateway gave up. */
const FAILED_WITHIN_DAYS = 30;
/**
 * Orders are paid within their payment deadline of creation (hours, not days): bounding the
 * sales query by creation time as well lets it read orders_created_idx instead of the table.
 */
const PAID_WITHIN_DAYS_OF_CREATION = 2;

const hoursSince = (then: Date | null, now: Date) =>
  then ? Math.max(0, Math.floor((now.getTime() - then.getTime()) / 3_600_000)) : 0;

/**
 * `GET /v1/admin/dashboard`: what needs doing now (orders to ship and how long they have
 * waited, unpaid orders about to expire, refunds awaiting approval, low stock) and sales in
 * the settlement currency: paid orders less succeeded refunds, by UTC day, for 14 days.
 */
export async function getAdminDashboard(
  ctx: AppContext & { locale: Locale },
  now = new Date(),
): Promise<AdminDashboard> {
  const settings = await getSiteSettings(ctx);
  const currency = isCurrency(settings.currency) ? settings.currency : 'CNY';
  const today = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
  const seriesStart = new Date(today.getTime() - (SERIES_DAYS - 1) * DAY_MS);
  const toShipWhere = eq(orders.status, ORDER_STATUS.pendingShipment);
  const expiringWhere = and(
    eq(orders.status, ORDER_STATUS.pendingPayment),
    gt(orders.paymentDeadline, now),
    lte(orders.paymentDeadline, new Date(now.getTime() + EXPIRING_WITHIN_MS)),
  );
  const awaitingWhere = eq(refunds.status, 'awaiting_approval');
  // A refund the gateway kept refusing: the buyer is still owed the money until someone acts.
  const failedWhere = and(
    eq(refunds.status, 'failed'),
    gte(refunds.updatedAt, new Date(now.getTime() - FAILED_WITHIN_DAYS * DAY_MS)),
  );
  const day = (column: typeof orders.paidAt | typeof refunds.succeededAt) =>
    sql<string>`to_char(date_trunc('day', ${column} at time zone 'UTC'), 'YYYY-MM-DD')`;

  const [
    toShipCount,
    toShip,
    expiringCount,
    expiring,
    awaitingCount,
    awaiting,
    failedCount,
    failed,
    lowCount,
    low,
    paid,
    refunded,
  ] = await Promise.all([
    ctx.db.select({ n: count() }).from(orders).where(toShipWhere),
    ctx.db.select().from(orders).where(toShipWhere).orderBy(asc(orders.paidAt), asc(orders.id)).limit(10),
    ctx.db.select({ n: count() }).from(orders).where(expiringWhere),
    ctx.db.select().from(orders).where(expiringWhere).orderBy(asc(orders.paymentDeadline)).limit(10),
    ctx.db.select({ n: count() }).from(refunds).where(awaitingWhere),
    ctx.db.select().from(refunds).where(awaitingWhere).orderBy(asc(refunds.createdAt)).limit(10),
    ctx.db.select({ n: count() }).from(refunds).where(failedWhere),
    ctx.db.select().from(refunds).where(failedWhere).orderBy(desc(refunds.updatedAt)).limit(10),
    ctx.db
      .select({ n: count() })
      .from(productSkus)
      .innerJoin(products, eq(products.id, productSkus.productId))
      .where(isLowStock),
    ctx.db
      .select({ sku: productSkus, name: products.name })
      .from(productSkus)
      .innerJoin(products, eq(products.id, productSkus.productId))
      .where(isLowStock)
      .orderBy(asc(productSkus.stock), asc(productSkus.id))
      .limit(10),
    ctx.db
      .select({
        day: day(orders.paidAt),
        amount: sql<number>`sum(${orders.totalMinor})`.mapWith(Number),
        orders: count(),
      })
      .from(orders)
      .where(
        and(
          gte(orders.createdAt, new Date(seriesStart.getTime() - PAID_WITHIN_DAYS_OF_CREATION * DAY_MS)),
          gte(orders.paidAt, seriesStart),
          eq(orders.currency, currency),
        ),
      )
      .groupBy(day(orders.paidAt)),
    ctx.db
      .select({ day: day(refunds.succeededAt), amount: sql<number>`sum(${refunds.amountMinor})`.mapWith(Number) })
      .from(refunds)
      .where(
        and(eq(refunds.status, 'succeeded'), gte(refunds.succeededAt, seriesStart), eq(refunds.currency, currency)),
      )
      .groupBy(day(refunds.succeededAt)),
  ]);

  const daily = Array.from({ length: SERIES_DAYS }, (_, i) => {
    const key = new Date(seriesStart.getTime() + i * DAY_MS).toISOString().slice(0, 10);
    const sold = paid.find((row) => row.day === key);
    const back = refunded.find((row) => row.day === key)?.amount ?? 0;
    return { day: key, amount_minor: (sold?.amount ?? 0) - back, orders: sold?.orders ?? 0 };
  });
  const week = daily.slice(-7);
  const last = daily[daily.length - 1];
  return {
    currency,
    to_ship: {
      count: toShipCount[0]?.n ?? 0,
      oldest_waiting_hours: toShip[0] ? hoursSince(toShip[0].paidAt ?? toShip[0].createdAt, now) : null,
      orders: toShip.map((order) => ({
        id: order.id,
        order_no: order.orderNo,
        paid_at: order.paidAt?.toISOString() ?? null,
        waiting_hours: hoursSince(order.paidAt ?? order.createdAt, now),
        contact_name: order.address.contact_name,
        country_code: order.address.country_code,
        total_minor: order.totalMinor,
        currency: isCurrency(order.currency) ? order.currency : currency,
      })),
    },
    expiring_unpaid: {
      count: expiringCount[0]?.n ?? 0,
      orders: expiring.map((order) => ({
        id: order.id,
        order_no: order.orderNo,
        payment_deadline: order.paymentDeadline.toISOString(),
        total_minor: order.totalMinor,
        currency: isCurrency(order.currency) ? order.currency : currency,
      })),
    },
    refunds_awaiting_approval: { count: awaitingCount[0]?.n ?? 0, refunds: await refundViews(ctx, awaiting) },
    refunds_failed: { count: failedCount[0]?.n ?? 0, refunds: await refundViews(ctx, failed) },
    low_stock: {
      count: lowCount[0]?.n ?? 0,
      skus: low.map(({ sku, name }) => ({
        sku_id: sku.id,
        sku_code: sku.code,
        product_id: sku.productId,
        product_name: pickText(name, ctx.locale),
        stock: sku.stock,
      })),
    },
    sales: {
      today_minor: last?.amount_minor ?? 0,
      week_minor: week.reduce((sum, entry) => sum + entry.amount_minor, 0),
      today_orders: last?.orders ?? 0,
      week_orders: week.reduce((sum, entry) => sum + entry.orders, 0),
      daily,
    },
  };
}
