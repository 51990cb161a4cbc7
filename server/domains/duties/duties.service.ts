import { asc, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import { translate, type Locale } from '../../../i18n';
import { dutyRates, dutyTerms, importRegimes, orderDutyLines } from '../../db/schema';
import type { AppContext } from '../../context';
import { insertJsonRows, jsonRow } from '../../db/json-rows';
import { preparedPerDatabase } from '../../db/prepared';
import { keptUntilContentChanges } from '../../shared/content-version';
import { amountView, formatPrice, rateText, type Currency } from '../../shared/money';
import type { DutiesView } from './duties.schemas';
import { convertAt, dutiesFor, shareOut, type DutyQuote, type ImportRules } from './duty-rules';
import { inListedIds } from '../../db/listed-ids';

export type OrderDutyLine = typeof orderDutyLines.$inferSelect;

/**
 * Every import rule (a few hundred rows at most), kept in memory: every checkout quote reads
 * them. Whatever changes a rule bumps the content version.
 */
const keptRules = keptUntilContentChanges(async (ctx): Promise<ImportRules> => {
  const [regimes, rates, terms] = await Promise.all([
    ctx.db.select().from(importRegimes),
    ctx.db.select().from(dutyRates),
    ctx.db.select({ countryCode: dutyTerms.countryCode, incoterm: dutyTerms.incoterm }).from(dutyTerms),
  ]);
  return { regimes, rates, terms };
});

export interface DutyQuoteInput {
  destination: string;
  lines: ReadonlyArray<{ skuId: number; hsCode: string | null; originCountry: string | null; lineTotalMinor: number }>;
  /** The order's discount: customs values are what the buyer pays for each line, so it is shared over them. */
  discountMinor: number;
  shippingMinor: number;
  settlementCurrency: Currency;
  exchangeRates: Readonly<Record<string, number>>;
  at: Date;
}

/** The duties and import taxes of a checkout, per SKU (`key` is the SKU id); null for a domestic parcel. */
export async function quoteDuties(ctx: AppContext, input: DutyQuoteInput): Promise<DutyQuote | null> {
  const rules = await keptRules.read(ctx);
  const discounts = shareOut(
    input.discountMinor,
    input.lines.map((line) => line.lineTotalMinor),
  );
  return dutiesFor(
    {
      destination: input.destination,
      lines: input.lines.map((line, index) => ({
        key: line.skuId,
        hsCode: line.hsCode,
        originCountry: line.originCountry,
        valueMinor: Math.max(0, line.lineTotalMinor - discounts[index]!),
      })),
      shippingMinor: input.shippingMinor,
      settlementCurrency: input.settlementCurrency,
      exchangeRates: input.exchangeRates,
    },
    rules,
    input.at,
  );
}

/** The quote's lines as the order keeps them, as the JSON parameter of `dutySnapshotWrite` (empty without duties). */
export function dutySnapshotRows(quote: DutyQuote | null): string {
  const rows = quote
    ? quoteLines(quote).map(({ skuId, ...line }) => ({ ...jsonRow(orderDutyLines, line), sku_id: skuId }))
    : [];
  return JSON.stringify(rows);
}

const SNAPSHOT_COLUMNS = (Object.keys(getTableColumns(orderDutyLines)) as Array<keyof OrderDutyLine>).filter(
  (key) => key !== 'id' && key !== 'orderId' && key !== 'orderItemId',
);

/**
 * Stores an order's duty lines as part of the statement that places it (checkout's
 * place-order); they are never recomputed. `rows` are `dutySnapshotRows`; each is matched by
 * SKU to its line in `orderLines` (a relation with `id` and `sku_id`), of the order `orderId`.
 */
export function dutySnapshotWrite(parameters: { rows: SQL; orderId: SQL; orderLines: SQL }): SQL {
  return insertJsonRows(orderDutyLines, {
    rows: parameters.rows,
    columns: SNAPSHOT_COLUMNS,
    computed: {
      orderId: parameters.orderId,
      orderItemId: sql`(select line.id from ${parameters.orderLines} as line
        where line.sku_id = (source.item->>'sku_id')::integer)`,
    },
  });
}

const dutyLinesOfOrders = preparedPerDatabase((db) =>
  db
    .select()
    .from(orderDutyLines)
    .where(inListedIds(orderDutyLines.orderId, sql`${sql.placeholder('orderIds')}`))
    .orderBy(asc(orderDutyLines.orderItemId))
    .prepare('duty_lines_of_orders'),
);

/** The duty lines of these orders, by order id, in line order. */
export async function orderDuties(ctx: AppContext, orderIds: readonly number[]): Promise<Map<number, OrderDutyLine[]>> {
  const map = new Map<number, OrderDutyLine[]>();
  if (orderIds.length === 0) return map;
  const rows = await dutyLinesOfOrders(ctx.db).execute({ orderIds: [...orderIds] });
  for (const row of rows) map.set(row.orderId, [...(map.get(row.orderId) ?? []), row]);
  return map;
}

/**
 * An order item's duty line (or null) as a column of the items' own statement: the order
 * detail reads its lines and their duties in one round trip. For a select from `order_items`.
 */
export function dutyLineOfItem() {
  return sql<OrderDutyLine | null>`(
    select json_build_object('id', d.id, 'orderId', d.order_id, 'orderItemId', d.order_item_id,
      'incoterm', d.incoterm, 'rulesVersion', d.rules_version, 'hsCode', d.hs_code,
      'originCountry', d.origin_country, 'currency', d.currency, 'rateMicros', d.rate_micros,
      'customsValueMinor', d.customs_value_minor, 'dutyRateBps', d.duty_rate_bps, 'dutyMinor', d.duty_minor,
      'taxRateBps', d.tax_rate_bps, 'taxMinor', d.tax_minor, 'feeMinor', d.fee_minor,
      'chargedMinor', d.charged_minor, 'estimateMinor', d.estimate_minor, 'estimateHidden', d.estimate_hidden)
    from ${orderDutyLines} d where d.order_item_id = "order_items"."id")`;
}

/** The duties and import taxes paid with an order, by order item id: refunding a whole line gives its part back. */
export async function dutyChargedByItem(ctx: AppContext, orderId: number): Promise<Map<number, number>> {
  const lines = (await orderDuties(ctx, [orderId])).get(orderId) ?? [];
  return new Map(lines.map((line) => [line.orderItemId, line.chargedMinor]));
}

/** A quote's lines in the stored shape, so a checkout and an order are shown by one function. */
export function quoteLines(quote: DutyQuote): ShownLine[] {
  return quote.lines.map((line) => ({
    skuId: line.key,
    incoterm: quote.incoterm,
    rulesVersion: quote.rulesVersion,
    hsCode: line.hsCode,
    originCountry: line.originCountry,
    currency: quote.currency,
    rateMicros: quote.rateMicros,
    customsValueMinor: line.customsValueMinor,
    dutyRateBps: line.dutyRateBps,
    dutyMinor: line.dutyMinor,
    taxRateBps: line.taxRateBps,
    taxMinor: line.taxMinor,
    feeMinor: line.feeMinor,
    chargedMinor: line.chargedMinor,
    estimateMinor: line.estimateMinor,
    estimateHidden: quote.estimateHidden,
  }));
}

type ShownLine = Omit<OrderDutyLine, 'id' | 'orderId' | 'orderItemId'> & { skuId: number };

/** How the buyer reads the duties: what was paid with the order and what is left for the carrier. */
export function dutiesNote(
  locale: Locale,
  duties: { estimateHidden: boolean; chargedMinor: number; estimateMinor: number; estimateText: string },
): string {
  if (duties.estimateHidden) return translate(locale, 'duties.hidden');
  if (duties.estimateMinor > 0 && duties.chargedMinor > 0)
    return translate(locale, 'duties.paidNowAndEstimate', { amount: duties.estimateText });
  if (duties.estimateMinor > 0) return translate(locale, 'duties.estimate', { amount: duties.estimateText });
  if (duties.chargedMinor > 0) return translate(locale, 'duties.paidNow');
  return translate(locale, 'duties.none');
}

/**
 * The duties view of a checkout or an order (null when the parcel has none). Settlement sums are
 * shown with the buyer's display currency beside them, as every other amount.
 */
export function dutiesView(
  lines: readonly ShownLine[],
  money: { currency: Currency; displayCurrency: Currency; displayRateMicros: number },
  locale: Locale,
): DutiesView | null {
  const first = lines[0];
  if (!first) return null;
  const view = (minor: number) => amountView(minor, money.currency, money.displayCurrency, money.displayRateMicros);
  const chargedMinor = lines.reduce((sum, line) => sum + line.chargedMinor, 0);
  const estimateMinor = lines.reduce((sum, line) => sum + line.estimateMinor, 0);
  const estimate = view(estimateMinor);
  const estimateText = formatPrice(
    { amountMinor: estimate.display_amount_minor, currency: money.displayCurrency },
    'symbol',
    locale,
  );
  return {
    incoterm: first.incoterm,
    estimate_hidden: first.estimateHidden,
    rules_version: first.rulesVersion,
    currency: first.currency,
    rate: rateText(first.rateMicros),
    label: translate(locale, chargedMinor === 0 && estimateMinor > 0 ? 'duties.estimateLabel' : 'duties.label'),
    note: dutiesNote(locale, { estimateHidden: first.estimateHidden, chargedMinor, estimateMinor, estimateText }),
    charged: view(chargedMinor),
    estimate: first.estimateHidden ? null : estimate,
    lines: lines.map((line) => ({
      sku_id: line.skuId,
      hs_code: line.hsCode,
      origin_country: line.originCountry,
      customs_value_minor: line.customsValueMinor,
      duty_rate_bps: line.dutyRateBps,
      duty_minor: line.dutyMinor,
      tax_rate_bps: line.taxRateBps,
      tax_minor: line.taxMinor,
      fee_minor: line.feeMinor,
      charged: view(line.chargedMinor),
      estimate: view(line.estimateMinor),
    })),
  };
}

/**
 * The customs union or country whose VAT the shop collected at sale on this order (its IOSS or
 * UK VAT registration applies), or null: read from the regime the order's duties were quoted
 * under, with the order's goods value at the frozen rate.
 */
export async function collectedAtSale(
  ctx: AppContext,
  lines: readonly OrderDutyLine[],
  goodsSettlementMinor: number,
  settlementCurrency: string,
): Promise<string | null> {
  const first = lines[0];
  const regimeId = first ? Number(/#(\d+)@/.exec(first.rulesVersion)?.[1]) : NaN;
  if (!first || !Number.isInteger(regimeId)) return null;
  const [regime] = await ctx.db.select().from(importRegimes).where(eq(importRegimes.id, regimeId));
  if (!regime || regime.lowValueTax !== 'at_sale') return null;
  const goods = convertAt(
    goodsSettlementMinor,
    settlementCurrency,
    regime.currency,
    BigInt(first.rateMicros),
    1_000_000n,
  );
  const valued = Math.round((goods * regime.valuationBps) / 10_000);
  return regime.lowValueThresholdMinor > 0 && valued <= regime.lowValueThresholdMinor ? regime.dutyZone : null;
}
