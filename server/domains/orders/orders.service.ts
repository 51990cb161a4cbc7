import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { hasMessage, pickText, translate, type Locale } from '../../../i18n';
import { orderItems, orders, orderStatusHistory, refunds } from '../../db/schema';
import type { AppContext, TransactionContext } from '../../context';
import { preparedPerDatabase } from '../../db/prepared';
import { retireStockPages } from '../../shared/content-version';
import { NotFoundError } from '../../shared/errors';
import { amountView, formatPrice, isCurrency, rateText, type Currency } from '../../shared/money';
import type { AmountView } from '../../shared/money.schemas';
import { dutiesView, dutyLineOfItem, type OrderDutyLine } from '../duties/duties.service';
import { findCarrier, trackingUrl } from '../tracking/carriers';
import { trackingProvider } from '../tracking/tracking.service';
import { AFTER_SALE_STATUSES, isOrderStatus, isPayStatus, ORDER_STATUS, PAY_STATUS } from '../../shared/order-status';
import type { Actor } from './order-lifecycle';
import { paidWithView, paymentThatPaid, type PaidWith } from './paid-with';
import {
  IllegalTransitionError,
  lockOrder,
  moveOrder,
  releaseOrderHolds,
  type OrderRow,
  type ReleasedStock,
} from './order-state';
import type {
  OrderCounts,
  OrderDetail,
  OrderExpress,
  OrderLine,
  OrderListQuery,
  OrderPage,
  OrderSummary,
  ShipmentView,
} from './orders.schemas';
import { inListedIds } from '../../db/listed-ids';

type ItemRow = typeof orderItems.$inferSelect;

function currencies(order: OrderRow): { currency: Currency; display: Currency } {
  return {
    currency: isCurrency(order.currency) ? order.currency : 'CNY',
    display: isCurrency(order.displayCurrency) ? order.displayCurrency : 'CNY',
  };
}

function moneyOf(order: OrderRow) {
  const { currency, display } = currencies(order);
  return (minor: number): AmountView => amountView(minor, currency, display, order.displayRateMicros);
}

function itemView(item: ItemRow, order: OrderRow, locale: Locale): OrderLine {
  const money = moneyOf(order);
  return {
    sku_id: item.skuId,
    product_id: item.productId,
    name: pickText(item.productName, locale),
    properties: item.skuProperties
      .map((property) => `${pickText(property.name, locale)}: ${pickText(property.value, locale)}`)
      .join(' / '),
    image: item.image,
    quantity: item.quantity,
    unit_price: money(item.unitPriceMinor),
    line_total: money(item.lineTotalMinor),
  };
}

/** A status in words; the key type checks that every status has a message. A number no status has reads as itself. */
export function orderStatusText(locale: Locale, status: number): string {
  return isOrderStatus(status) ? translate(locale, `order.status.${status}`) : String(status);
}

export function payStatusText(locale: Locale, payStatus: number): string {
  return isPayStatus(payStatus) ? translate(locale, `order.payStatus.${payStatus}`) : String(payStatus);
}

function summaryView(order: OrderRow, items: readonly ItemRow[], locale: Locale): OrderSummary {
  const { currency, display } = currencies(order);
  return {
    id: order.id,
    order_no: order.orderNo,
    status: order.status,
    status_text: orderStatusText(locale, order.status),
    pay_status: order.payStatus,
    pay_status_text: payStatusText(locale, order.payStatus),
    created_at: order.createdAt.toISOString(),
    payment_deadline: order.status === ORDER_STATUS.pendingPayment ? order.paymentDeadline.toISOString() : null,
    currency,
    display_currency: display,
    total: moneyOf(order)(order.totalMinor),
    item_count: items.reduce((sum, item) => sum + item.quantity, 0),
    items: items.map((item) => itemView(item, order, locale)),
    can_cancel: order.status === ORDER_STATUS.pendingPayment,
    can_confirm: order.status === ORDER_STATUS.pendingReceipt,
  };
}

const itemsOfOrders = preparedPerDatabase((db) =>
  db
    .select()
    .from(orderItems)
    .where(inListedIds(orderItems.orderId, sql`${sql.placeholder('orderIds')}`))
    .orderBy(asc(orderItems.id))
    .prepare('items_of_orders'),
);

/** The lines of these orders, by order id, in line order. */
export async function itemsOf(ctx: AppContext, orderIds: number[]): Promise<Map<number, ItemRow[]>> {
  const map = new Map<number, ItemRow[]>();
  if (orderIds.length === 0) return map;
  for (const row of await itemsOfOrders(ctx.db).execute({ orderIds })) {
    const lines = map.get(row.orderId);
    if (lines) lines.push(row);
    else map.set(row.orderId, [row]);
  }
  return map;
}

const itemsWithDutiesStatement = preparedPerDatabase((db) =>
  db
    .select({ item: orderItems, duty: dutyLineOfItem() })
    .from(orderItems)
    .where(eq(orderItems.orderId, sql.placeholder('orderId')))
    .orderBy(asc(orderItems.id))
    .prepare('order_items_with_duties'),
);

/** One order's lines and the duty line each was quoted (none at home), in one statement. */
async function itemsWithDuties(
  ctx: AppContext,
  orderId: number,
): Promise<{ items: ItemRow[]; duties: OrderDutyLine[] }> {
  const rows = await itemsWithDutiesStatement(ctx.db).execute({ orderId });
  return { items: rows.map((row) => row.item), duties: rows.flatMap((row) => (row.duty ? [row.duty] : [])) };
}

/** Which orders a My Orders tab lists: all, one status (the `status` placeholder), or those with an after-sale status. */
type TabKind = 'all' | 'status' | 'after_sales';

const TAB_CONDITIONS: Record<TabKind, SQL | undefined> = {
  all: undefined,
  status: eq(orders.status, sql.placeholder('status')),
  after_sales: inArray(orders.status, AFTER_SALE_STATUSES),
};

/** One page of a tab's orders, newest first, each row with the tab's total (`count(*) over ()`). */
function ordersPageStatement(tab: TabKind) {
  return preparedPerDatabase((db) =>
    db
      .select({ order: orders, total: sql<number>`count(*) over ()`.mapWith(Number) })
      .from(orders)
      .where(and(eq(orders.userId, sql.placeholder('userId')), TAB_CONDITIONS[tab]))
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(`orders_page_${tab}`),
  );
}

const ORDERS_PAGE: Record<TabKind, ReturnType<typeof ordersPageStatement>> = {
  all: ordersPageStatement('all'),
  status: ordersPageStatement('status'),
  after_sales: ordersPageStatement('after_sales'),
};

/** `GET /v1/order/list` and My Orders: the buyer's orders, newest first, filtered by tab. */
export async function listOrders(
  ctx: AppContext,
  input: { userId: number; query: OrderListQuery; locale: Locale },
): Promise<OrderPage> {
  const { status: tab, page, page_size } = input.query;
  const statement = ORDERS_PAGE[tab === 'all' || tab === 'after_sales' ? tab : 'status'](ctx.db);
  const pageOf = (limit: number, offset: number) =>
    statement.execute({ userId: input.userId, status: Number(tab), limit, offset });
  const rows = await pageOf(page_size, (page - 1) * page_size);
  // Past the last page: the tab's total comes from its first row.
  const total = (rows.length === 0 && page > 1 ? (await pageOf(1, 0))[0]?.total : rows[0]?.total) ?? 0;
  const items = await itemsOf(
    ctx,
    rows.map((row) => row.order.id),
  );
  return {
    records: rows.map((row) => summaryView(row.order, items.get(row.order.id) ?? [], input.locale)),
    total,
    page,
    page_size,
  };
}

/** `GET /v1/order/countByStatus`: the numbers on the My Orders tabs. */
export async function countOrdersByStatus(ctx: AppContext, userId: number): Promise<OrderCounts> {
  const rows = await ctx.db
    .select({ status: orders.status, n: sql<number>`count(*)`.mapWith(Number) })
    .from(orders)
    .where(eq(orders.userId, userId))
    .groupBy(orders.status);
  const of = (status: number) => rows.find((row) => row.status === status)?.n ?? 0;
  return {
    all: rows.reduce((sum, row) => sum + row.n, 0),
    pending_payment: of(ORDER_STATUS.pendingPayment),
    pending_shipment: of(ORDER_STATUS.pendingShipment),
    pending_receipt: of(ORDER_STATUS.pendingReceipt),
    after_sales: rows
      .filter((row) => (AFTER_SALE_STATUSES as number[]).includes(row.status))
      .reduce((sum, row) => sum + row.n, 0),
    by_status: Object.fromEntries(rows.map((row) => [String(row.status), row.n])),
  };
}

/** The buyer's own order; someone else's is "not found", never "forbidden". */
async function ownOrder(ctx: AppContext, userId: number, id: number): Promise<OrderRow> {
  const [order] = await ownOrderStatement(ctx.db).execute({ userId, id });
  if (!order) throw new NotFoundError('order.notFound');
  return order;
}

const ownOrderStatement = preparedPerDatabase((db) =>
  db
    .select()
    .from(orders)
    .where(and(eq(orders.id, sql.placeholder('id')), eq(orders.userId, sql.placeholder('userId'))))
    .limit(1)
    .prepare('own_order'),
);

const historyOfOrder = preparedPerDatabase((db) =>
  db
    .select()
    .from(orderStatusHistory)
    .where(eq(orderStatusHistory.orderId, sql.placeholder('orderId')))
    .orderBy(asc(orderStatusHistory.id))
    .prepare('order_history'),
);

const refundsOfOrder = preparedPerDatabase((db) =>
  db
    .select({
      amountMinor: refunds.amountMinor,
      chargedAmountMinor: refunds.chargedAmountMinor,
      chargedCurrency: refunds.chargedCurrency,
      succeededAt: refunds.succeededAt,
    })
    .from(refunds)
    .where(and(eq(refunds.orderId, sql.placeholder('orderId')), eq(refunds.status, 'succeeded')))
    .orderBy(asc(refunds.succeededAt), asc(refunds.id))
    .prepare('order_refunds'),
);

function shipmentView(order: OrderRow, locale: Locale): ShipmentView | null {
  if (!order.carrierCode || !order.trackingNo) return null;
  const carrier = findCarrier(order.carrierCode);
  return {
    carrier_code: order.carrierCode,
    carrier_name: carrier ? pickText(carrier.name, locale) : order.carrierCode,
    tracking_no: order.trackingNo,
    tracking_url: trackingUrl(order.carrierCode, order.trackingNo),
    shipped_at: order.shippedAt?.toISOString() ?? null,
    delivered_at: order.deliveredAt?.toISOString() ?? null,
  };
}

/** `GET /v1/order/{id}`: everything the order detail page shows. */
export async function getOrderDetail(
  ctx: AppContext,
  input: { userId: number; id: number; locale: Locale },
): Promise<OrderDetail> {
  const order = await ownOrder(ctx, input.userId, input.id);
  const [{ items, duties }, history, refunded, paidWith] = await Promise.all([
    itemsWithDuties(ctx, order.id),
    historyOfOrder(ctx.db).execute({ orderId: order.id }),
    refundsOfOrder(ctx.db).execute({ orderId: order.id }),
    paymentThatPaid(ctx, order),
  ]);
  return orderDetailView({ order, items, history, refunded, duties, paidWith }, input.locale);
}

/** What the order detail shows, from the rows it is made of (a new order's come from its insert). */
export function orderDetailView(
  rows: {
    order: OrderRow;
    items: readonly ItemRow[];
    history: ReadonlyArray<typeof orderStatusHistory.$inferSelect>;
    refunded: ReadonlyArray<{
      amountMinor: number;
      chargedAmountMinor: number;
      chargedCurrency: Currency;
      succeededAt: Date | null;
    }>;
    duties: readonly OrderDutyLine[];
    paidWith: PaidWith | null;
  },
  locale: Locale,
): OrderDetail {
  const { order, items, history, refunded } = rows;
  const { currency: settlement, display } = currencies(order);
  const money = moneyOf(order);
  const address = order.address;
  const region = [pickText(address.province_name, locale), pickText(address.city_name, locale)].filter(Boolean);
  return {
    ...summaryView(order, items, locale),
    contact: { name: address.contact_name, phone: address.contact_phone },
    country_code: address.country_code,
    country: pickText(address.country_name, locale),
    region: region.join(locale === 'zh-cn' ? ' ' : ', '),
    address: address.detail,
    postal_code: address.postal_code,
    price: {
      product_price: money(order.goodsAmountMinor),
      shipping_fee: money(order.shippingFeeMinor),
      discount: money(order.discountMinor),
      duties: money(order.dutiesMinor),
      total: money(order.totalMinor),
    },
    duties: dutiesView(
      rows.duties.map((line) => ({ ...line, skuId: items.find((item) => item.id === line.orderItemId)?.skuId ?? 0 })),
      { currency: settlement, displayCurrency: display, displayRateMicros: order.displayRateMicros },
      locale,
    ),
    exchange_rate: rateText(order.displayRateMicros),
    coupon_code: order.couponCode,
    notes: order.notes,
    paid_at: order.paidAt?.toISOString() ?? null,
    paid_with: rows.paidWith ? paidWithView(rows.paidWith, locale) : null,
    history: history.map((entry) => ({
      status: entry.toStatus,
      status_text: orderStatusText(locale, entry.toStatus),
      pay_status: entry.payStatus,
      actor: entry.actor,
      note: hasMessage(entry.note) ? translate(locale, entry.note) : entry.note,
      at: entry.createdAt.toISOString(),
    })),
    shipment: shipmentView(order, locale),
    refunds: refunded.map((refund) => ({
      amount: money(refund.amountMinor),
      // What came back, in the currency the payment was charged in (ADR 0144).
      amount_text: formatPrice(
        { amountMinor: refund.chargedAmountMinor, currency: refund.chargedCurrency },
        'symbol',
        locale,
      ),
      refunded_at: (refund.succeededAt ?? new Date(0)).toISOString(),
    })),
  };
}

/**
 * Cancels a locked unpaid order (status 1 -> 60, pay status 1 -> 3) and gives its stock
 * and coupon use back, in the caller's transaction. Used by the buyer and the timeout sweep,
 * who retire the cached pages of what came back on the shelf once it commits.
 */
export async function cancelUnpaid(
  ctx: TransactionContext,
  order: OrderRow,
  actor: Actor,
  now: Date,
): Promise<{ order: OrderRow; released: ReleasedStock }> {
  const cancelled = await moveOrder(ctx.db, order, {
    action: 'cancel',
    to: ORDER_STATUS.cancelled,
    actor,
    note: actor === 'buyer' ? 'order.history.cancelledByBuyer' : 'order.history.cancelledUnpaid',
    set: { cancelledAt: now },
  });
  return { order: cancelled, released: await releaseOrderHolds(ctx, order) };
}

/** `PUT /v1/order/cancel/{id}`: only an order still awaiting payment. */
export async function cancelOrderByBuyer(ctx: AppContext, input: { userId: number; id: number }): Promise<OrderRow> {
  const { order, released } = await ctx.db.transaction(async (tx) => {
    const locked = await lockOrder(tx, input.id);
    if (!locked || locked.userId !== input.userId) throw new NotFoundError('order.notFound');
    if (locked.status !== ORDER_STATUS.pendingPayment || locked.payStatus !== PAY_STATUS.pending) {
      throw new IllegalTransitionError('order.cannotCancel');
    }
    return cancelUnpaid({ ...ctx, db: tx }, locked, 'buyer', new Date());
  });
  await retireStockPages(ctx, { productIds: released.productIds, listingsToo: released.backInStock });
  return order;
}

/** Status 20 -> 30, by the buyer (`PUT /v1/order/confirm/{id}`) or the auto-confirm sweep. */
export async function confirmReceiptLocked(
  ctx: TransactionContext,
  order: OrderRow,
  actor: Actor,
  now: Date,
): Promise<OrderRow> {
  return moveOrder(ctx.db, order, {
    action: 'confirmReceipt',
    to: ORDER_STATUS.received,
    actor,
    note: actor === 'buyer' ? 'order.history.received' : 'order.history.autoReceived',
    set: { receivedAt: now },
  });
}

export async function confirmReceipt(ctx: AppContext, input: { userId: number; id: number }): Promise<OrderRow> {
  return ctx.db.transaction(async (tx) => {
    const order = await lockOrder(tx, input.id);
    if (!order || order.userId !== input.userId) throw new NotFoundError('order.notFound');
    if (order.status !== ORDER_STATUS.pendingReceipt) throw new IllegalTransitionError('order.cannotConfirm');
    return confirmReceiptLocked({ ...ctx, db: tx }, order, 'buyer', new Date());
  });
}

/** Events the shop records itself are told in the reader's language; operator notes as written. */
function eventText(
  event: { kind: string; description: string },
  shipment: { carrier_name: string; tracking_no: string },
  locale: Locale,
): string {
  if (event.kind === 'shipped')
    return translate(locale, 'tracking.shipped', { carrier: shipment.carrier_name, trackingNo: shipment.tracking_no });
  if (event.kind === 'delivered' && !event.description) return translate(locale, 'tracking.delivered');
  return event.description;
}

/** `GET /v1/order/{id}/express`: carrier, tracking number and events of the buyer's order. */
export async function getOrderExpress(
  ctx: AppContext,
  input: { userId: number; id: number; locale: Locale },
): Promise<OrderExpress> {
  const order = await ownOrder(ctx, input.userId, input.id);
  const shipment = shipmentView(order, input.locale);
  if (!shipment) throw new NotFoundError('order.notShipped');
  const events = await trackingProvider().events(ctx.db, {
    orderId: order.id,
    carrierCode: shipment.carrier_code,
    trackingNo: shipment.tracking_no,
  });
  return {
    ...shipment,
    status: order.status,
    events: events
      .map((event) => ({
        at: event.occurredAt.toISOString(),
        description: eventText(event, shipment, input.locale),
        kind: event.kind,
      }))
      .reverse(),
  };
}
