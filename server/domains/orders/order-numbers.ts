import { sql, type SQL } from 'drizzle-orm';

/**
 * The order number an insert takes: the UTC day and the next value of the `order_numbers`
 * sequence, at least six digits, e.g. "261125" + "000042" = "261125000042". A sequence never
 * hands out a value twice, across transactions and server copies, so two orders cannot get
 * one number however many are placed in a minute; twelve digits read out well on the phone.
 * Written as SQL so the number costs no extra round trip inside the order's transaction.
 */
export function nextOrderNo(now: Date): SQL<string> {
  const day = now.toISOString().slice(2, 10).replaceAll('-', '');
  return sql<string>`(select ${day} || lpad(n::text, greatest(6, length(n::text)), '0') from nextval('order_numbers') as n)`;
}
