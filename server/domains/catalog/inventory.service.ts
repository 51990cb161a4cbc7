import { and, asc, count, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { inventoryAdjustments, productPropertyValues, products, productSkus } from '../../db/schema';
import type { ActingContext, AppContext } from '../../context';
import { onlyRow } from '../../db/rows';
import { recordAudit } from '../audit/audit.service';
import { retireStockPages } from '../../shared/content-version';
import { AppError, NotFoundError } from '../../shared/errors';
import type {
  AdjustmentBody,
  AdjustmentHistory,
  InventoryAdjustment,
  InventoryListQuery,
  InventoryPage,
  InventorySku,
  LowStockList,
} from './inventory.schemas';

/**
 * Stock by hand (catalog:write; docs/console.md, "Inventory"). An adjustment is one relative
 * `UPDATE ... SET stock = stock + delta` guarded in its WHERE clause (and by the table's
 * `CHECK (stock >= 0)`), never a read-modify-write: an order taking the same SKU at the same
 * moment waits for the row lock and sees the adjusted stock, so neither can undo the other
 * or sell what is not there. Each adjustment keeps a history row and an audit event in the
 * same transaction, and retires the product's cached pages.
 */

const skuNotFound = () => new NotFoundError('adminInventory.error.notFound');

/** The adjustment would take the stock below zero: answers what is there. */
class NotEnoughStockError extends AppError {
  constructor(stock: number) {
    super('conflict', 'adminInventory.error.belowZero', { stock });
  }
}

/** The alert level of a SKU that has none of its own (ADR 0165). */
export const SHOP_LOW_STOCK_AT_MOST = 5;

/** A SKU's alert level: its own threshold, else the shop's. */
export const lowStockAlertAt = sql<number>`coalesce(${productSkus.lowStockThreshold}, ${sql.raw(String(SHOP_LOW_STOCK_AT_MOST))})`;

/**
 * The one low-stock rule, read by the console home's count and list and by the inventory's
 * `low` flag and alerts: a SKU still on offer (not retired, product not archived) at or under
 * its alert level. Needs `products` joined.
 */
export const isLowStock = sql<boolean>`(${productSkus.retiredAt} is null and ${products.status} <> 'archived' and ${productSkus.stock} <= ${lowStockAlertAt})`;

/** SKUs the console still manages: a retired one (ADR 0160) is kept only for the orders that name it. */
const live = isNull(productSkus.retiredAt);

const skuColumns = {
  skuId: productSkus.id,
  code: productSkus.code,
  productId: productSkus.productId,
  productName: products.name,
  valueIds: productSkus.valueIds,
  stock: productSkus.stock,
  threshold: productSkus.lowStockThreshold,
  alertAt: lowStockAlertAt,
  low: isLowStock,
};

type SkuRow = {
  skuId: number;
  code: string;
  productId: number;
  productName: InventorySku['product_name'];
  valueIds: number[];
  stock: number;
  threshold: number | null;
  alertAt: number;
  low: boolean;
};

/** SKU rows as the console shows them, with their option values' names in both languages. */
async function viewsOf(ctx: AppContext, rows: readonly SkuRow[]): Promise<InventorySku[]> {
  const valueIds = [...new Set(rows.flatMap((row) => row.valueIds))];
  const values = valueIds.length
    ? await ctx.db
        .select({ id: productPropertyValues.id, value: productPropertyValues.value })
        .from(productPropertyValues)
        .where(inArray(productPropertyValues.id, valueIds))
    : [];
  const named = new Map(values.map((value) => [value.id, value.value]));
  return rows.map((row) => {
    const names = row.valueIds.map((id) => named.get(id)).filter((value) => value !== undefined);
    return {
      sku_id: row.skuId,
      code: row.code,
      product_id: row.productId,
      product_name: row.productName,
      options: {
        en: names.map((value) => value.en).join(' / '),
        'zh-cn': names.map((value) => value['zh-cn']).join(' / '),
      },
      stock: row.stock,
      low_stock_threshold: row.threshold,
      alert_at: Number(row.alertAt),
      low: Boolean(row.low),
    };
  });
}

async function skuView(ctx: AppContext, skuId: number): Promise<InventorySku> {
  const rows = await ctx.db
    .select(skuColumns)
    .from(productSkus)
    .innerJoin(products, eq(products.id, productSkus.productId))
    .where(and(eq(productSkus.id, skuId), live));
  const [view] = await viewsOf(ctx, rows);
  if (!view) throw skuNotFound();
  return view;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

export async function listInventory(ctx: AppContext, query: InventoryListQuery): Promise<InventoryPage> {
  const filters: SQL[] = [live];
  if (query.q) {
    const pattern = `%${escapeLike(query.q.toLowerCase())}%`;
    filters.push(sql`(lower(${productSkus.code}) like ${pattern} or ${products.searchText} like ${pattern})`);
  }
  if (query.low) filters.push(isLowStock);
  const where = and(...filters);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select(skuColumns)
      .from(productSkus)
      .innerJoin(products, eq(products.id, productSkus.productId))
      .where(where)
      .orderBy(asc(productSkus.productId), asc(productSkus.id))
      .limit(query.page_size)
      .offset((query.page - 1) * query.page_size),
    ctx.db
      .select({ total: count() })
      .from(productSkus)
      .innerJoin(products, eq(products.id, productSkus.productId))
      .where(where),
  ]);
  return {
    records: await viewsOf(ctx, rows),
    total: total?.total ?? 0,
    page: query.page,
    page_size: query.page_size,
  };
}

/** Home's attention list: SKUs at or under their alert level, emptiest first. */
export async function lowStockSkus(ctx: AppContext, limit: number): Promise<LowStockList> {
  const rows = await ctx.db
    .select(skuColumns)
    .from(productSkus)
    .innerJoin(products, eq(products.id, productSkus.productId))
    .where(isLowStock)
    .orderBy(asc(productSkus.stock), asc(productSkus.code))
    .limit(limit + 1);
  return { records: await viewsOf(ctx, rows.slice(0, limit)), more: rows.length > limit };
}

function adjustmentView(row: typeof inventoryAdjustments.$inferSelect): InventoryAdjustment {
  return {
    id: row.id,
    delta: row.delta,
    stock_after: row.stockAfter,
    reason: row.reason,
    note: row.note,
    by: row.actorLabel,
    at: row.at.toISOString(),
  };
}

export async function adjustmentHistory(ctx: AppContext, skuId: number, limit = 100): Promise<AdjustmentHistory> {
  const sku = await skuView(ctx, skuId);
  const rows = await ctx.db
    .select()
    .from(inventoryAdjustments)
    .where(eq(inventoryAdjustments.skuId, skuId))
    .orderBy(desc(inventoryAdjustments.at), desc(inventoryAdjustments.id))
    .limit(limit);
  return { sku, adjustments: rows.map(adjustmentView) };
}

/** Adds `delta` (negative: takes away) to a SKU's stock, never below zero, with its reason. */
export async function adjustStock(ctx: ActingContext, skuId: number, input: AdjustmentBody) {
  const { productId, adjustment, stock } = await ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    const [adjusted] = await tx
      .update(productSkus)
      .set({ stock: sql`${productSkus.stock} + ${input.delta}`, updatedAt: sql`now()` })
      .where(and(eq(productSkus.id, skuId), live, sql`${productSkus.stock} + ${input.delta} >= 0`))
      .returning({ stock: productSkus.stock, productId: productSkus.productId });
    if (!adjusted) {
      const [left] = await tx
        .select({ stock: productSkus.stock })
        .from(productSkus)
        .where(and(eq(productSkus.id, skuId), live));
      if (!left) throw skuNotFound();
      throw new NotEnoughStockError(left.stock);
    }
    const row = onlyRow(
      await tx
        .insert(inventoryAdjustments)
        .values({
          skuId,
          delta: input.delta,
          stockAfter: adjusted.stock,
          reason: input.reason,
          note: input.note,
          actorType: ctx.actor.type,
          actorId: ctx.actor.id,
          actorLabel: ctx.actor.label,
        })
        .returning(),
    );
    await recordAudit(t, {
      action: 'inventory.adjusted',
      entityType: 'sku',
      entityId: skuId,
      before: { stock: adjusted.stock - input.delta },
      after: { stock: adjusted.stock, delta: input.delta, reason: input.reason, note: input.note },
    });
    return { productId: adjusted.productId, adjustment: row, stock: adjusted.stock };
  });
  const before = stock - input.delta;
  await retireStockPages(ctx, {
    productIds: [productId],
    // Listings show a sold-out badge: they change only when the SKU runs out or comes back.
    listingsToo: (before === 0) !== (stock === 0),
  });
  return { sku: await skuView(ctx, skuId), adjustment: adjustmentView(adjustment) };
}

export async function setLowStockThreshold(
  ctx: ActingContext,
  skuId: number,
  threshold: number | null,
): Promise<InventorySku> {
  await ctx.db.transaction(async (tx) => {
    const [sku] = await tx
      .select({ threshold: productSkus.lowStockThreshold })
      .from(productSkus)
      .where(and(eq(productSkus.id, skuId), live))
      .for('update');
    if (!sku) throw skuNotFound();
    await tx.update(productSkus).set({ lowStockThreshold: threshold }).where(eq(productSkus.id, skuId));
    await recordAudit(
      { ...ctx, db: tx },
      {
        action: 'inventory.threshold_set',
        entityType: 'sku',
        entityId: skuId,
        before: { low_stock_threshold: sku.threshold },
        after: { low_stock_threshold: threshold },
      },
    );
  });
  return skuView(ctx, skuId);
}
