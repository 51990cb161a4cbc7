import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { localizedText, timestamps } from './columns';
import { orderItems, orders } from './orders';

/**
 * What a destination's law says about an imported parcel during one period
 * (`valid_from` inclusive, `valid_to` exclusive, null: until further notice). Amounts are
 * integer minor units of the destination's `currency`. Seeded figures carry their `source`
 * and are a starting point the operator must check (docs/payments.md).
 */
export const importRegimes = pgTable(
  'import_regimes',
  {
    id: serial('id').primaryKey(),
    countryCode: varchar('country_code', { length: 2 }).notNull(),
    /** Whose tariff applies: a customs union's code ('EU') or the country's own. */
    dutyZone: varchar('duty_zone', { length: 8 }).notNull(),
    validFrom: timestamp('valid_from', { withTimezone: true }).notNull(),
    validTo: timestamp('valid_to', { withTimezone: true }),
    currency: varchar('currency', { length: 3 }).notNull(),
    /**
     * Units of `currency` per settlement unit, in millionths: used only when the shop's own
     * exchange rates (site settings) have no rate for `currency`.
     */
    fallbackRateMicros: bigint('fallback_rate_micros', { mode: 'number' }),
    /** Goods value (without shipping) up to which the low-value rules apply; 0: there is no such relief. */
    lowValueThresholdMinor: integer('low_value_threshold_minor').notNull(),
    /** Under the threshold: the seller collects VAT/GST with the sale ('at_sale'), nothing is due ('exempt'), or it is due at the border. */
    lowValueTax: text('low_value_tax', { enum: ['at_sale', 'exempt', 'at_border'] }).notNull(),
    /** Under the threshold: no duty, a flat amount per distinct tariff subheading, or the ordinary duty by HS code. */
    lowValueDuty: text('low_value_duty', { enum: ['exempt', 'flat_per_subheading', 'by_hs'] }).notNull(),
    flatDutyPerSubheadingMinor: integer('flat_duty_per_subheading_minor').notNull().default(0),
    /** The import tax's name as the buyer knows it, e.g. VAT, GST, 消费税. */
    taxLabel: localizedText('tax_label').notNull(),
    taxRateBps: integer('tax_rate_bps').notNull(),
    /** The carrier's or customs' clearance fee per parcel over the threshold. */
    handlingFeeMinor: integer('handling_fee_minor').notNull().default(0),
    /** Share of the price that is the customs value, in basis points (Japan taxes personal imports on 60%). */
    valuationBps: integer('valuation_bps').notNull().default(10_000),
    /** Whether shipping to the border is part of the value duties and taxes are charged on (CIF) or not (FOB). */
    shippingIsDutiable: boolean('shipping_is_dutiable').notNull(),
    source: text('source').notNull(),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('import_regimes_country_from_idx').on(table.countryCode, table.validFrom),
    check(
      'import_regimes_figures_non_negative',
      sql`${table.lowValueThresholdMinor} >= 0 and ${table.taxRateBps} >= 0 and ${table.flatDutyPerSubheadingMinor} >= 0 and ${table.handlingFeeMinor} >= 0 and ${table.valuationBps} > 0`,
    ),
  ],
);

/**
 * Ad valorem duty by HS-code prefix. Rows of one `measure` (e.g. 'mfn', 'section_301') do
 * not add up: the longest matching prefix wins; different measures add up. An `origin_country`
 * limits a row to goods made there (null: any origin).
 */
export const dutyRates = pgTable(
  'duty_rates',
  {
    id: serial('id').primaryKey(),
    dutyZone: varchar('duty_zone', { length: 8 }).notNull(),
    measure: text('measure').notNull(),
    hsPrefix: varchar('hs_prefix', { length: 12 }).notNull(),
    originCountry: varchar('origin_country', { length: 2 }),
    rateBps: integer('rate_bps').notNull(),
    validFrom: timestamp('valid_from', { withTimezone: true }).notNull(),
    validTo: timestamp('valid_to', { withTimezone: true }),
    source: text('source').notNull(),
    ...timestamps,
  },
  (table) => [
    index('duty_rates_zone_idx').on(table.dutyZone, table.hsPrefix),
    uniqueIndex('duty_rates_identity_idx').on(
      table.dutyZone,
      table.measure,
      table.hsPrefix,
      sql`coalesce(${table.originCountry}, '')`,
      table.validFrom,
    ),
    check('duty_rates_rate_non_negative', sql`${table.rateBps} >= 0`),
  ],
);

/**
 * The shop's choice per destination: collect duties and import taxes at checkout (DDP) or
 * show an estimate the buyer pays the carrier on delivery (DDU). Country `*`: every other.
 */
export const dutyTerms = pgTable('duty_terms', {
  countryCode: varchar('country_code', { length: 2 }).primaryKey(),
  incoterm: text('incoterm', { enum: ['DDP', 'DDU'] }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The duties and import taxes of one order line as quoted when the order was placed; never
 * recomputed. Destination amounts are minor units of `currency`; `charged_minor` (added to
 * the order total) and `estimate_minor` (payable to the carrier) are settlement minor units.
 */
export const orderDutyLines = pgTable(
  'order_duty_lines',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    orderItemId: integer('order_item_id')
      .notNull()
      .references(() => orderItems.id, { onDelete: 'cascade' }),
    incoterm: text('incoterm', { enum: ['DDP', 'DDU'] }).notNull(),
    /** The import_regimes row and its validity start, e.g. 'DE#7@2026-07-01'. */
    rulesVersion: text('rules_version').notNull(),
    hsCode: varchar('hs_code', { length: 12 }),
    originCountry: varchar('origin_country', { length: 2 }),
    currency: varchar('currency', { length: 3 }).notNull(),
    /** Units of `currency` per settlement unit, in millionths, as used for this quote. */
    rateMicros: bigint('rate_micros', { mode: 'number' }).notNull(),
    customsValueMinor: integer('customs_value_minor').notNull(),
    dutyRateBps: integer('duty_rate_bps').notNull(),
    dutyMinor: integer('duty_minor').notNull(),
    taxRateBps: integer('tax_rate_bps').notNull(),
    taxMinor: integer('tax_minor').notNull(),
    feeMinor: integer('fee_minor').notNull(),
    chargedMinor: integer('charged_minor').notNull(),
    estimateMinor: integer('estimate_minor').notNull(),
    /** No HS code on some line: no estimate is shown and nothing is charged (DDU). */
    estimateHidden: boolean('estimate_hidden').notNull().default(false),
  },
  (table) => [
    index('order_duty_lines_order_idx').on(table.orderId),
    uniqueIndex('order_duty_lines_item_idx').on(table.orderItemId),
    check('order_duty_lines_amounts_non_negative', sql`${table.chargedMinor} >= 0 and ${table.estimateMinor} >= 0`),
  ],
);
