import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { AuditActorType } from './audit';
import { productSkus } from './catalog';

/** Why an operator changed a SKU's stock by hand (a closed list; `other` needs a note). */
export const inventoryReasons = ['received', 'counted', 'damaged', 'returned', 'other'] as const;

/**
 * Every hand adjustment of a SKU's stock: the change, the stock it left, why and who. Orders
 * move stock too but are not listed here (their lines are their own history).
 */
export const inventoryAdjustments = pgTable(
  'inventory_adjustments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    skuId: integer('sku_id')
      .notNull()
      .references(() => productSkus.id, { onDelete: 'cascade' }),
    delta: integer('delta').notNull(),
    stockAfter: integer('stock_after').notNull(),
    reason: text('reason', { enum: inventoryReasons }).notNull(),
    note: text('note').notNull().default(''),
    actorType: text('actor_type').$type<AuditActorType>().notNull(),
    actorId: integer('actor_id'),
    actorLabel: text('actor_label').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('inventory_adjustments_sku_at_idx').on(table.skuId, table.at),
    check('inventory_adjustments_delta_non_zero', sql`${table.delta} <> 0`),
    check('inventory_adjustments_stock_after_non_negative', sql`${table.stockAfter} >= 0`),
  ],
);
