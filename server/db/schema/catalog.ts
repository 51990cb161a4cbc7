import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  varchar,
} from 'drizzle-orm/pg-core';
import { localizedText, timestamps } from './columns';

/**
 * A product group is either a category (the navigation tree, `parent_id` links levels) or a
 * collection (a curated home-page section such as "New arrivals"). A product can sit in
 * one category and any number of collections through `product_group_members`.
 */
export const productGroups = pgTable(
  'product_groups',
  {
    id: serial('id').primaryKey(),
    slug: text('slug').notNull().unique(),
    kind: text('kind', { enum: ['category', 'collection'] }).notNull(),
    parentId: integer('parent_id'),
    name: localizedText('name').notNull(),
    description: localizedText('description').notNull(),
    image: text('image'),
    sort: integer('sort').notNull().default(0),
    visible: boolean('visible').notNull().default(true),
    ...timestamps,
  },
  (table) => [index('product_groups_kind_sort_idx').on(table.kind, table.sort)],
);

export const products = pgTable(
  'products',
  {
    id: serial('id').primaryKey(),
    slug: text('slug').notNull().unique(),
    name: localizedText('name').notNull(),
    description: localizedText('description').notNull(),
    /** SPEC section 3 service notes: 1 fast after-sale, 2 seven-day return, 3 partial free shipping, 4 free shipping. */
    serviceNotes: smallint('service_notes')
      .array()
      .notNull()
      .default(sql`'{}'::smallint[]`),
    soldCount: integer('sold_count').notNull().default(0),
    /** Shipping weight in grams, used by the shipping-fee rules. */
    weightGrams: integer('weight_grams').notNull().default(500),
    /**
     * The editor's status (ADR 0160): a draft was never shown, published is on sale, archived is
     * off the shop for good (orders that hold it keep working). `listed` is true exactly when
     * published: the storefront, the cart and checkout read only that flag.
     */
    status: text('status', { enum: ['draft', 'published', 'archived'] })
      .notNull()
      .default('published'),
    listed: boolean('listed').notNull().default(true),
    /** Search-engine title and description; empty for a language falls back to the name and description. */
    seoTitle: localizedText('seo_title'),
    seoDescription: localizedText('seo_description'),
    /** Sold as final: no return or exchange without a fault (a refund for damage or a wrong item is still possible). */
    finalSale: boolean('final_sale').notNull().default(false),
    /** Lower-cased names and descriptions in both languages, for keyword search (trigram-indexed). */
    searchText: text('search_text').generatedAlwaysAs(
      sql`lower(coalesce(name->>'en', '') || ' ' || coalesce(name->>'zh-cn', '') || ' ' || coalesce(description->>'en', '') || ' ' || coalesce(description->>'zh-cn', ''))`,
    ),
    ...timestamps,
  },
  (table) => [
    index('products_listed_created_idx').on(table.listed, table.createdAt),
    index('products_search_trgm_idx').using('gin', sql`${table.searchText} gin_trgm_ops`),
    check('products_listed_when_published', sql`${table.listed} = (${table.status} = 'published')`),
  ],
);

export const productGroupMembers = pgTable(
  'product_group_members',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => productGroups.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    sort: integer('sort').notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.groupId, table.productId] }),
    index('product_group_members_product_idx').on(table.productId),
  ],
);

export const productImages = pgTable(
  'product_images',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    alt: localizedText('alt'),
    sort: integer('sort').notNull().default(0),
  },
  (table) => [index('product_images_product_idx').on(table.productId, table.sort)],
);

/** An option axis of a product such as colour or size. */
export const productProperties = pgTable(
  'product_properties',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    name: localizedText('name').notNull(),
    sort: integer('sort').notNull().default(0),
  },
  (table) => [index('product_properties_product_idx').on(table.productId)],
);

export const productPropertyValues = pgTable(
  'product_property_values',
  {
    id: serial('id').primaryKey(),
    propertyId: integer('property_id')
      .notNull()
      .references(() => productProperties.id, { onDelete: 'cascade' }),
    value: localizedText('value').notNull(),
    /** A CSS colour for colour swatches on cards; null for non-colour axes. */
    swatch: varchar('swatch', { length: 32 }),
    image: text('image'),
    sort: integer('sort').notNull().default(0),
  },
  (table) => [index('product_property_values_property_idx').on(table.propertyId)],
);

/**
 * One sellable combination: one value of each property. Prices are integer minor units
 * of `currency`; stock can never go below zero (check constraint backs the order guard).
 */
export const productSkus = pgTable(
  'product_skus',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    code: text('code').notNull().unique(),
    valueIds: integer('value_ids').array().notNull(),
    priceMinor: integer('price_minor').notNull(),
    currency: varchar('currency', { length: 3 }).notNull(),
    stock: integer('stock').notNull().default(0),
    image: text('image'),
    /** Harmonized System code, 6 digits plus optional national digits, no dots; null until the operator classifies the SKU (duties then fall back to DDU with no estimate). */
    hsCode: varchar('hs_code', { length: 12 }),
    /** ISO 3166-1 alpha-2 country where the goods were made (customs origin). */
    originCountry: varchar('origin_country', { length: 2 }),
    /** What the goods are, in the plain words a customs officer reads on the commercial invoice. */
    customsDescription: text('customs_description'),
    /** At or under this stock the SKU is on the console home's attention list; null: not watched. */
    lowStockThreshold: integer('low_stock_threshold'),
    /**
     * Set when the product editor removed a SKU that orders, carts, stock history or cases
     * still name (ADR 0160): kept for them, never sold or shown again, its code freed.
     */
    retiredAt: timestamp('retired_at', { withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    index('product_skus_product_idx').on(table.productId),
    check('product_skus_stock_non_negative', sql`${table.stock} >= 0`),
    check('product_skus_price_non_negative', sql`${table.priceMinor} >= 0`),
    check('product_skus_low_stock_threshold_non_negative', sql`${table.lowStockThreshold} >= 0`),
  ],
);
