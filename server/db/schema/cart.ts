import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { productSkus } from './catalog';

/**
 * Cart lines. `cart_key` is `u:<user id>` for a signed-in buyer or `g:<random id>` for a
 * visitor's cart (the id lives in an httpOnly cookie); a guest cart is merged into the
 * account at login.
 */
export const cartItems = pgTable(
  'cart_items',
  {
    cartKey: text('cart_key').notNull(),
    skuId: integer('sku_id')
      .notNull()
      .references(() => productSkus.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.cartKey, table.skuId] }),
    index('cart_items_updated_idx').on(table.updatedAt),
    check('cart_items_quantity_positive', sql`${table.quantity} > 0`),
  ],
);
