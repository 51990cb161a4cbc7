import { sql, type SQL } from 'drizzle-orm';

/**
 * The order number an insert takes: the UTC day and the next value of the `order_numbers`
 * sequence, at least six digits, e.g. "261125" + "000042" = "261125000042". A sequence never
 * hands out a value twice, across transactions and server copies, so two orders cannot get
 * one number however many are placed in a minute; twelve digits read out well on the phone.
 * Written as SQL so the number costs no extra round trip in the statement placing the order.
 * `day` is `orderNoDay(now)`, or a placeholder for it in a prepared statement.
 */
export function nextOrderNo(day: string | SQL): SQL<string> {
  return sql<string>`(select ${day}::text || lpad(n::text, greatest(6, length(n::text)), '0') from nextval('order_numbers') as n)`;
}

/** The UTC day an order number starts with: "261125" on 25 November 2026. */
export function orderNoDay(now: Date): string {
  return now.toISOString().slice(2, 10).replaceAll('-', '');
}
