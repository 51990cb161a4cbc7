import { z } from 'zod';
import { inventoryReasons } from '../../db/schema/inventory';
import { rowIdFromText } from '../../shared/ids.schemas';
import { multiLineText, singleLineText } from '../../shared/text';

/**
 * Stock by hand in the console (docs/console.md, "Inventory"): adjustments with a reason,
 * their history, and a low-stock threshold per SKU that feeds home's attention list.
 */

export { inventoryReasons };
export type InventoryReason = (typeof inventoryReasons)[number];

/** The largest single adjustment: a typo guard more than a business rule. */
export const MAX_ADJUSTMENT = 1_000_000;

export const skuIdParams = z.object({ id: rowIdFromText });

export const inventoryListQuery = z.object({
  q: singleLineText(100).optional().describe('part of a SKU code or of a product name in either language'),
  low: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional()
    .describe('only SKUs at or under their threshold'),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(25),
});
export type InventoryListQuery = z.output<typeof inventoryListQuery>;

/** A change of stock: `delta` units in (positive) or out (negative), why, and a note (required for `other`). */
export const adjustmentBody = z
  .object({
    delta: z
      .number()
      .int()
      .min(-MAX_ADJUSTMENT)
      .max(MAX_ADJUSTMENT)
      .refine((delta) => delta !== 0, 'adminInventory.error.zero'),
    reason: z.enum(inventoryReasons),
    note: multiLineText(500).default(''),
  })
  .refine((body) => body.reason !== 'other' || body.note.length > 0, {
    message: 'adminInventory.error.noteRequired',
    path: ['note'],
  });
export type AdjustmentBody = z.output<typeof adjustmentBody>;

/** At or under this stock the SKU is on home's attention list; null stops watching it. */
export const thresholdBody = z.object({ low_stock_threshold: z.number().int().min(0).max(MAX_ADJUSTMENT).nullable() });

const localizedText = z.object({ en: z.string(), 'zh-cn': z.string() });

export const inventorySku = z.object({
  sku_id: z.number().int(),
  code: z.string(),
  product_id: z.number().int(),
  product_name: localizedText,
  options: localizedText.describe('the SKU option values, e.g. "Red / M"'),
  stock: z.number().int(),
  low_stock_threshold: z.number().int().nullable().describe("the SKU's own alert level; null: the shop's"),
  alert_at: z.number().int().describe("the alert level in force: the SKU's own, else the shop's"),
  low: z.boolean().describe('stock is at or under the alert level'),
});
export type InventorySku = z.infer<typeof inventorySku>;

export const inventoryPage = z.object({
  records: z.array(inventorySku),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type InventoryPage = z.infer<typeof inventoryPage>;

export const inventoryAdjustment = z.object({
  id: z.number().int(),
  delta: z.number().int(),
  stock_after: z.number().int(),
  reason: z.enum(inventoryReasons),
  note: z.string(),
  by: z.string().describe("the staff member's email, or cli"),
  at: z.string(),
});
export type InventoryAdjustment = z.infer<typeof inventoryAdjustment>;

export const adjustmentResult = z.object({ sku: inventorySku, adjustment: inventoryAdjustment });

export const adjustmentHistory = z.object({ sku: inventorySku, adjustments: z.array(inventoryAdjustment) });
export type AdjustmentHistory = z.infer<typeof adjustmentHistory>;

/** Home's attention list: SKUs at or under their threshold, emptiest first. */
export const lowStockList = z.object({ records: z.array(inventorySku), more: z.boolean() });
export type LowStockList = z.infer<typeof lowStockList>;
