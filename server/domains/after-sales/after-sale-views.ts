import { asc, eq, inArray } from 'drizzle-orm';
import { hasMessage, pickText, translate, type Locale } from '../../../i18n';
import { afterSaleHistory, afterSaleLines, orderItems, orders, refunds, type AfterSaleState } from '../../db/schema';
import type { AppContext } from '../../context';
import { amountView, isCurrency, type Currency } from '../../shared/money';
import type { AmountView } from '../../shared/money.schemas';
import { loadSkuFacts, propertiesText } from '../catalog/sku-facts';
import { findCarrier, trackingUrl } from '../tracking/carriers';
import type { AfterSaleRow } from './after-sale-state';
import { afterSaleStatusOf } from './after-sale-status';
import type { AfterSaleDetail, AfterSaleSummary } from './after-sales.schemas';

type OrderRow = typeof orders.$inferSelect;
type ItemRow = typeof orderItems.$inferSelect;
type LineRow = typeof afterSaleLines.$inferSelect;

/** What every view of a case needs besides the case: its order, its lines with what was sold. */
export interface LoadedCase {
  row: AfterSaleRow;
  order: OrderRow;
  lines: Array<{ line: LineRow; item: ItemRow }>;
}

export function currenciesOf(order: OrderRow): { currency: Currency; display: Currency } {
  return {
    currency: isCurrency(order.currency) ? order.currency : 'CNY',
    display: isCurrency(order.displayCurrency) ? order.displayCurrency : 'CNY',
  };
}

/** Amounts of this order in its settlement currency and, at its frozen rate, in the buyer's. */
export function orderMoney(order: OrderRow): (minor: number) => AmountView {
  const { currency, display } = currenciesOf(order);
  return (minor) => amountView(minor, currency, display, order.displayRateMicros);
}

export function itemProperties(item: ItemRow, locale: Locale): string {
  return item.skuProperties
    .map((property) => `${pickText(property.name, locale)}: ${pickText(property.value, locale)}`)
    .join(' / ');
}

/** Loads cases with their orders and lines, in the order given. */
export async function loadCases(ctx: AppContext, rows: readonly AfterSaleRow[]): Promise<LoadedCase[]> {
  if (rows.length === 0) return [];
  const caseIds = rows.map((row) => row.id);
  const orderIds = [...new Set(rows.map((row) => row.orderId))];
  const [orderRows, lineRows] = await Promise.all([
    ctx.db.select().from(orders).where(inArray(orders.id, orderIds)),
    ctx.db
      .select({ line: afterSaleLines, item: orderItems })
      .from(afterSaleLines)
      .innerJoin(orderItems, eq(orderItems.id, afterSaleLines.orderItemId))
      .where(inArray(afterSaleLines.afterSaleId, caseIds))
      .orderBy(asc(afterSaleLines.id)),
  ]);
  const orderById = new Map(orderRows.map((order) => [order.id, order]));
  return rows.flatMap((row) => {
    const order = orderById.get(row.orderId);
    if (!order) return [];
    return [{ row, order, lines: lineRows.filter(({ line }) => line.afterSaleId === row.id) }];
  });
}

export async function loadCase(ctx: AppContext, row: AfterSaleRow): Promise<LoadedCase | null> {
  const [loaded] = await loadCases(ctx, [row]);
  return loaded ?? null;
}

export function stateText(locale: Locale, state: AfterSaleState): string {
  return translate(locale, `afterSale.state.${state}`);
}

export function typeText(locale: Locale, type: 10 | 20 | 30): string {
  return translate(locale, `afterSale.type.${type}`);
}

/** The case as a list shows it. `wanted` names the SKUs an exchange asks for (`wantedSkus`). */
export function caseSummaryView(
  loaded: LoadedCase,
  locale: Locale,
  wanted: ReadonlyMap<number, string> = new Map(),
): AfterSaleSummary {
  const { row, order } = loaded;
  const money = orderMoney(order);
  const { currency, display } = currenciesOf(order);
  const status = afterSaleStatusOf(row.state);
  return {
    id: row.id,
    case_no: row.caseNo,
    order_id: order.id,
    order_no: order.orderNo,
    type: row.type,
    type_text: typeText(locale, row.type),
    status,
    status_text: translate(locale, `afterSale.status.${status}`),
    state: row.state,
    state_text: stateText(locale, row.state),
    created_at: row.createdAt.toISOString(),
    deadline: row.deadline?.toISOString() ?? null,
    currency,
    display_currency: display,
    estimate: money(row.estimateMinor),
    unit_count: loaded.lines.reduce((sum, { line }) => sum + line.quantity, 0),
    lines: loaded.lines.map(({ line, item }) => ({
      id: line.id,
      order_item_id: item.id,
      product_id: item.productId,
      name: pickText(item.productName, locale),
      properties: itemProperties(item, locale),
      image: item.image,
      quantity: line.quantity,
      refund: money(line.refundMinor),
      wanted:
        line.wantedSkuId === null
          ? null
          : { sku_id: line.wantedSkuId, properties: wanted.get(line.wantedSkuId) ?? String(line.wantedSkuId) },
      accepted_quantity: line.acceptedQuantity,
      damaged_quantity: line.damagedQuantity,
      restocked: line.restocked,
    })),
  };
}

/** The property text of the SKUs exchanges ask for, in `locale`. */
export async function wantedSkus(
  ctx: AppContext,
  loaded: readonly LoadedCase[],
  locale: Locale,
): Promise<Map<number, string>> {
  const ids = loaded.flatMap(({ lines }) =>
    lines.flatMap(({ line }) => (line.wantedSkuId === null ? [] : [line.wantedSkuId])),
  );
  const facts = await loadSkuFacts(ctx.db, ids);
  return new Map(
    [...facts].map(([id, fact]) => [id, propertiesText(fact.properties, (text) => pickText(text, locale))]),
  );
}

const REFUND_STATUS_KEYS = {
  awaiting_approval: 'afterSale.refund.awaiting_approval',
  pending: 'afterSale.refund.pending',
  succeeded: 'afterSale.refund.succeeded',
  failed: 'afterSale.refund.failed',
  rejected: 'afterSale.refund.rejected',
} as const;

/** The whole case: what the buyer's case page and the console's case page both show. */
export async function caseDetailView(
  ctx: AppContext,
  loaded: LoadedCase,
  locale: Locale,
  now = new Date(),
): Promise<AfterSaleDetail> {
  const { row, order } = loaded;
  const money = orderMoney(order);
  const [wanted, history, caseRefunds] = await Promise.all([
    wantedSkus(ctx, [loaded], locale),
    ctx.db
      .select()
      .from(afterSaleHistory)
      .where(eq(afterSaleHistory.afterSaleId, row.id))
      .orderBy(asc(afterSaleHistory.id)),
    ctx.db.select().from(refunds).where(eq(refunds.afterSaleId, row.id)).orderBy(asc(refunds.id)),
  ]);
  const carrier = findCarrier(row.exchangeCarrierCode);
  const afterApproval: readonly AfterSaleState[] = ['awaiting_parcel', 'in_transit'];
  return {
    ...caseSummaryView(loaded, locale, wanted),
    reason: row.reason,
    reason_text: translate(locale, `afterSale.reason.${row.reason}`),
    description: row.description,
    photos: row.photos,
    approved: row.approvedMinor === null ? null : money(row.approvedMinor),
    includes_shipping: row.includesShipping,
    returnless: row.returnless,
    rejection: row.rejection,
    rejection_text: row.rejection ? translate(locale, `afterSale.rejection.${row.rejection}`) : null,
    shop_message: row.shopMessage,
    return_address: afterApproval.includes(row.state) ? ctx.env.AFTER_SALE_RETURN_ADDRESS : null,
    return_carrier: row.returnCarrier,
    return_tracking_no: row.returnTrackingNo,
    exchange_shipment:
      row.exchangeCarrierCode && row.exchangeTrackingNo
        ? {
            carrier_name: carrier ? pickText(carrier.name, locale) : row.exchangeCarrierCode,
            tracking_no: row.exchangeTrackingNo,
            tracking_url: trackingUrl(row.exchangeCarrierCode, row.exchangeTrackingNo),
          }
        : null,
    refunds: caseRefunds.map((refund) => ({
      id: refund.id,
      status: refund.status,
      status_text: translate(locale, REFUND_STATUS_KEYS[refund.status]),
      amount: money(refund.amountMinor),
      succeeded_at: refund.succeededAt?.toISOString() ?? null,
    })),
    timeline: history.map((entry) => ({
      state: entry.toState,
      text: hasMessage(entry.note) ? translate(locale, entry.note) : entry.note,
      actor: entry.actor,
      message: entry.message,
      at: entry.createdAt.toISOString(),
    })),
    can_cancel: row.state === 'requested' || row.state === 'awaiting_parcel',
    can_add_tracking: row.state === 'awaiting_parcel',
    can_appeal: row.state === 'rejected' && !row.appealed && row.deadline !== null && row.deadline > now,
    can_confirm_exchange: row.state === 'exchange_shipped',
  };
}
