import { pickText, type Locale } from '../../../i18n';
import type { AppContext } from '../../context';
import { retireStockPages } from '../../shared/content-version';
import { BadRequestError } from '../../shared/errors';
import { addressSnapshot, assertPostalCodeShippable } from '../addresses/addresses.service';
import { removeCartLines, userCartKey } from '../cart/cart.service';
import { OutOfStockError } from '../catalog/sku-facts';
import { takeStock } from '../catalog/stock.service';
import { claimCouponUse } from '../coupons/coupons.service';
import { dutySnapshot, saveDutySnapshot } from '../duties/duties.service';
import { enqueueOrderMail } from '../orders/order-mail';
import { nextOrderNo } from '../orders/order-numbers';
import { orderTimers } from '../site-settings/site-settings.service';
import {
  findOrderByIdempotencyKey,
  insertPlacedOrder,
  isRepeatedIdempotencyKey,
  isRepeatedOrderNo,
  type OrderRow,
} from '../orders/order-state';
import type { OrderDetail } from '../orders/orders.schemas';
import { getOrderDetail, orderDetailView } from '../orders/orders.service';
import { quoteOrder, type QuoteInput } from './checkout.service';

export interface PlaceOrderInput extends QuoteInput {
  notes?: string;
  idempotencyKey?: string;
}

export type PlaceOrderResult = { order: OrderRow; created: boolean; detail: OrderDetail };

const ORDER_NO_ATTEMPTS = 3;

/**
 * `POST /v2/order`: prices the order on the server, then in one transaction creates it
 * (status 1, pay status 1), snapshots what was sold, counts the coupon use, clears the
 * ordered cart lines, owes the buyer the "order placed" email (the outbox) and, last, takes
 * the stock with a guard that cannot go below zero. The same idempotency key from the same
 * buyer always answers the one order it created. After the commit only the cached pages of
 * the ordered products are retired, and the listings only when a SKU sold out.
 */
export async function placeOrder(ctx: AppContext, input: PlaceOrderInput): Promise<PlaceOrderResult> {
  const detailOf = (readCtx: AppContext, row: OrderRow) =>
    getOrderDetail(readCtx, { userId: input.userId, id: row.id, locale: input.locale });
  if (input.idempotencyKey) {
    const existing = await findOrderByIdempotencyKey(ctx, input.userId, input.idempotencyKey);
    if (existing) return { order: existing, created: false, detail: await detailOf(ctx, existing) };
  }
  const quote = await quoteOrder(ctx, input);
  if (!quote.address) throw new BadRequestError('address.incomplete');
  assertPostalCodeShippable(quote.address, input.locale);
  const address = await addressSnapshot(quote.address);
  const now = input.now ?? new Date();
  const locale: Locale = input.locale;
  const { paymentTimeoutMinutes } = await orderTimers(ctx);

  let placed: { order: OrderRow; detail: OrderDetail; soldOut: boolean } | undefined;
  // Order numbers come from a sequence and cannot repeat; the unique index still guards them,
  // and a clash (a sequence reset by a restored backup) draws the next number instead of failing.
  for (let attempt = 1; !placed; attempt++) {
    try {
      placed = await ctx.db.transaction(async (tx) => {
        const txCtx = { ...ctx, db: tx };
        // The order row first: a concurrent duplicate (same idempotency key) waits here and
        // then fails on the unique index before it touches any stock.
        const rows = await insertPlacedOrder(
          txCtx,
          {
            orderNo: nextOrderNo(now),
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
        const created = rows.order;
        const duties = quote.duties
          ? await saveDutySnapshot(txCtx, dutySnapshot(quote.duties, created.id, rows.items))
          : [];
        if (quote.coupon && !(await claimCouponUse(txCtx, quote.coupon.id)))
          throw new BadRequestError('order.couponUsedUp');
        if (quote.fromCart) {
          await removeCartLines(
            tx,
            userCartKey(input.userId),
            quote.lines.map((line) => line.sku.skuId),
          );
        }
        await enqueueOrderMail(txCtx, { orderId: created.id, kind: 'placed' });
        // The stock last: a hot SKU's row stays locked only from here to the commit, while
        // every other order for it waits on that lock.
        const taken = await takeStock(
          txCtx,
          quote.lines.map((line) => ({ skuId: line.sku.skuId, quantity: line.quantity })),
        );
        if ('short' in taken) {
          const line = quote.lines.find((candidate) => candidate.sku.skuId === taken.short.skuId);
          throw new OutOfStockError(line ? pickText(line.sku.productName, locale) : '', taken.short.stock);
        }
        // Made from the inserted rows: the answer needs no read-back, and so no other
        // connection once committed (a busy pool cannot turn a placed order into an error).
        const detail = orderDetailView({ ...rows, refunded: [], duties, paidWith: null }, locale);
        return { order: created, detail, soldOut: taken.soldOut };
      });
    } catch (error) {
      if (input.idempotencyKey && isRepeatedIdempotencyKey(error)) {
        const existing = await findOrderByIdempotencyKey(ctx, input.userId, input.idempotencyKey);
        if (existing) return { order: existing, created: false, detail: await detailOf(ctx, existing) };
      }
      if (isRepeatedOrderNo(error) && attempt < ORDER_NO_ATTEMPTS) continue;
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
