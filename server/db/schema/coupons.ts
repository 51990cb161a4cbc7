import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { timestamps } from './columns';

/**
 * Discount codes. `fixed`: `value` minor units of the settlement currency off the goods;
 * `percent`: `value` percent off. Usage is counted atomically when an order is placed and
 * given back when an unpaid order is cancelled.
 */
export const coupons = pgTable(
  'coupons',
  {
    id: serial('id').primaryKey(),
    /** Stored upper-case; matched case-insensitively. */
    code: text('code').notNull().unique(),
    kind: text('kind', { enum: ['fixed', 'percent'] }).notNull(),
    value: integer('value').notNull(),
    minSpendMinor: integer('min_spend_minor').notNull().default(0),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    usageLimit: integer('usage_limit'),
    usedCount: integer('used_count').notNull().default(0),
    active: boolean('active').notNull().default(true),
    ...timestamps,
  },
  (table) => [
    check('coupons_value_positive', sql`${table.value} > 0`),
    check('coupons_percent_range', sql`${table.kind} <> 'percent' or ${table.value} <= 100`),
    check('coupons_usage_within_limit', sql`${table.usageLimit} is null or ${table.usedCount} <= ${table.usageLimit}`),
    check('coupons_used_non_negative', sql`${table.usedCount} >= 0`),
  ],
);
