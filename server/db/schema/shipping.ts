import { integer, pgTable, serial, timestamp, varchar } from 'drizzle-orm/pg-core';

/**
 * Shipping fee per destination country: the first `first_weight_grams` cost
 * `first_fee_minor`, each further started `additional_weight_grams` cost
 * `additional_fee_minor`; orders whose goods reach `free_over_minor` ship free. Amounts in
 * the settlement currency. Country `*` is the rule for every country without its own.
 */
export const shippingRules = pgTable('shipping_rules', {
  id: serial('id').primaryKey(),
  countryCode: varchar('country_code', { length: 2 }).notNull().unique(),
  firstWeightGrams: integer('first_weight_grams').notNull(),
  firstFeeMinor: integer('first_fee_minor').notNull(),
  additionalWeightGrams: integer('additional_weight_grams').notNull(),
  additionalFeeMinor: integer('additional_fee_minor').notNull(),
  freeOverMinor: integer('free_over_minor'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
