import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { preparedPerDatabase } from '../../db/prepared';
import { removeCartLinesWrite } from '../cart/cart.service';
import { takeStockWrites } from '../catalog/stock.service';
import { claimCouponUseWrite } from '../coupons/coupons.service';
import { dutySnapshotWrite } from '../duties/duties.service';
import { orderMailWrite } from '../orders/order-mail';
import { nextOrderNo } from '../orders/order-numbers';
import { placedOrderWrites } from '../orders/order-state';

/** What one placement sends: JSON rows as text (the drivers pass text through unchanged), ids and keys. */
export type PlacementParameters = {
  /** `placedOrderRows`: the order, its lines and its first history entry. */
  order: string;
  lines: string;
  history: string;
  /** `orderNoDay`: the day the order number starts with. */
  day: string;
  /** `[{"sku_id", "quantity"}]`: the stock to take, and the cart lines to clear. */
  stock: string;
  /** `dutySnapshotRows`. */
  duties: string;
  couponId: number | null;
  /** The buyer's cart when the order came from it, otherwise null. */
  cartKey: string | null;
};

/**
 * An order's whole placement as one prepared statement of data-modifying parts (ADR 0179),
 * each written by the domain whose table it is: the order, its lines, its history and duty
 * lines, the coupon's use, the cart's lines, the "order placed" email owed through the outbox,
 * and the stock, then the coupon. One statement is one round trip and its own transaction: no BEGIN or
 * COMMIT travels, and a hot SKU's row stays locked only for the stock update and the commit,
 * never while the rest is written or the shop waits for an answer. A refusal fails the whole statement through a
 * CHECK constraint (stock below zero, a coupon past its limit), so nothing of it remains.
 *
 * Answers the rows as written, as JSON (`placedOrderFromJson`, `rowsFromJson`), and whether a
 * SKU ran out.
 */
export const placeOrderStatement = preparedPerDatabase((db: Database) => {
  const parameter = (name: keyof PlacementParameters) => sql`${sql.placeholder(name)}`;
  const cte = (name: string) => db.$with(name, { id: sql<number>`id` });
  // The later parts read the new order's id from the first one, by its name.
  const placedOrderName = 'placed_order';
  const orderId = sql`(select id from ${sql.identifier(placedOrderName)})`;
  const writes = placedOrderWrites({
    order: parameter('order'),
    lines: parameter('lines'),
    history: parameter('history'),
    orderNo: nextOrderNo(parameter('day')),
    orderId,
  });
  const placedOrder = cte(placedOrderName).as(writes.order);
  const placedLines = cte('placed_lines').as(writes.lines);
  const placedHistory = cte('placed_history').as(writes.history);
  const placedDuties = cte('placed_duties').as(
    dutySnapshotWrite({ rows: parameter('duties'), orderId, orderLines: sql`${placedLines}` }),
  );
  const clearedCart = cte('cleared_cart').as(removeCartLinesWrite(parameter('cartKey'), parameter('stock')));
  const owedMail = cte('owed_mail').as(orderMailWrite(sql`${placedOrder}`, 'placed'));
  const stock = takeStockWrites(parameter('stock'), [
    sql`${placedLines}`,
    sql`${placedHistory}`,
    sql`${placedDuties}`,
    sql`${clearedCart}`,
    sql`${owedMail}`,
  ]);
  const lockedSkus = cte('locked_skus').as(stock.lock);
  const takenStock = cte('taken_stock').as(stock.take(sql`${lockedSkus}`));
  // After the stock, as cancelling releases them (`releaseOrderHolds`): the same lock order, no deadlock.
  const claimedCoupon = cte('claimed_coupon').as(claimCouponUseWrite(parameter('couponId'), [sql`${takenStock}`]));

  return db
    .with(
      placedOrder,
      placedLines,
      placedHistory,
      placedDuties,
      clearedCart,
      owedMail,
      lockedSkus,
      takenStock,
      claimedCoupon,
    )
    .select({
      order: sql<unknown>`row_to_json(${placedOrder})`,
      lines: sql<unknown>`(select json_agg(line order by line.id) from ${placedLines} as line)`,
      history: sql<unknown>`(select json_agg(entry) from ${placedHistory} as entry)`,
      duties: sql<unknown>`(select json_agg(duty order by duty.order_item_id) from ${placedDuties} as duty)`,
      soldOut: sql<boolean>`exists (select 1 from ${takenStock} as taken where taken.stock = 0)`,
    })
    .from(placedOrder)
    .prepare('place_order');
});
