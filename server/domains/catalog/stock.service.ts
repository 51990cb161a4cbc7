import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { products, productSkus } from '../../db/schema';
import type { AppContext, TransactionContext } from '../../context';
import { runsAfter } from '../../db/statement-parts';
import { checkViolation } from '../../shared/errors';

export interface StockLine {
  skuId: number;
  quantity: number;
}

/**
 * Takes the quantities off the shelf in the caller's transaction, each with a guard that
 * cannot go below zero under concurrency (backed by `CHECK (stock >= 0)`). Answers the first
 * SKU that had too little, with what it has left (the caller then rolls back), or whether a
 * SKU ran out, which changes the listings' sold-out badges. SKUs are taken in ascending id
 * order, so two orders for the same SKUs can never deadlock.
 */
export async function takeStock(
  ctx: TransactionContext,
  lines: readonly StockLine[],
): Promise<{ short: { skuId: number; stock: number } } | { soldOut: boolean }> {
  let soldOut = false;
  for (const line of [...lines].sort((a, b) => a.skuId - b.skuId)) {
    const [taken] = await ctx.db
      .update(productSkus)
      .set({ stock: sql`${productSkus.stock} - ${line.quantity}`, updatedAt: sql`now()` })
      .where(and(eq(productSkus.id, line.skuId), sql`${productSkus.stock} >= ${line.quantity}`))
      .returning({ stock: productSkus.stock });
    if (!taken) {
      const [left] = await ctx.db
        .select({ stock: productSkus.stock })
        .from(productSkus)
        .where(eq(productSkus.id, line.skuId));
      return { short: { skuId: line.skuId, stock: left?.stock ?? 0 } };
    }
    if (taken.stock === 0) soldOut = true;
  }
  return { soldOut };
}

/**
 * Taking stock as parts of one statement (checkout's place-order), from `lines`, a JSON array
 * of `{"sku_id", "quantity"}`. `lock` locks the SKUs' rows in ascending id order, so two orders
 * for the same SKUs can never deadlock; `take`, given the name `lock` runs under, takes the
 * quantities and returns each SKU's id and what it has left. A quantity larger than the stock
 * fails the whole statement on `CHECK (stock >= 0)`: see `isStockShort`.
 *
 * `after` names the statement's other parts, which `lock` reads first (`runsAfter`): the rows
 * of a hot SKU are locked only for the stock update and the commit, never while the rest is
 * written. A part that locks rows cancelling also locks (a coupon's) must come after the
 * stock instead: cancelling returns stock before the coupon's use (`releaseOrderHolds`), and
 * the opposite order could deadlock with it.
 */
export function takeStockWrites(lines: SQL, after: readonly SQL[] = []) {
  return {
    lock: sql`select ${productSkus.id}, wanted.quantity from ${productSkus}
      join jsonb_to_recordset(${lines}::jsonb) as wanted(sku_id integer, quantity integer) on wanted.sku_id = ${productSkus.id}
      where ${runsAfter(after)}
      order by ${productSkus.id} for update of ${productSkus}`,
    take: (locked: SQL) => sql`update ${productSkus}
      set stock = ${productSkus.stock} - locked.quantity, updated_at = now()
      from ${locked} as locked where ${productSkus.id} = locked.id
      returning ${productSkus.id}, ${productSkus.stock}`,
  };
}

/** The statement failed because some SKU had less than was asked of it (see `takeStockWrites`). */
export function isStockShort(error: unknown): boolean {
  return checkViolation(error) === 'product_skus_stock_non_negative';
}

/** The first of these lines, in ascending SKU order, that the shelf cannot fill now, with what its SKU has left. */
export async function shortLine(
  ctx: AppContext,
  lines: readonly StockLine[],
): Promise<{ skuId: number; stock: number } | undefined> {
  const rows = await ctx.db
    .select({ id: productSkus.id, stock: productSkus.stock })
    .from(productSkus)
    .where(
      inArray(
        productSkus.id,
        lines.map((line) => line.skuId),
      ),
    );
  const stockOf = new Map(rows.map((row) => [row.id, row.stock]));
  const short = [...lines]
    .sort((a, b) => a.skuId - b.skuId)
    .find((line) => (stockOf.get(line.skuId) ?? 0) < line.quantity);
  return short && { skuId: short.skuId, stock: stockOf.get(short.skuId) ?? 0 };
}

/**
 * Puts quantities back on the shelf (a cancelled order), in the caller's transaction, in
 * ascending id order. Answers whether a SKU that had run out is back.
 */
export async function returnStock(
  ctx: TransactionContext,
  lines: readonly StockLine[],
): Promise<{ backInStock: boolean }> {
  let backInStock = false;
  for (const line of [...lines].sort((a, b) => a.skuId - b.skuId)) {
    const [returned] = await ctx.db
      .update(productSkus)
      .set({ stock: sql`${productSkus.stock} + ${line.quantity}` })
      .where(eq(productSkus.id, line.skuId))
      .returning({ stock: productSkus.stock });
    if (returned?.stock === line.quantity) backInStock = true;
  }
  return { backInStock };
}

/** Adds sold quantities to the products' 'Sold' counts (SPEC section 2's cards), in the caller's transaction. */
export async function countSold(
  ctx: TransactionContext,
  lines: ReadonlyArray<{ productId: number; quantity: number }>,
): Promise<void> {
  const byProduct = new Map<number, number>();
  for (const line of lines) byProduct.set(line.productId, (byProduct.get(line.productId) ?? 0) + line.quantity);
  for (const [productId, quantity] of [...byProduct].sort(([a], [b]) => a - b)) {
    await ctx.db
      .update(products)
      .set({ soldCount: sql`${products.soldCount} + ${quantity}` })
      .where(eq(products.id, productId));
  }
}
