import { pickText, type Locale } from '../../../i18n';
import type { AppContext } from '../../context';
import { rowsFromJson } from '../../db/json-rows';
import { orderDutyLines } from '../../db/schema';
import { retireStockPages } from '../../shared/content-version';
import { BadRequestError } from '../../shared/errors';
import { createTurns, type Turns } from '../../shared/turns';
import { addressSnapshot, assertPostalCodeShippable } from '../addresses/addresses.service';
import { userCartKey } from '../cart/cart.service';
import { OutOfStockError } from '../catalog/sku-facts';
import { isStockShort, shortLine } from '../catalog/stock.service';
import { isCouponUsedUp } from '../coupons/coupons.service';
import { dutySnapshotRows } from '../duties/duties.service';
import { orderNoDay } from '../orders/order-numbers';
import { orderTimers } from '../site-settings/site-settings.service';
import {
  findOrderByIdempotencyKey,
  isRepeatedOrderNo,
  placedOrderFromJson,
  placedOrderRows,
  type OrderRow,
} from '../orders/order-state';
import type { OrderDetail } from '../orders/orders.schemas';
import { getOrderDetail, orderDetailView } from '../orders/orders.service';
import { priceQuote, readQuote, type Quote, type QuoteInput } from './checkout.service';
import { placeOrderStatement, type PlacementParameters } from './place-order.statement';

export interface PlaceOrderInput extends QuoteInput {
  notes?: string;
  idempotencyKey?: string;
  /** Aborts when the buyer left: a placement still waiting for its turn then never starts. */
  signal?: AbortSignal;
}

export type PlaceOrderResult = { order: OrderRow; created: boolean; detail: OrderDetail };

const PLACEMENT_ATTEMPTS = 3;

/**
 * Places an order in one of `placementTurns`: the storefront's Place order. One that waits past
 * its longest turn is refused with `OverloadedError` (503, Retry-After) before anything is read,
 * and one whose buyer left while it waited never starts. `POST /v2/order` takes the turn itself,
 * around its session check too (ADR 0184), and places with `placeOrderInTurn`.
 */
export async function placeOrder(ctx: AppContext, input: PlaceOrderInput): Promise<PlaceOrderResult> {
  return placementTurns(ctx).run(() => placeOrderInTurn(ctx, input), input.signal);
}

/** Long enough for a burst's queue to drain; short enough that a buyer told to wait tries again soon. */
const RETRY_AFTER_SECONDS = 5;

const turnsByDatabase = new WeakMap<AppContext['database'], Turns>();

/**
 * The turns this server copy's placements take (ADR 0181): as many at once as the database
 * pool has connections unless ORDER_PLACEMENTS_AT_ONCE says otherwise. In a flash sale the
 * first buyers' placements run through instead of hundreds each waiting on the pool at every
 * step, and those admitted after the sell-out are refused by the quote's stock check alone.
 */
export function placementTurns(ctx: AppContext): Turns {
  let turns = turnsByDatabase.get(ctx.database);
  if (!turns) {
    turns = createTurns({
      atOnce: ctx.env.ORDER_PLACEMENTS_AT_ONCE ?? ctx.env.DATABASE_POOL_MAX,
      maxWaitMs: ctx.env.ORDER_PLACEMENT_MAX_WAIT_SECONDS * 1000,
      retryAfterSeconds: RETRY_AFTER_SECONDS,
    });
    turnsByDatabase.set(ctx.database, turns);
  }
  return turns;
}

/**
 * Prices the order on the server, then in one statement (its own transaction,
 * place-order.statement.ts) creates it (status 1, pay status 1), snapshots what was sold, counts
 * the coupon use, clears the ordered cart lines, owes the buyer the "order placed" email (the
 * outbox) and takes the stock, which cannot go below zero. The same idempotency key from the same
 * buyer always answers the one order it created. After the commit only the cached pages of the
 * ordered products are retired, and the listings only when a SKU sold out. The caller holds one
 * of `placementTurns` (`placeOrder` takes it; `POST /v2/order` takes it around its session check).
 */
export async function placeOrderInTurn(
  ctx: AppContext,
  input: Omit<PlaceOrderInput, 'signal'>,
): Promise<PlaceOrderResult> {
  const read = await readQuote(ctx, input);
  if (read.orderWithKey) return placedBefore(ctx, input, read.orderWithKey);
  // A refusal decided from the snapshot (sold out, unlisted, no address) needs no second look
  // for the key: the snapshot held no order of it.
  const quote = await priceQuote(ctx, input, read);
  try {
    return await placeQuotedOrder(ctx, input, quote);
  } catch (error) {
    // The placement failed after the snapshot: the key's unique index (the same request twice at
    // once), the stock taken by the same key's order, any other failure. When the look-up fails
    // too, the first failure is the one to report.
    const existing = input.idempotencyKey
      ? await findOrderByIdempotencyKey(ctx, input.userId, input.idempotencyKey).catch(() => undefined)
      : undefined;
    if (!existing) throw error;
    return placedBefore(ctx, input, existing);
  }
}

/** The answer to a repeated idempotency key: the one order it placed. */
async function placedBefore(ctx: AppContext, input: PlaceOrderInput, order: OrderRow): Promise<PlaceOrderResult> {
  const detail = await getOrderDetail(ctx, { userId: input.userId, id: order.id, locale: input.locale });
  return { order, created: false, detail };
}

async function placeQuotedOrder(ctx: AppContext, input: PlaceOrderInput, quote: Quote): Promise<PlaceOrderResult> {
  if (!quote.address) throw new BadRequestError('address.incomplete');
  assertPostalCodeShippable(quote.address, input.locale);
  const address = await addressSnapshot(quote.address);
  const now = input.now ?? new Date();
  const locale: Locale = input.locale;
  const { paymentTimeoutMinutes } = await orderTimers(ctx);

  const stockLines = quote.lines.map((line) => ({ skuId: line.sku.skuId, quantity: line.quantity }));
  const rows = placedOrderRows(
    {
      userId: input.userId,
      locale,
      currency: quote.currency,
      goodsAmountMinor: quote.goodsMinor,
      shippingFeeMinor: quote.shippingMinor,
      discountMinor: quote.discountMinor,
      dutiesMinor: quote.duties?.chargedMinor ?? 0,
      totalMinor: quote.totalMinor,
      displayCurrency: quote.displayCurrency,
      displayRateMicros: quote.displayRateMicros,
      displayTotalMinor: quote.displayTotalMinor,
      couponId: quote.coupon?.id ?? null,
      couponCode: quote.coupon?.code ?? null,
      address,
      notes: input.notes ?? '',
      idempotencyKey: input.idempotencyKey ?? null,
      paymentDeadline: new Date(now.getTime() + paymentTimeoutMinutes * 60_000),
      createdAt: now,
      updatedAt: now,
    },
    quote.lines.map((line) => ({
      productId: line.sku.productId,
      skuId: line.sku.skuId,
      skuCode: line.sku.skuCode,
      productName: line.sku.productName,
      skuProperties: line.sku.properties,
      image: line.sku.image,
      unitPriceMinor: line.unitPriceMinor,
      quantity: line.quantity,
      lineTotalMinor: line.lineTotalMinor,
      weightGrams: line.sku.weightGrams,
    })),
  );
  const parameters: PlacementParameters = {
    ...rows,
    day: orderNoDay(now),
    stock: JSON.stringify(stockLines.map((line) => ({ sku_id: line.skuId, quantity: line.quantity }))),
    duties: dutySnapshotRows(quote.duties),
    couponId: quote.coupon?.id ?? null,
    cartKey: quote.fromCart ? userCartKey(input.userId) : null,
  };

  let placed: { order: OrderRow; detail: OrderDetail; soldOut: boolean } | undefined;
  for (let attempt = 1; !placed; attempt++) {
    try {
      const [answer] = await placeOrderStatement(ctx.db).execute(parameters);
      if (!answer) throw new Error('placing an order answered no row');
      const written = placedOrderFromJson(answer);
      const duties = rowsFromJson(orderDutyLines, answer.duties);
      // Made from the written rows: the answer needs no read-back.
      const detail = orderDetailView({ ...written, refunded: [], duties, paidWith: null }, locale);
      placed = { order: written.order, detail, soldOut: answer.soldOut };
    } catch (error) {
      if (isCouponUsedUp(error)) throw new BadRequestError('order.couponUsedUp');
      if (isStockShort(error)) {
        const short = await shortLine(ctx, stockLines);
        // Stock put back between the refusal and this look (a cancelled order): try again.
        if (!short && attempt < PLACEMENT_ATTEMPTS) continue;
        const line = quote.lines.find((candidate) => candidate.sku.skuId === short?.skuId) ?? quote.lines[0];
        throw new OutOfStockError(line ? pickText(line.sku.productName, locale) : '', short?.stock ?? 0);
      }
      // Order numbers come from a sequence and cannot repeat; the unique index still guards them,
      // and a clash (a sequence reset by a restored backup) draws the next number instead of failing.
      if (isRepeatedOrderNo(error) && attempt < PLACEMENT_ATTEMPTS) continue;
      throw error;
    }
  }
  const { order, detail, soldOut } = placed;
  await retireStockPages(ctx, {
    productIds: quote.lines.map((line) => line.sku.productId),
    listingsToo: soldOut,
  });
  return { order, created: true, detail };
}
