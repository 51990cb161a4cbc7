import { randomInt } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { pickText, type Locale } from '../../../i18n';
import { orderItems, orders, orderStatusHistory, productSkus } from '../../db/schema';
import type { AppContext } from '../../shared/context';
import { bumpContentVersion } from '../../shared/content-version';
import { AppError, BadRequestError } from '../../shared/errors';
import { addressSnapshot } from '../addresses/addresses.service';
import { removeCartLines, userCartKey } from '../cart/cart.service';
import { claimCouponUse } from '../coupons/coupons.service';
import { sendOrderMail } from '../orders/order-mail';
import { ORDER_STATUS, PAY_STATUS } from '../orders/order-lifecycle';
import type { OrderRow } from '../orders/order-state';
import { getOrderDetail, type OrderDetail } from '../orders/orders.service';
import { quoteOrder, type QuoteInput } from './checkout.service';

/** Stock ran out between the quote and the order (409: the buyer can try a smaller quantity). */
export class OutOfStockError extends AppError {
  constructor(name: string, stock: number) {
    super(stock > 0 ? 'cart.notEnoughStock' : 'cart.soldOut', 409, 409, { name, stock });
  }
}

export interface PlaceOrderInput extends QuoteInput {
  notes?: string;
  idempotencyKey?: string;
}

export type PlaceOrderResult = { order: OrderRow; created: boolean; detail: OrderDetail };

/** 'YYMMDDHHmm' + 6 random digits: readable over the phone, unique by its index. */
function newOrderNo(now: Date): string {
  const stamp = now.toISOString().replace(/\D/g, '').slice(2, 12);
  return `${stamp}${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
}

async function findByIdempotencyKey(ctx: AppContext, userId: number, key: string): Promise<OrderRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, key)))
    .limit(1);
  return row;
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  for (let current = error as { code?: string; constraint?: string; message?: string; cause?: unknown } | undefined, depth = 0; current && depth < 5; depth++) {
    if (current.code === '23505' && (current.constraint === constraint || current.message?.includes(constraint))) return true;
    current = current.cause as typeof current;
  }
  return false;
}

/**
 * `POST /v2/order`: prices the order on the server, then in one transaction creates it
 * (status 1, pay status 1), takes the stock with a guard that cannot go below zero,
 * snapshots what was sold, counts the coupon use and clears the ordered cart lines. The
 * same idempotency key from the same buyer always answers the one order it created.
 */
export async function placeOrder(ctx: AppContext, input: PlaceOrderInput): Promise<PlaceOrderResult> {
  const detailOf = (db: AppContext, row: OrderRow) => getOrderDetail(db, { userId: input.userId, id: row.id, locale: input.locale });
  if (input.idempotencyKey) {
    const existing = await findByIdempotencyKey(ctx, input.userId, input.idempotencyKey);
    if (existing) return { order: existing, created: false, detail: await detailOf(ctx, existing) };
  }
  const quote = await quoteOrder(ctx, input);
  if (!quote.address) throw new BadRequestError('address.incomplete');
  const address = await addressSnapshot(quote.address);
  const now = input.now ?? new Date();
  const locale: Locale = input.locale;

  let order: OrderRow;
  let detail: OrderDetail;
  try {
    ({ order, detail } = await ctx.db.transaction(async (tx) => {
      // The order row first: a concurrent duplicate (same idempotency key) waits here and
      // then fails on the unique index before it touches any stock.
      const [created] = await tx
        .insert(orders)
        .values({
          orderNo: newOrderNo(now),
          userId: input.userId,
          status: ORDER_STATUS.pendingPayment,
          payStatus: PAY_STATUS.pending,
          locale,
          currency: quote.currency,
          goodsAmountMinor: quote.goodsMinor,
          shippingFeeMinor: quote.shippingMinor,
          discountMinor: quote.discountMinor,
          totalMinor: quote.totalMinor,
          displayCurrency: quote.displayCurrency,
          displayRateMicros: quote.displayRateMicros,
          displayTotalMinor: quote.displayTotalMinor,
          couponId: quote.coupon?.id ?? null,
          couponCode: quote.coupon?.code ?? null,
          address,
          notes: input.notes ?? '',
          idempotencyKey: input.idempotencyKey ?? null,
          paymentDeadline: new Date(now.getTime() + ctx.env.ORDER_PAYMENT_TIMEOUT_MINUTES * 60_000),
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      // Ascending SKU order, so two orders for the same SKUs can never deadlock.
      for (const line of [...quote.lines].sort((a, b) => a.sku.skuId - b.sku.skuId)) {
        const taken = await tx
          .update(productSkus)
          .set({ stock: sql`${productSkus.stock} - ${line.quantity}`, updatedAt: sql`now()` })
          .where(and(eq(productSkus.id, line.sku.skuId), sql`${productSkus.stock} >= ${line.quantity}`))
          .returning({ stock: productSkus.stock });
        if (taken.length === 0) {
          const [left] = await tx.select({ stock: productSkus.stock }).from(productSkus).where(eq(productSkus.id, line.sku.skuId));
          throw new OutOfStockError(pickText(line.sku.productName, locale), left?.stock ?? 0);
        }
      }
      await tx.insert(orderItems).values(
        quote.lines.map((line) => ({
          orderId: created.id,
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
      await tx.insert(orderStatusHistory).values({
        orderId: created.id,
        fromStatus: null,
        toStatus: ORDER_STATUS.pendingPayment,
        payStatus: PAY_STATUS.pending,
        actor: 'buyer',
        note: 'order.history.placed',
        createdAt: now,
      });
      if (quote.coupon && !(await claimCouponUse(tx, quote.coupon.id))) throw new BadRequestError('order.couponUsedUp');
      if (quote.fromCart) {
        await removeCartLines(tx, userCartKey(input.userId), quote.lines.map((line) => line.sku.skuId));
      }
      // Read back on the transaction's own connection: once committed, the answer needs no
      // other connection, so a busy pool cannot turn a placed order into an error reply.
      return { order: created, detail: await detailOf({ ...ctx, db: tx }, created) };
    }));
  } catch (error) {
    if (input.idempotencyKey && isUniqueViolation(error, 'orders_user_idempotency_idx')) {
      const existing = await findByIdempotencyKey(ctx, input.userId, input.idempotencyKey);
      if (existing) return { order: existing, created: false, detail: await detailOf(ctx, existing) };
    }
    throw error;
  }
  // Stock shows on product pages: retire cached copies. The email must not fail the order.
  await bumpContentVersion(ctx);
  void sendOrderMail(ctx, { orderId: order.id, kind: 'placed' }).catch((error) =>
    ctx.log.error({ err: error, orderId: order.id }, 'order placed email failed'),
  );
  return { order, created: true, detail };
}
