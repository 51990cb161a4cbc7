import { asc, eq, inArray } from 'drizzle-orm';
import { pickText, type Locale, type LocalizedText } from '../../../i18n/locales';
import { productImages, productProperties, productPropertyValues, products, productSkus } from '../../db/schema';
import type { Database } from '../../db/client';
import { AppError, BadRequestError, NotFoundError } from '../../shared/errors';
import { isCurrency, type Currency } from '../../shared/money';

/** Service note 4: "nationwide free shipping": the product adds no weight to the shipping fee. */
export const FREE_SHIPPING_NOTE = 4;

/** What the cart and checkout need to know about one SKU, straight from the catalogue. */
export interface SkuFacts {
  skuId: number;
  skuCode: string;
  productId: number;
  productName: LocalizedText;
  properties: Array<{ name: LocalizedText; value: LocalizedText }>;
  image: string | null;
  priceMinor: number;
  currency: Currency;
  stock: number;
  listed: boolean;
  weightGrams: number;
  freeShipping: boolean;
}

export async function loadSkuFacts(db: Database, skuIds: number[]): Promise<Map<number, SkuFacts>> {
  const ids = [...new Set(skuIds)];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      skuId: productSkus.id,
      skuCode: productSkus.code,
      valueIds: productSkus.valueIds,
      priceMinor: productSkus.priceMinor,
      currency: productSkus.currency,
      stock: productSkus.stock,
      skuImage: productSkus.image,
      productId: products.id,
      productName: products.name,
      listed: products.listed,
      weightGrams: products.weightGrams,
      serviceNotes: products.serviceNotes,
    })
    .from(productSkus)
    .innerJoin(products, eq(products.id, productSkus.productId))
    .where(inArray(productSkus.id, ids));
  if (rows.length === 0) return new Map();
  const productIds = [...new Set(rows.map((row) => row.productId))];
  const valueIds = [...new Set(rows.flatMap((row) => row.valueIds))];
  const [values, images] = await Promise.all([
    valueIds.length === 0
      ? []
      : db
          .select({
            id: productPropertyValues.id,
            value: productPropertyValues.value,
            name: productProperties.name,
            sort: productProperties.sort,
          })
          .from(productPropertyValues)
          .innerJoin(productProperties, eq(productProperties.id, productPropertyValues.propertyId))
          .where(inArray(productPropertyValues.id, valueIds)),
    db
      .selectDistinctOn([productImages.productId], { productId: productImages.productId, url: productImages.url })
      .from(productImages)
      .where(inArray(productImages.productId, productIds))
      .orderBy(productImages.productId, asc(productImages.sort), asc(productImages.id)),
  ]);
  const valueById = new Map(values.map((value) => [value.id, value]));
  const imageByProduct = new Map(images.map((image) => [image.productId, image.url]));
  return new Map(
    rows.map((row) => [
      row.skuId,
      {
        skuId: row.skuId,
        skuCode: row.skuCode,
        productId: row.productId,
        productName: row.productName,
        properties: row.valueIds
          .map((id) => valueById.get(id))
          .filter((value) => value !== undefined)
          .sort((a, b) => a.sort - b.sort)
          .map((value) => ({ name: value.name, value: value.value })),
        image: row.skuImage ?? imageByProduct.get(row.productId) ?? null,
        priceMinor: row.priceMinor,
        currency: isCurrency(row.currency) ? row.currency : 'CNY',
        stock: row.stock,
        listed: row.listed,
        weightGrams: row.weightGrams,
        freeShipping: row.serviceNotes.includes(FREE_SHIPPING_NOTE),
      },
    ]),
  );
}

export type LineProblem = 'sold_out' | 'insufficient_stock' | 'unlisted';

/** What stops a quantity of a SKU from being bought right now, if anything. */
export function lineProblem(facts: SkuFacts, quantity: number): LineProblem | null {
  if (!facts.listed) return 'unlisted';
  if (facts.stock <= 0) return 'sold_out';
  if (quantity > facts.stock) return 'insufficient_stock';
  return null;
}

/**
 * The one refusal for a quantity the shelf cannot give, wherever it is found: adding to or
 * changing the cart, the checkout quote, or the stock guard when the order is placed. It is a
 * conflict (409, docs/api.md): the request is well formed, the shelf is what says no, and a
 * smaller quantity may still go through. Sold out when nothing is left, else how many are.
 */
export class OutOfStockError extends AppError {
  constructor(name: string, stock: number) {
    super('conflict', stock > 0 ? 'cart.notEnoughStock' : 'cart.soldOut', { name, stock });
  }
}

/** Refuses a quantity the shelf cannot give right now, naming the product. */
export function assertLineBuyable(
  sku: SkuFacts | undefined,
  quantity: number,
  locale: Locale,
): asserts sku is SkuFacts {
  if (!sku) throw new NotFoundError('cart.skuNotFound');
  const name = pickText(sku.productName, locale);
  const problem = lineProblem(sku, quantity);
  if (problem === 'unlisted') throw new BadRequestError('cart.unlisted', { name });
  if (problem === 'sold_out' || problem === 'insufficient_stock') throw new OutOfStockError(name, sku.stock);
}

export function propertiesText(properties: SkuFacts['properties'], pick: (text: LocalizedText) => string): string {
  return properties.map((property) => `${pick(property.name)}: ${pick(property.value)}`).join(' / ');
}
