import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { LocalizedText } from '../../../i18n/locales';
import { products, productSkus } from '../../db/schema';
import type { AppContext } from '../../context';

/** How customs reads one SKU: its classification, origin and plain description. */
export interface SkuCustoms {
  skuId: number;
  hsCode: string | null;
  originCountry: string | null;
  customsDescription: string | null;
}

export async function loadSkuCustoms(ctx: AppContext, skuIds: readonly number[]): Promise<Map<number, SkuCustoms>> {
  if (skuIds.length === 0) return new Map();
  const rows = await ctx.db
    .select({
      skuId: productSkus.id,
      hsCode: productSkus.hsCode,
      originCountry: productSkus.originCountry,
      customsDescription: productSkus.customsDescription,
    })
    .from(productSkus)
    .where(inArray(productSkus.id, [...new Set(skuIds)]));
  return new Map(rows.map((row) => [row.skuId, row]));
}

/** Listed SKUs without an HS code: duties cannot be priced for them, so checkout falls back to DDU with no estimate. */
export async function unclassifiedSkus(
  ctx: AppContext,
  limit: number,
): Promise<Array<{ skuId: number; skuCode: string; productId: number; productName: LocalizedText }>> {
  // A retired SKU (ADR 0160) is sold no more: nothing to classify.
  return ctx.db
    .select({
      skuId: productSkus.id,
      skuCode: productSkus.code,
      productId: products.id,
      productName: products.name,
    })
    .from(productSkus)
    .innerJoin(products, eq(products.id, productSkus.productId))
    .where(and(eq(products.listed, true), isNull(productSkus.hsCode), isNull(productSkus.retiredAt)))
    .orderBy(asc(productSkus.code))
    .limit(limit);
}
