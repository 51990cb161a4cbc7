import { eq } from 'drizzle-orm';
import { orderItems, orders, users } from '../../db/schema';
import { retireStockPages } from '../../shared/content-version';
import type { AppContext } from '../../context';
import { isCurrency, type Currency } from '../../shared/money';
import { ORDER_STATUS, PAY_STATUS } from '../../shared/order-status';
import { countSold } from '../catalog/stock.service';
import { enqueueOrderMail } from './order-mail';
import { lockOrder, moveOrder, type OrderRow } from './order-state';

/**
 * What the payments domain needs from orders: read an order to charge it, and mark it
 * paid. Both are safe to call from a webhook any number of times.
 */

export interface OrderForPayment {
  id: number;
  orderNo: string;
  userId: number;
  userEmail: string;
  status: number;
  payStatus: number;
  /** The amount to charge, in minor units of `currency` (the settlement currency). */
  amountMinor: number;
  currency: Currency;
  /** What the amount is made of: goods + shipping + duties - discount. */
  amountParts: { goodsMinor: number; shippingMinor: number; discountMinor: number; dutiesMinor: number };
  /** What the buyer saw in their display currency, at the rate frozen on the order. */
  displayAmountMinor: number;
  displayCurrency: Currency;
  /** Units of the display currency per settlement unit, in millionths, frozen when the order was placed. */
  displayRateMicros: number;
  /** The delivery country (ISO 3166-1 alpha-2): which payment methods are offered depends on it. */
  country: string;
  locale: string;
  paymentDeadline: Date;
  paymentId: string | null;
  /** True while the order waits for payment (status 1, pay status 1). */
  payable: boolean;
}

export async function getOrderForPayment(
  ctx: AppContext,
  input: { orderId: number; userId?: number },
): Promise<OrderForPayment | null> {
  const [row] = await ctx.db
    .select({ order: orders, email: users.email })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, input.orderId))
    .limit(1);
  if (!row || (input.userId !== undefined && row.order.userId !== input.userId)) return null;
  const order = row.order;
  return {
    id: order.id,
    orderNo: order.orderNo,
    userId: order.userId,
    userEmail: row.email,
    status: order.status,
    payStatus: order.payStatus,
    amountMinor: order.totalMinor,
    amountParts: {
      goodsMinor: order.goodsAmountMinor,
      shippingMinor: order.shippingFeeMinor,
      discountMinor: order.discountMinor,
      dutiesMinor: order.dutiesMinor,
    },
    currency: isCurrency(order.currency) ? order.currency : 'CNY',
    displayAmountMinor: order.displayTotalMinor,
    displayCurrency: isCurrency(order.displayCurrency) ? order.displayCurrency : 'CNY',
    displayRateMicros: order.displayRateMicros,
    country: order.address.country_code,
    locale: order.locale,
    paymentDeadline: order.paymentDeadline,
    paymentId: order.paymentId,
    payable: order.status === ORDER_STATUS.pendingPayment && order.payStatus === PAY_STATUS.pending,
  };
}

export type MarkPaidOutcome =
  /** Moved from 1/1 to 10/2 by this call. */
  | { outcome: 'paid'; order: OrderRow; soldProductIds: number[] }
  /** Already paid earlier (a repeated webhook): nothing changed. */
  | { outcome: 'already_paid'; order: OrderRow }
  /** The order was cancelled (by the buyer or the payment timeout): refund the payment. */
  | { outcome: 'cancelled'; order: OrderRow }
  /** The amount or currency paid is not the order's: nothing changed; refund or investigate. */
  | { outcome: 'amount_mismatch'; order: OrderRow }
  | { outcome: 'not_found' };

/**
 * Records a successful payment: status 1 -> 10, pay status 1 -> 2, under the order's row
 * lock so it cannot interleave with a cancellation or the payment-timeout sweep.
 * Idempotent; refuses (outcome 'cancelled') an order that was cancelled first.
 */
export async function markOrderPaid(
  ctx: AppContext,
  input: { orderId: number; paymentId: string; paidAt?: Date; amountMinor?: number; currency?: string },
): Promise<MarkPaidOutcome> {
  const result: MarkPaidOutcome = await ctx.db.transaction(async (tx) => {
    const order = await lockOrder(tx, input.orderId);
    if (!order) return { outcome: 'not_found' } as const;
    if (order.payStatus === PAY_STATUS.paid) return { outcome: 'already_paid', order } as const;
    if (order.status !== ORDER_STATUS.pendingPayment || order.payStatus !== PAY_STATUS.pending) {
      return { outcome: 'cancelled', order } as const;
    }
    if (
      (input.amountMinor !== undefined && input.amountMinor !== order.totalMinor) ||
      (input.currency !== undefined && input.currency !== order.currency)
    ) {
      return { outcome: 'amount_mismatch', order } as const;
    }
    const paid = await moveOrder(tx, order, {
      action: 'pay',
      to: ORDER_STATUS.pendingShipment,
      actor: 'payment',
      note: 'order.history.paid',
      set: { paymentId: input.paymentId, paidAt: input.paidAt ?? new Date() },
    });
    const sold = await tx
      .select({ productId: orderItems.productId, quantity: orderItems.quantity })
      .from(orderItems)
      .where(eq(orderItems.orderId, order.id));
    await countSold({ ...ctx, db: tx }, sold);
    // "Payment received", in the order's language, once the payment commits.
    await enqueueOrderMail({ ...ctx, db: tx }, { orderId: order.id, kind: 'paid' });
    return { outcome: 'paid', order: paid, soldProductIds: sold.map((line) => line.productId) } as const;
  });
  // The product pages show 'Sold' counts; listings may show theirs a page-cache lifetime late.
  if (result.outcome === 'paid') await retireStockPages(ctx, { productIds: result.soldProductIds, listingsToo: false });
  return result;
}
