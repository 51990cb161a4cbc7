import { setImmediate as nextTurn } from 'node:timers/promises';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { ActingContext, Transaction } from '../../context';
import { inventoryAdjustments, products, productSkus } from '../../db/schema';
import { recordAudit } from '../audit/audit.service';
import { retireCatalogPages } from './catalog-pages';
import type { ProductBody, ProductStatus, ProductView } from './product-editor.schemas';
import {
  createEditorProduct,
  productColumns,
  setEditorProductStatus,
  updateEditorProduct,
} from './product-editor.service';

/** The note on the stock adjustments an import makes; a re-run recognises its own work by it. */
export const CSV_IMPORT_STOCK_NOTE = 'CSV import';
/**
 * The write phase of a products CSV import (ADR 0161). Only what differs from the shop is
 * written, one product per short transaction, so checkout is never held behind a long import:
 * the rows a product changes are locked in ascending SKU id order, the order checkout takes
 * stock in (takeStock), before the product row, so the two cannot deadlock. Stock is a
 * compare-and-set from the exported figure: an order placed since the export keeps what it
 * took, and a second run of the same file finds the stock already set and leaves it.
 */

/** A stock figure the file sets: from what the export said (still in the shop) to the new one. */
export interface StockChange {
  skuId: number;
  code: string;
  line: number;
  from: number;
  to: number;
}

/** What an import does to one product; null when the file says what the shop already holds. */
export interface ProductChange {
  /** `create`: a new product; `rewrite`: options, images, groups or the SKU set differ (the editor's save); `edit`: only columns. */
  kind: 'create' | 'rewrite' | 'edit';
  productFields: boolean;
  /** Kept SKUs whose own columns (code, price, customs, image) differ. */
  skuIds: number[];
  stock: StockChange[];
  status: ProductStatus | null;
}

/** One product as the file tells it, built into the editor's body, with where each part came from. */
export interface PlannedProduct {
  handle: string;
  firstLine: number;
  rowCount: number;
  status: ProductStatus | null;
  body: ProductBody;
  skuLines: number[];
  /** Per SKU of the body: the file's `Variant Inventory Qty` (as exported) and `(new)`. */
  stockCells: Array<{ current: number | null; next: number | null }>;
  imageLines: number[];
  existing: ProductView | null;
  change: ProductChange | null;
}

/** A stock the write left as it was: the shop's figure moved between the check and the write. */
export interface StaleStock {
  change: StockChange;
  now: number;
}

type Tx = ActingContext & { db: Transaction };

/** The file's product columns as they would be stored, to compare with the shop's. */
export function productFieldsKey(body: ProductBody): string {
  return JSON.stringify(productColumns(body));
}

export function skuColumnsKey(sku: ProductBody['skus'][number]): string {
  const { code, price_minor, hs_code, origin_country, customs_description, image } = sku;
  return JSON.stringify({ code, price_minor, hs_code, origin_country, customs_description, image });
}

/** Options, images, groups and which SKUs with which option values: a change here is the editor's whole save. */
export function structureKey(body: ProductBody): string {
  return JSON.stringify({
    options: body.options,
    images: body.images,
    groups: [...new Set(body.group_ids)].sort((a, b) => a - b),
    skus: body.skus
      .map((sku) => ({ id: sku.id ?? 0, values: sku.values }))
      .sort((a, b) => a.id - b.id || JSON.stringify(a.values).localeCompare(JSON.stringify(b.values))),
  });
}

/** Sets a SKU's stock only if it still is what the export said; answers the stock now when it is not. */
async function setStock(t: Tx, change: StockChange): Promise<number | null> {
  const [set] = await t.db
    .update(productSkus)
    .set({ stock: change.to, updatedAt: sql`now()` })
    .where(and(eq(productSkus.id, change.skuId), eq(productSkus.stock, change.from)))
    .returning({ stock: productSkus.stock });
  if (!set) {
    const [now] = await t.db
      .select({ stock: productSkus.stock })
      .from(productSkus)
      .where(eq(productSkus.id, change.skuId));
    return now?.stock ?? 0;
  }
  const delta = change.to - change.from;
  await t.db.insert(inventoryAdjustments).values({
    skuId: change.skuId,
    delta,
    stockAfter: change.to,
    reason: 'counted',
    note: CSV_IMPORT_STOCK_NOTE,
    actorType: t.actor.type,
    actorId: t.actor.id,
    actorLabel: t.actor.label,
  });
  await recordAudit(t, {
    action: 'inventory.adjusted',
    entityType: 'sku',
    entityId: change.skuId,
    before: { stock: change.from },
    after: { stock: change.to, delta, reason: 'counted', note: CSV_IMPORT_STOCK_NOTE },
  });
  return null;
}

/** Writes the columns that differ, on the product row and the SKUs that changed, with one audit event. */
async function editInPlace(t: Tx, plan: PlannedProduct, change: ProductChange, view: ProductView) {
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  if (change.productFields) {
    const columns = productColumns(plan.body);
    await t.db
      .update(products)
      .set({ ...columns, updatedAt: new Date() })
      .where(eq(products.id, view.id));
    before.product = productColumns({
      ...plan.body,
      name: view.name,
      description: view.description,
      seo_title: view.seo_title,
      seo_description: view.seo_description,
      weight_grams: view.weight_grams,
      service_notes: view.service_notes as ProductBody['service_notes'],
      final_sale: view.final_sale,
    });
    after.product = columns;
  }
  if (change.skuIds.length) {
    before.skus = [];
    after.skus = [];
  }
  for (const skuId of change.skuIds) {
    const sku = plan.body.skus.find((candidate) => candidate.id === skuId)!;
    const old = view.skus.find((candidate) => candidate.id === skuId)!;
    await t.db
      .update(productSkus)
      .set({
        code: sku.code,
        priceMinor: sku.price_minor,
        hsCode: sku.hs_code,
        originCountry: sku.origin_country,
        customsDescription: sku.customs_description,
        image: sku.image,
        updatedAt: new Date(),
      })
      .where(eq(productSkus.id, skuId));
    (before.skus as unknown[]).push({ id: skuId, ...JSON.parse(skuColumnsKey({ ...old, initial_stock: 0 })) });
    (after.skus as unknown[]).push({ id: skuId, ...JSON.parse(skuColumnsKey(sku)) });
  }
  if (change.productFields || change.skuIds.length)
    await recordAudit(t, { action: 'product.updated', entityType: 'product', entityId: view.id, before, after });
}

/** One product's changes in one transaction; answers its id and the stock it had to leave. */
async function writeProduct(ctx: ActingContext, plan: PlannedProduct, change: ProductChange) {
  const stale: StaleStock[] = [];
  const id = await ctx.db.transaction(async (tx) => {
    const t: Tx = { ...ctx, db: tx };
    const view = plan.existing;
    let productId: number;
    if (change.kind === 'create' || !view) {
      const created = await createEditorProduct(t, plan.body);
      productId = created.id;
      await tx.update(products).set({ slug: plan.handle }).where(eq(products.id, productId));
    } else {
      productId = view.id;
      // The product row first, as the console editor takes it, then the SKU rows in ascending id
      // (checkout's order): neither a console save of the same product nor a checkout can then
      // hold one of these while waiting for the other. The editor's save rewrites all the
      // product's SKUs; an edit touches only those that differ.
      await tx.select({ id: products.id }).from(products).where(eq(products.id, productId)).for('update');
      const lockIds = [...new Set([...change.skuIds, ...change.stock.map((stock) => stock.skuId)])];
      const locked =
        change.kind === 'rewrite' ? eq(productSkus.productId, productId) : inArray(productSkus.id, lockIds);
      if (change.kind === 'rewrite' || lockIds.length)
        await tx
          .select({ id: productSkus.id })
          .from(productSkus)
          .where(locked)
          .orderBy(asc(productSkus.id))
          .for('update');
      if (change.kind === 'rewrite') await updateEditorProduct(t, productId, plan.body);
      else await editInPlace(t, plan, change, view);
      for (const stock of [...change.stock].sort((a, b) => a.skuId - b.skuId)) {
        const now = await setStock(t, stock);
        if (now !== null) stale.push({ change: stock, now });
      }
    }
    if (change.status) await setEditorProductStatus(t, productId, change.status);
    return productId;
  });
  return { id, stale };
}

/**
 * Writes every planned change, existing products in id order, then new ones in file order;
 * `onWritten` hears the rows done after each product. Pages are retired and one
 * `product.imported` event is recorded even when a failure stops it halfway.
 */
export async function writePlans(
  ctx: ActingContext,
  plans: PlannedProduct[],
  summary: Record<string, unknown>,
  onWritten: (rows: number) => void,
): Promise<StaleStock[]> {
  const changing = plans.filter((plan) => plan.change);
  const ordered = [
    ...changing.filter((plan) => plan.existing).sort((a, b) => a.existing!.id - b.existing!.id),
    ...changing.filter((plan) => !plan.existing),
  ];
  const productIds: number[] = [];
  const groupIds = new Set<number>();
  const stale: StaleStock[] = [];
  let rows = 0;
  let failed = false;
  try {
    for (const plan of ordered) {
      const written = await writeProduct(ctx, plan, plan.change!);
      productIds.push(written.id);
      stale.push(...written.stale);
      for (const groupId of [...plan.body.group_ids, ...(plan.existing?.group_ids ?? [])]) groupIds.add(groupId);
      rows += plan.rowCount;
      onWritten(rows);
      await nextTurn();
    }
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    await retireCatalogPages(ctx, { productIds, groupIds: [...groupIds] });
    await ctx.db.transaction((tx) =>
      recordAudit(
        { ...ctx, db: tx },
        {
          action: 'product.imported',
          entityType: 'product',
          entityId: 'csv',
          after: { ...summary, products_written: productIds.length, stopped: failed },
        },
      ),
    );
  }
  return stale;
}
