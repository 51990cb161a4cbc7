import { sql } from 'drizzle-orm';
import { orderItems, orders } from '../../db/schema';

/**
 * The units an order holds (the sum of its lines' quantities), as a column of a select on
 * `orders`. The inner query is its own `sql` chunk: in a select on `orders` alone Drizzle writes
 * the top-level chunks' columns without their table, and an unqualified `"id"` inside the
 * subquery is `order_items.id`, which matched lines by their own id (issue 18: 13 units shown
 * for an order of 2).
 */
export const unitsOrdered =
  sql<number>`(${sql`select coalesce(sum(${orderItems.quantity}), 0) from ${orderItems} where ${orderItems.orderId} = ${orders.id}`})`.mapWith(
    Number,
  );
