import { bigint, check, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { Currency } from '../../shared/money';

/**
 * The shop's exchange rates, one row per display currency: units of that currency per one
 * unit of the settlement currency, in millionths (RATE_SCALE), with where the figure came
 * from and when (ADR 0144). The settlement currency itself has no row (its rate is 1).
 * A rate older than EXCHANGE_RATE_MAX_AGE_HOURS is stale.
 */
export const exchangeRates = pgTable(
  'exchange_rates',
  {
    currency: text('currency').$type<Currency>().primaryKey(),
    rateMicros: bigint('rate_micros', { mode: 'number' }).notNull(),
    /** Where the figure came from, in the operator's words ("ECB reference rate 2026-11-27"), or 'seed'. */
    source: text('source').notNull(),
    setAt: timestamp('set_at', { withTimezone: true }).notNull().defaultNow(),
    /** staff_members.id (as text) of who set it, or 'seed'. */
    setBy: text('set_by').notNull(),
  },
  (table) => [check('exchange_rates_rate_positive', sql`${table.rateMicros} > 0`)],
);
